// The project's root folder (where views/, public/ and config/ live), found from this file
// whether it runs from src/ (tests), dist/ (npm start) or another build folder.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'views'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Signet cannot find its project folder (views/ next to package.json)');
    dir = parent;
  }
}

export const projectRoot = findRoot();
