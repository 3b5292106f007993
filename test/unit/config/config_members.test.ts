// The settings refuse members they do not know, naming the member's path and the one it most
// looks like; JSON settings are spelt snake_case, their old camelCase members read with a warning.
import { configWarnings, loadConfig, validateConfig } from '../../../src/config/config.js';
import { SETTINGS, variableOfPath } from '../../../src/config/config_settings.js';
import { configSchema } from '../../../src/config/schema.js';
import { configRefusal } from '../../support/config_refusal.js';

const ISSUER = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const TOPICS = JSON.stringify([
  { name: 'kyc', topic: 1, description: 'KYC' },
  { name: 'accredited', topic: 7, description: 'Accredited' },
]);

const refusal = configRefusal;

test.each([
  [
    { CLAIM_TOPICS: TOPICS, TRUSTED_ISSUERS: JSON.stringify([{ address: ISSUER, topics: ['kyc'], trust_framework: { kyc: 'de_aml' } }]) },
    'configuration: claims.trustedIssuers.0.trust_framework is not a setting (in TRUSTED_ISSUERS); did you mean trust_frameworks?',
  ],
  [
    { CLAIM_TOPICS: TOPICS, TRUSTED_ISSUERS: JSON.stringify([{ address: ISSUER, topics: ['kyc'], chainId: 1 }]) },
    'configuration: claims.trustedIssuers.0.chainId is not a setting (in TRUSTED_ISSUERS); did you mean chain_id?',
  ],
  [
    { RATE_LIMITS: JSON.stringify({ challenges_per_adress: { points: 1, seconds: 1 } }) },
    'configuration: rateLimits.challenges_per_adress is not a setting (in RATE_LIMITS); did you mean challenges_per_address?',
  ],
  [
    { RATE_LIMITS: JSON.stringify({ challenges_per_address: { points: 1, second: 1 } }) },
    'configuration: rateLimits.challenges_per_address.second is not a setting (in RATE_LIMITS); did you mean seconds?',
  ],
  [
    { CHAINS: JSON.stringify([{ chain_id: 1, name: 'One', rpc_url: 'http://127.0.0.1:8545', identity_factory: ISSUER, confirmation: 3 }]) },
    'configuration: chains.0.confirmation is not a setting (in CHAINS); did you mean confirmations?',
  ],
  [
    { CLIENTS: JSON.stringify([{ client_id: 'a', client_secret: 'secret-secret', client_name: 'A', redirect_uri: ['https://a.example/cb'] }]) },
    'configuration: clients.0.redirect_uri is not a setting; did you mean redirect_uris?',
  ],
  [{ DISPLAY_NAMES: JSON.stringify({ issuers: [], colours: [] }) }, 'configuration: displayNames.colours is not a setting (in DISPLAY_NAMES)'],
  [
    { DISPLAY_NAMES: JSON.stringify({ issuers: [{ address: ISSUER, nmae: 'X' }] }) },
    'configuration: displayNames.issuers.0.nmae is not a setting (in DISPLAY_NAMES); did you mean name?',
  ],
  [
    { DISPLAY_NAMES: JSON.stringify({ topics: [{ topics: 'kyc', name: 'KYC' }] }) },
    'configuration: displayNames.topics.0.topics is not a setting (in DISPLAY_NAMES); did you mean topic?',
  ],
  [
    { DISPLAY_NAMES: JSON.stringify({ trust_frameworks: [{ trustFramework: 'de_aml', name: 'German AML rules' }] }) },
    'configuration: displayNames.trust_frameworks.0.trustFramework is not a setting (in DISPLAY_NAMES); did you mean trust_framework?',
  ],
  [
    { CLAIM_TOPICS: JSON.stringify([{ name: 'kyc', topic: 1, descripton: 'KYC' }]) },
    'configuration: claims.topics.0.descripton is not a setting (in CLAIM_TOPICS); did you mean description?',
  ],
  [
    {
      CHAINS: JSON.stringify([{ chain_id: 1, name: 'One', rpc_urls: [{ url: 'http://127.0.0.1:8545', lable: 'local' }], identity_factory: ISSUER }]),
    },
    'configuration: chains.0.rpc_urls.0.lable is not a setting (in CHAINS); did you mean label?',
  ],
  [{ JWKS: JSON.stringify({ key: [] }) }, 'configuration: jwks.key is not a setting (in JWKS); did you mean keys?'],
  [
    { CLIENTS: JSON.stringify([{ client_id: 'a', client_name: 'A', redirect_uris: ['https://a.example/cb'], jwks: { kyes: [] } }]) },
    'configuration: clients.0.jwks.kyes is not a setting; did you mean keys?',
  ],
])('an unknown member stops the start, named with its path: %j', (env, message) => {
  expect(refusal(env as Record<string, string>)).toBe(message);
});

test('a JSON Web Key keeps any member a key may have', () => {
  const jwk = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd', kid: 'k', use: 'sig', alg: 'ES256', key_ops: ['sign'] };
  expect(loadConfig({ JWKS: JSON.stringify({ keys: [jwk] }) }).jwks?.keys[0]).toMatchObject({ key_ops: ['sign'] });
});

test('snake_case members are read; the old camelCase ones still are, each with a warning naming the new spelling', () => {
  const current = loadConfig({
    CLAIM_TOPICS: TOPICS,
    TRUSTED_ISSUERS: JSON.stringify([{ address: ISSUER, topics: ['kyc'], trust_frameworks: { kyc: 'de_aml' } }]),
    RATE_LIMITS: JSON.stringify({ challenges_per_address: { points: 7, seconds: 60 }, failed_signatures_per_challenge: 2 }),
    DISPLAY_NAMES: JSON.stringify({ trust_frameworks: [{ trust_framework: 'de_aml', name: 'German AML rules' }] }),
  });
  expect(current.claims.trustedIssuers[0]!.trustFrameworks).toEqual({ kyc: 'de_aml' });
  expect(current.rateLimits.challengesPerAddress).toEqual({ points: 7, seconds: 60 });
  expect(current.rateLimits.failedSignaturesPerChallenge).toBe(2);
  expect(current.displayNames.trustFrameworks).toEqual([{ trust_framework: 'de_aml', name: 'German AML rules' }]);
  expect(configWarnings(current)).toEqual([]);

  const old = loadConfig({
    CLAIM_TOPICS: TOPICS,
    TRUSTED_ISSUERS: JSON.stringify([{ address: ISSUER, topics: ['kyc'], trustFrameworks: { kyc: 'de_aml' } }]),
    RATE_LIMITS: JSON.stringify({ challengesPerAddress: { points: 7, seconds: 60 }, failedSignaturesPerChallenge: 2 }),
    DISPLAY_NAMES: JSON.stringify({ trustFrameworks: [{ trust_framework: 'de_aml', name: 'German AML rules' }] }),
  });
  // The same Config as the one spelling gives.
  expect(old).toEqual(current);
  expect(configWarnings(old)).toEqual([
    'claims.trustedIssuers.0.trustFrameworks is the old spelling of claims.trustedIssuers.0.trust_frameworks: it is read in this release only, write trust_frameworks',
    'displayNames.trustFrameworks is the old spelling of displayNames.trust_frameworks: it is read in this release only, write trust_frameworks',
    'rateLimits.challengesPerAddress is the old spelling of rateLimits.challenges_per_address: it is read in this release only, write challenges_per_address',
    'rateLimits.failedSignaturesPerChallenge is the old spelling of rateLimits.failed_signatures_per_challenge: it is read in this release only, write failed_signatures_per_challenge',
  ]);
});

test('a Config given back to validateConfig reads as the same Config', () => {
  const config = loadConfig({
    CLAIM_TOPICS: TOPICS,
    TRUSTED_ISSUERS: JSON.stringify([{ address: ISSUER, topics: ['kyc'], trust_frameworks: { kyc: 'de_aml' } }]),
  });
  expect(validateConfig(config)).toEqual(config);
});

test('one member in both spellings stops the start', () => {
  expect(refusal({ RATE_LIMITS: JSON.stringify({ challengesPerAddress: { points: 1, seconds: 1 }, challenges_per_address: { points: 2, seconds: 1 } }) })).toBe(
    'configuration: rateLimits.challenges_per_address is given twice, as challenges_per_address and as challengesPerAddress: keep challenges_per_address',
  );
});

test('a bad value under a respelt member is named in the one spelling', () => {
  expect(refusal({ RATE_LIMITS: JSON.stringify({ challenges_per_address: { points: 0, seconds: 1 } }) })).toMatch(
    /^configuration: rateLimits\.challenges_per_address\.points /,
  );
});

test.each([
  [{ chainCacheSecond: 5 }, 'configuration: chainCacheSecond is not a setting; did you mean chainCacheSeconds?'],
  [{ ttl: { acessToken: 60 } }, 'configuration: ttl.acessToken is not a setting; did you mean accessToken?'],
  [{ grants: { pendingSecond: 60 } }, 'configuration: grants.pendingSecond is not a setting; did you mean pendingSeconds?'],
  [{ chainWatch: { polMs: 500 } }, 'configuration: chainWatch.polMs is not a setting; did you mean pollMs?'],
  [
    { chain: { rpcUrls: [{ url: 'http://127.0.0.1:8545', labl: 'a' }] } },
    'configuration: chain.rpcUrls.0.labl is not a setting (in CHAIN_RPC_URLS); did you mean label?',
  ],
])('a file setting with an unknown member stops the start, named with its path: %j', (file, message) => {
  expect(() => loadConfig({}, file)).toThrow(message);
});

// Every object of the schema is one the check of unknown members reaches: it walks the same
// wrappers, lists and unions, so a new setting cannot slip past it.
type Def = { type: string; [member: string]: unknown };
const defOf = (schema: unknown) => (schema as { _zod: { def: Def } })._zod.def;
const WRAPPERS = ['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly'];
const INNER = [...WRAPPERS, 'pipe', 'array', 'record', 'union', 'object'];
const LEAVES = ['string', 'number', 'boolean', 'enum', 'literal', 'never', 'unknown', 'any', 'transform'];

/** The schemas inside one, with what each adds to the path; `asChecked`: only those the check of unknown members walks. */
function innerOf(def: Def, asChecked: boolean): [unknown, string][] {
  if (WRAPPERS.includes(def.type)) return [[def.innerType, '']];
  switch (def.type) {
    case 'pipe':
      return asChecked
        ? [[def.in, '']]
        : [
            [def.in, ''],
            [def.out, ''],
          ];
    case 'array':
      return [[def.element, '[]']];
    case 'record':
      return [[def.valueType, '{}']];
    case 'union': {
      const options = def.options as unknown[];
      const objects = options.filter((option) => defOf(option).type === 'object');
      return (asChecked ? objects.slice(0, 1) : options).map((option) => [option, '']);
    }
    case 'object':
      return Object.entries(def.shape as Record<string, unknown>).map(([name, inner]) => [inner, `.${name}`]);
    default:
      return [];
  }
}

/** Every schema inside `schema` with its path (members dotted, list entries `[]`), `schema` first. */
function everyNode(schema: unknown, asChecked: boolean, path = ''): { def: Def; path: string }[] {
  const def = defOf(schema);
  const inner = innerOf(def, asChecked).flatMap(([each, step]) => everyNode(each, asChecked, `${path}${step}`));
  return [{ def, path: path.replace(/^\./, '') }, ...inner];
}

test('the check of unknown members reaches every object of the schema, at every depth', () => {
  const objects = (asChecked: boolean) => everyNode(configSchema, asChecked).flatMap(({ def, path }) => (def.type === 'object' ? [path] : []));
  const every = everyNode(configSchema, false);
  expect(every.filter(({ def }) => !INNER.includes(def.type) && !LEAVES.includes(def.type)).map(({ def, path }) => `${path}: ${def.type}`)).toEqual([]);
  // The check takes a union's object option: a union of two objects would leave one unchecked.
  const unionsOfObjects = every.filter(
    ({ def }) => def.type === 'union' && (def.options as unknown[]).filter((option) => defOf(option).type === 'object').length > 1,
  );
  expect(unionsOfObjects.map(({ path }) => path)).toEqual([]);
  expect(objects(true)).toEqual(objects(false));
  expect(objects(false)).toEqual(
    expect.arrayContaining(['chains[].rpc_urls[]', 'claims.trustedIssuers[]', 'displayNames.trust_frameworks[]', 'rateLimits.challenges_per_address']),
  );
});

test("every member of a JSON setting is spelt snake_case in the schema; a setting's path is camelCase", () => {
  const jsonPaths = SETTINGS.filter((setting) => setting.parse === 'json').map((setting) => setting.path);
  const members = everyNode(configSchema, true).map(({ path }) => path.replaceAll('[]', '').replaceAll('{}', ''));
  const camel = members.filter((path) => jsonPaths.some((json) => path.startsWith(`${json}.`)) && /[A-Z]/.test(path.split('.').at(-1)!));
  expect(camel).toEqual([]);
  expect(members).toEqual(expect.arrayContaining(['claims.trustedIssuers.trust_frameworks', 'rateLimits.failed_signatures_per_challenge']));
});

test("every variable is its setting's path in capitals, or says why it is not", () => {
  const unexplained = SETTINGS.filter((setting) => setting.env && setting.env !== variableOfPath(setting.path) && !setting.variableNamed);
  expect(unexplained.map((setting) => setting.env)).toEqual([]);
  expect(variableOfPath('chainWatch.pollMs')).toBe('CHAIN_WATCH_POLL_MS');
  // A reason on a variable that matches would be out of date.
  expect(SETTINGS.filter((setting) => setting.variableNamed && setting.env === variableOfPath(setting.path))).toEqual([]);
});
