// The configuration, as the rest of Signet imports it. Each part lives once in this folder:
// config_settings.ts declares every setting (variable, path, default, meaning), environment.ts
// reads the variables, schema.ts validates, checks.ts holds the rules across settings,
// chain_list.ts reads the one-chain shorthand as a one-entry CHAINS list,
// config_members.ts refuses unknown members and respells old ones, load.ts puts them together.
export { CONFIG_CHECKS, DEMO_COOKIE_KEY_PREFIX } from './checks.js';
export { defaultFlag, defaultNumber } from './config_settings.js';
export { configWarnings, loadConfig, validateConfig } from './load.js';
export type { ChainSetting, ClientConfig, Config, RateLimitSettings } from './schema.js';
