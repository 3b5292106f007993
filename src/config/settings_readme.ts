// README's "Configuration" table, made from the settings' declarations (src/config/config_settings.ts):
// the table that `npm run docs:settings` writes between the markers, and the check that
// README's copy is current (test/unit/settings_readme.test.ts).
import { SETTINGS, type Setting } from './config_settings.js';

export const SETTINGS_START = '<!-- settings:start (written by npm run docs:settings from src/config/config_settings.ts) -->';
export const SETTINGS_END = '<!-- settings:end -->';

const cell = (text: string) => text.replaceAll('|', '\\|');

/** README's default: the declared words, else the value (a number plain, other values as code). */
export function defaultCell(setting: Setting): string {
  if (setting.defaultText !== undefined) return setting.defaultText;
  if (setting.default === undefined) return 'none';
  return typeof setting.default === 'number' ? String(setting.default) : `\`${setting.default}\``;
}

/** One row per setting, in the declarations' order: variable, setting, default, meaning. */
export function settingsTable(): string {
  const rows = SETTINGS.map(
    (setting) => `|${setting.env ? ` \`${setting.env}\`` : ''} | \`${setting.path}\` | ${cell(defaultCell(setting))} | ${cell(setting.meaning)} |`,
  );
  return ['| variable | setting | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** The text between the markers (undefined when README has no markers). */
export function settingsTableIn(readme: string): string | undefined {
  const start = readme.indexOf(SETTINGS_START);
  const end = readme.indexOf(SETTINGS_END);
  if (start < 0 || end < start) return undefined;
  return readme.slice(start + SETTINGS_START.length, end).trim();
}

/** README with the current table between the markers. */
export function withSettingsTable(readme: string): string {
  const start = readme.indexOf(SETTINGS_START);
  const end = readme.indexOf(SETTINGS_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${SETTINGS_START} … ${SETTINGS_END} markers`);
  return `${readme.slice(0, start + SETTINGS_START.length)}\n${settingsTable()}\n${readme.slice(end)}`;
}
