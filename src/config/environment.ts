// The environment's mapping onto the settings: each declared variable's text read into the
// shape of the JSON files (fromEnv), and the name an error gives a setting (the variable it came
// in, else its path). The variables themselves are declared once, in config_settings.ts.
import { ConfigError } from '../base/errors.js';
import { type EnvReading, SETTINGS, type Setting } from './config_settings.js';

export type Env = Record<string, string | undefined>;

/** The variable that names a setting in errors, by the setting's path. */
export const ENV_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  SETTINGS.filter((setting) => setting.env && !setting.errorsByPath && !setting.readApart).map((setting) => [setting.path, setting.env!]),
);

/** Settings read from comma-separated lists: an error on one entry names the variable. */
const LIST_PATHS: ReadonlySet<string> = new Set(SETTINGS.filter((setting) => setting.parse === 'list').map((setting) => setting.path));

function parseText(setting: Setting, text: string, reading: EnvReading): unknown {
  const name = setting.env!;
  const parse = setting.parse ?? 'text';
  if (typeof parse === 'function') return parse(text, name, reading);
  switch (parse) {
    case 'text':
    case 'number':
      return text;
    case 'boolean':
      if (text !== 'true' && text !== 'false') throw new ConfigError(name, 'must be true or false');
      return text === 'true';
    case 'list':
      return text
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
    case 'json': {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new ConfigError(name, 'must be JSON');
      }
      return value || undefined;
    }
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
}

const blockOf = (path: string) => path.split('.').slice(0, -1).join('.');

/** Settings given in the environment, in the shape of the JSON files. */
export function fromEnv(env: Env, fileIssuer: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const reading: EnvReading = { env, fileIssuer, set: (path, value) => setPath(out, path, value) };
  const given = (setting: Setting) => Boolean(setting.env && env[setting.env]);
  for (const setting of SETTINGS) {
    if (!setting.env || setting.readApart) continue;
    const text = env[setting.env];
    if (setting.wholeBlock) {
      const block = SETTINGS.filter((other) => other.wholeBlock && blockOf(other.path) === blockOf(setting.path));
      if (!block.some(given)) continue;
      setPath(out, setting.path, text === undefined ? setting.default : parseText(setting, text, reading));
      continue;
    }
    if (!text) continue;
    const value = parseText(setting, text, reading);
    if (value !== undefined) setPath(out, setting.path, value);
  }
  return out;
}

/** The name an error gives a setting: the variable it is read from, else its dotted path as written. */
export function settingName(path: readonly PropertyKey[]): string {
  const dotted = path.map(String).join('.');
  // An entry of a list read from one variable (REDIS_CLUSTER's third seed) is named by the variable.
  const listPath = path.slice(0, -1).map(String).join('.');
  const list = typeof path.at(-1) === 'number' && LIST_PATHS.has(listPath) ? ENV_NAMES[listPath] : undefined;
  return ENV_NAMES[dotted] ?? list ?? (dotted || '(root)');
}
