// The "Configuration" table of docs/operations.md, made from the settings' declarations
// (src/config/config_settings.ts): the table that `npm run docs:settings` writes between the
// markers, and the check that the doc's copy is current (test/unit/config/settings_table.test.ts).
// The meanings' links are relative to docs/, where the table lives.
import { markedSectionIn, withMarkedSection } from '../base/marked_section.js';
import { SETTINGS, type Setting } from './config_settings.js';

const SETTINGS_START = '<!-- settings:start (written by npm run docs:settings from src/config/config_settings.ts) -->';
const SETTINGS_END = '<!-- settings:end -->';

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The table's default: the declared words, else the value (a number plain, other values as code). */
function defaultCell(setting: Setting): string {
  if (setting.defaultText !== undefined) return setting.defaultText;
  if (setting.default === undefined) return 'none';
  if (Array.isArray(setting.default)) return setting.default.join(', ');
  return typeof setting.default === 'number' ? String(setting.default) : `\`${setting.default}\``;
}

/** One row per setting, in the declarations' order: variable, setting, default, meaning. */
export function settingsTable(): string {
  const rows = SETTINGS.map(
    (setting) => `|${setting.env ? ` \`${setting.env}\`` : ''} | \`${setting.path}\` | ${cell(defaultCell(setting))} | ${cell(setting.meaning)} |`,
  );
  return ['| variable | setting | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

const MARKERS = { start: SETTINGS_START, end: SETTINGS_END, doc: 'docs/operations.md' };

/** The text between the markers (undefined when the doc has no markers). */
export const settingsTableIn = (doc: string): string | undefined => markedSectionIn(doc, MARKERS);

/** The doc with the current table between the markers. */
export const withSettingsTable = (doc: string): string => withMarkedSection(doc, MARKERS, settingsTable());
