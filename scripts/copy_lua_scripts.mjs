#!/usr/bin/env node
// Part of `npm run build` (and of the bench's build): tsc compiles only TypeScript, so this copies
// each Lua script of src/ (a .lua file beside the code that runs it) to the same place in the
// build folder, where the compiled code reads it at start (src/infra/store/lua_scripts.ts).
//   node scripts/copy_lua_scripts.mjs [build folder, default dist]
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'src');
const out = resolve(process.argv[2] ?? 'dist');
if (!existsSync(out)) {
  console.error(`${out} is missing: compile first (tsc -p tsconfig.build.json)`);
  process.exit(1);
}
let copied = 0;
for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.lua')) continue;
  const from = join(entry.parentPath, entry.name);
  const to = join(out, relative(src, from));
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  copied += 1;
}
if (!copied) {
  console.error(`no .lua file found under ${src}`);
  process.exit(1);
}
