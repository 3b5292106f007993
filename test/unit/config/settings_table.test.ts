// The "Configuration" table of docs/operations.md is the settings' declarations
// (src/config/config_settings.ts), and the declared defaults are the ones Signet runs with. When the
// first test fails, run `npm run docs:settings`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../src/base/project_root.js';
import { loadConfig } from '../../../src/config/config.js';
import { SETTINGS } from '../../../src/config/config_settings.js';
import { settingsTable, settingsTableIn, withSettingsTable } from '../../../src/config/settings_table.js';

const operations = readFileSync(join(projectRoot, 'docs', 'operations.md'), 'utf8');

test("docs/operations.md's settings table is the declarations' (else: npm run docs:settings)", () => {
  expect(settingsTableIn(operations)).toBe(settingsTable());
});

test('the table has one row per declared setting', () => {
  const rows = settingsTable().split('\n').slice(2);
  expect(rows).toHaveLength(SETTINGS.length);
  expect(rows).toContain(
    '| `REDIS_COMMAND_TIMEOUT_MS` | `redis.commandTimeoutMs` | 500 | a Redis command without an answer after this long fails (503 `store_unavailable`); 50 to 10000 |',
  );
  expect(rows).toContain('| | `challengeTtlSeconds` | 300 | life of a wallet challenge (30 to 300) |');
});

test('a table that differs is told apart, and rewriting puts the current one back', () => {
  const stale = operations.replace(
    '| `REDIS_COMMAND_TIMEOUT_MS` | `redis.commandTimeoutMs` | 500 |',
    '| `REDIS_COMMAND_TIMEOUT_MS` | `redis.commandTimeoutMs` | 400 |',
  );
  expect(settingsTableIn(stale)).not.toBe(settingsTable());
  expect(withSettingsTable(stale)).toBe(operations);
  expect(() => withSettingsTable('# no markers')).toThrow('markers');
});

test('each setting and each variable is declared once', () => {
  const paths = SETTINGS.map((setting) => setting.path);
  const names = SETTINGS.flatMap((setting) => (setting.env ? [setting.env] : []));
  expect(new Set(paths).size).toBe(paths.length);
  expect(new Set(names).size).toBe(names.length);
});

test('every declared default is the value Signet runs with when nothing is set', () => {
  const config = loadConfig({}) as unknown as Record<string, unknown>;
  const at = (path: string) => path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], config);
  const declared = SETTINGS.filter((setting) => setting.default !== undefined);
  expect(declared.length).toBeGreaterThan(30);
  for (const setting of declared) expect({ [setting.path]: at(setting.path) }).toEqual({ [setting.path]: setting.default });
});
