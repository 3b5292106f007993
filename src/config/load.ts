// Loading: config/default.json, config/<NODE_ENV>.json, the SIGNET_CONFIG file and the
// environment merged in that order, old spellings respelt, unknown members refused, the schema
// and the cross-setting checks run, the one-chain shorthand made a one-entry CHAINS list, and the
// result frozen. Nothing else in Signet reads process.env.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../base/errors.js';
import { projectRoot } from '../base/project_root.js';
import { withChainList } from './chain_list.js';
import { CONFIG_CHECKS } from './checks.js';
import { nearest, respellMembers, unknownMember } from './config_members.js';
import { DEFAULT_ISSUER, defaultFlag } from './config_settings.js';
import { ENV_NAMES, type Env, fromEnv, settingName } from './environment.js';
import { type Config, configSchema, RATE_LIMIT_CLASSES } from './schema.js';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(file, `is not readable JSON (${(error as Error).message})`);
  }
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prior = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && prior && typeof prior === 'object' && !Array.isArray(prior)
        ? deepMerge(prior as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

function modeOf(env: Env): Config['mode'] {
  const mode = env.NODE_ENV ?? 'development';
  if (mode !== 'development' && mode !== 'test' && mode !== 'production') {
    throw new ConfigError('NODE_ENV', 'must be development, test or production');
  }
  return mode;
}

/** Builds the Config from files and environment; throws ConfigError naming the setting. */
export function loadConfig(env: Env = process.env, overrides: Record<string, unknown> = {}): Config {
  const mode = modeOf(env);
  const configDir = env.SIGNET_CONFIG_DIR ?? join(projectRoot, 'config');
  let raw = readJson(join(configDir, 'default.json'));
  const modeFile = join(configDir, `${mode}.json`);
  if (existsSync(modeFile)) raw = deepMerge(raw, readJson(modeFile));
  if (env.SIGNET_CONFIG) raw = deepMerge(raw, readJson(env.SIGNET_CONFIG));
  raw = deepMerge(raw, fromEnv(env, raw.issuer));
  raw = deepMerge(raw, overrides);
  raw.mode = mode;
  // An empty list is how a loaded Config says "the embedded chain"; settings that list no chain are a mistake.
  if (Array.isArray(raw.chains) && raw.chains.length === 0) throw new ConfigError(settingName(['chains']), 'must name at least one chain');
  return validateConfig(withDemoClientAtIssuer(raw));
}

/** The demo client's redirect URIs follow the issuer, so PORT or ISSUER alone moves the demo. */
function withDemoClientAtIssuer(raw: Record<string, unknown>): Record<string, unknown> {
  const demo = raw.demo as { enabled?: unknown } | undefined;
  const issuer = raw.issuer ?? DEFAULT_ISSUER;
  const enabled = demo?.enabled ?? defaultFlag('demo.enabled');
  if (!enabled || !Array.isArray(raw.clients) || typeof issuer !== 'string') return raw;
  return {
    ...raw,
    clients: raw.clients.map((client: { client_id?: unknown }) =>
      client?.client_id === 'demo' ? { ...client, redirect_uris: [`${issuer}/demo/callback`], post_logout_redirect_uris: [`${issuer}/demo`] } : client,
    ),
  };
}

/** What the start should say of the settings it read (old spellings), by the Config they made. */
const warningsOf = new WeakMap<Config, readonly string[]>();

/** The warnings the settings of `config` gave (logged once at start). */
export const configWarnings = (config: Config): readonly string[] => warningsOf.get(config) ?? [];

/** The variable whose value holds the member at `path` (TRUSTED_ISSUERS for claims.trustedIssuers.0.x), if any. */
function variableHolding(path: readonly string[]): string | undefined {
  for (let length = path.length - 1; length > 0; length--) {
    const variable = ENV_NAMES[path.slice(0, length).join('.')];
    if (variable) return variable;
  }
  return undefined;
}

/** Validates a raw settings object; the first problem stops the start, naming its path. */
export function validateConfig(given: unknown): Config {
  // A copy: old spellings are respelt in place.
  const raw = structuredClone(given) as Record<string, unknown>;
  const warnings = raw && typeof raw === 'object' ? respellMembers(raw, RATE_LIMIT_CLASSES) : [];
  const unknown = unknownMember(configSchema, raw);
  if (unknown) {
    const variable = variableHolding(unknown.path.split('.'));
    const meant = nearest(unknown.path.split('.').at(-1)!, unknown.known);
    throw new ConfigError(unknown.path, `is not a setting${variable ? ` (in ${variable})` : ''}${meant ? `; did you mean ${meant}?` : ''}`);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(settingName(issue.path), issue.message);
  }
  for (const { check } of CONFIG_CHECKS) check(parsed.data);
  const frozen = deepFreeze(withChainList(parsed.data));
  warningsOf.set(frozen, warnings);
  return frozen;
}
