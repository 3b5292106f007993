#!/usr/bin/env node
// Part of `npm run build`: writes <build folder>/main.js, the entry operators started Signet
// with before the code moved into its layers' folders. It imports the compiled
// src/app/main_before_layers.ts, which warns once and starts the server (docs/decisions.md, 60).
//   node scripts/write_entry_before_layers.mjs [build folder, default dist]
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const out = resolve(process.argv[2] ?? 'dist');
if (!existsSync(join(out, 'app', 'main_before_layers.js'))) {
  console.error(`${out}/app/main_before_layers.js is missing: compile first (tsc -p tsconfig.build.json)`);
  process.exit(1);
}
writeFileSync(
  join(out, 'main.js'),
  "// Written by `npm run build` (scripts/write_entry_before_layers.mjs): `node dist/main.js` still starts Signet, and says to use `signet serve`.\nimport './app/main_before_layers.js';\n",
);
