// Signet's version, read from package.json, its one source: `signet --version` prints it,
// /healthz answers it, and CHANGELOG.md lists what changed under it (docs/decisions.md, 61).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './project_root.js';

export const SIGNET_VERSION: string = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
