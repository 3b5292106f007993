// Every .lua file of src/ is a script some part registers (or the library scripts are built on),
// every registered script is run by the code, and no two scripts on one client share a name.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { HISTORY_SCRIPTS } from '../../../../src/domain/history/history_log.js';
import { WEBHOOK_SCRIPTS } from '../../../../src/domain/webhooks/redis_webhook_queue.js';
import { projectRoot } from '../../../../src/base/project_root.js';
import { RATE_LIMIT_SCRIPTS } from '../../../../src/infra/rate_limits/rate_limits.js';
import { commandNameOf, type LuaScript } from '../../../../src/infra/store/lua_scripts.js';
import { STORE_SCRIPTS } from '../../../../src/infra/store/store_scripts.js';

const src = join(projectRoot, 'src');
const filesUnder = (suffix: string) =>
  readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => relative(src, join(entry.parentPath, entry.name)));

// Each list with the folder its files are read from.
const registries: [folder: string, scripts: readonly LuaScript[]][] = [
  ['infra/store/scripts', STORE_SCRIPTS],
  ['infra/rate_limits/scripts', RATE_LIMIT_SCRIPTS],
  ['domain/history/scripts', HISTORY_SCRIPTS],
  ['domain/webhooks/scripts', WEBHOOK_SCRIPTS],
];

test('every .lua file of src/ is read by one list of scripts, and each list only reads its own folder', () => {
  const read = new Set(registries.flatMap(([folder, scripts]) => scripts.flatMap((script) => script.files.map((file) => join(folder, file)))));
  expect([...read].sort()).toEqual(filesUnder('.lua').sort());
});

test('each script is named after its file, and the scripts that share a client have distinct names', () => {
  for (const [, scripts] of registries) for (const script of scripts) expect(script.name).toBe(commandNameOf(script.files.at(-1)!));
  // The store's client runs the history's script too; the queue and the rate limits have their own names.
  const names = registries.flatMap(([, scripts]) => scripts.map((script) => script.name));
  expect(new Set(names).size).toBe(names.length);
});

test('no registered script is left unused: the code runs each by its name, or hands its file to a library', () => {
  const code = filesUnder('.ts')
    .map((file) => readFileSync(join(src, file), 'utf8'))
    .join('\n');
  for (const [, scripts] of registries) {
    for (const script of scripts) {
      const run =
        code.includes(`.${script.name}(`) || code.includes(`'${script.name}'`) || code.includes(`luaScriptOf(RATE_LIMIT_SCRIPTS, '${script.files.at(-1)}')`);
      expect([script.name, run]).toEqual([script.name, true]);
    }
  }
});

test('no Lua script is written inside a TypeScript file', () => {
  const inline = filesUnder('.ts').filter((file) => readFileSync(join(src, file), 'utf8').includes('redis.call('));
  expect(inline).toEqual([]);
});
