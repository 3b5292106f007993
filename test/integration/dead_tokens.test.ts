// Every route of the table that takes an access token in Authorization answers a dead token
// (unknown, expired, its grant revoked, its one read used, its login revoked, its client's
// token revoked, a former admin token) with 401 and `WWW-Authenticate: Bearer
// error="invalid_token"` (RFC 6750 §3.1), the reason naming why (docs/decisions.md, 59). The
// routes are found from the table and its document, not listed here: a new route that takes a
// bearer token is held to it too, and one whose kind of token has no dead token below fails.
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import type { Address } from 'viem';
import { TOKEN_KINDS } from '../../src/http/authenticators.js';
import type { AnyRoute } from '../../src/http/route.js';
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { jsonApi } from '../support/json_api.js';
import { discover, logIn, startLogin } from '../support/login_driver.js';
import { ANALYTICS, type Harness, RISK, startSignet, WEBSITE } from '../support/signet_harness.js';
import { waitUntil } from '../support/wait_until.js';

const ADMIN_TOKEN = 'admin-token-of-the-dead-token-test';

let h: Harness;
let identity: Address;
const api = jsonApi(() => h.issuer);

/** A dead token, and the reason a route answers it with. */
type Dead = { what: string; token: string; reason: string };
/** The dead tokens of each bearer scheme of /openapi.json. */
const deadBySchema = new Map<string, Dead[]>();

type Document = {
  paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
};

beforeAll(async () => {
  // Challenges (and so an immediate grant's token) live 30 s, the least allowed: one expires in the test.
  h = await startSignet({ clients: [WEBSITE, ANALYTICS, RISK], challengeTtlSeconds: 30, configure: () => ({ adminToken: ADMIN_TOKEN }) });
  const owner = h.chain.accounts[0]!;
  identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
  const serviceKey = (await h.signet.apiKeys.create('analytics', 'tests')).key;
  const { agent } = await signInToAccount(h.issuer, owner);

  /** A grant of the profile, validated: its bearer token (an immediate grant's lives 30 s here, a persistent one's 600 s). */
  const grantToken = async (kind: 'immediate' | 'persistent') => {
    const request = await api('POST', `/identities/${identity}/profile/access-requests`, { key: serviceKey, body: { kind } });
    const signature = await owner.signMessage({ message: request.json.challenge });
    const validated = await api('POST', `/access-grants/${request.json.id}/validations`, { body: { signature } });
    expect(validated.status).toBe(200);
    return { id: request.json.id as string, token: validated.json.access_token as string };
  };

  // First, so that its 30 s run while the others are made.
  const expired = await grantToken('immediate');
  const revoked = await grantToken('persistent');
  expect((await api('POST', `/access-grants/${revoked.id}/revocations`, { agent, body: {} })).status).toBe(200);

  // A website's access token of a login its owner then revoked.
  const login = await logIn(await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' }), owner, { fields: ['email'] });
  const receipt = (await h.signet.receipts.listFor(identity)).find((each) => each.message === login.signed.message)!;
  expect((await api('POST', `/access-grants/${receipt.grant_id}/revocations`, { agent, body: {} })).status).toBe(200);

  // A client credentials token with scope ssf, revoked by its client.
  const risk = await discover(h.issuer, RISK);
  const ssf = (await oidc.clientCredentialsGrant(risk, { scope: 'ssf' })).access_token;
  await oidc.tokenRevocation(risk, ssf);

  // The immediate grant's token expires: its key leaves Redis with its TTL.
  const tokenKey = keys.grantToken(createHash('sha256').update(expired.token).digest('hex'));
  await waitUntil('the first grant token has expired', async () => (await h.store.get(tokenKey)) === undefined, 40_000);
  // After it, so that its own 30 s cover the tests.
  const used = await grantToken('immediate');
  expect((await api('GET', `/identities/${identity}/profile`, { token: used.token })).status).toBe(200);

  const unknown = { what: 'an unknown token', token: `sgt_${'A'.repeat(43)}`, reason: 'token_invalid' };
  deadBySchema.set('bearer', [
    unknown,
    { what: 'an expired grant token', token: expired.token, reason: 'token_invalid' },
    { what: 'the token of a revoked grant', token: revoked.token, reason: 'token_revoked' },
    { what: 'the token of an immediate grant already read', token: used.token, reason: 'token_used' },
    { what: 'the access token of a revoked login', token: login.tokens.access_token, reason: 'token_invalid' },
  ]);
  deadBySchema.set('ssfToken', [
    { ...unknown, token: 'an-unknown-access-token' },
    { what: 'a revoked client credentials token', token: ssf, reason: 'token_invalid' },
  ]);
  deadBySchema.set('adminToken', [{ what: 'a former admin token', token: 'a-former-admin-token-no-longer-set', reason: 'admin_token_invalid' }]);
}, 120_000);

afterAll(async () => {
  await h.close();
});

/** The bearer schemes a route's caller may use, from its operation in the document. */
function bearerSchemesOf(document: Document, route: AnyRoute): string[] {
  const schemes = document.components.securitySchemes;
  const security = document.paths[route.path]?.[route.method]?.security ?? [];
  return security.flatMap((each) => Object.keys(each)).filter((name) => schemes[name]?.type === 'http' && schemes[name]?.scheme === 'bearer');
}

/** A path with values its checks accept: the identity read, a well-formed claim id, any other word. */
const pathOf = (route: AnyRoute) =>
  route.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'identity' ? identity : name === 'claimId' ? `0x${'ab'.repeat(32)}` : 'any-id'));

test('the routes found: those of every kind that takes a token, and the document says the same', () => {
  const document = h.signet.openApi as unknown as Document;
  const byDocument = h.signet.routes.filter((route) => bearerSchemesOf(document, route).length > 0).map((route) => `${route.method} ${route.path}`);
  const byKind = h.signet.routes.filter((route) => TOKEN_KINDS.has(route.auth.kind)).map((route) => `${route.method} ${route.path}`);
  expect(byDocument.sort()).toEqual(byKind.sort());
  // The walk finds the reads, the SSF streams and the admin API.
  expect(byKind).toEqual(
    expect.arrayContaining(['get /identities/{identity}/profile', 'get /identities/{identity}/claims/{claimId}', 'post /ssf/streams', 'post /admin/clients']),
  );
});

test('every route that takes a bearer token answers each dead token 401 invalid_token, with its challenge and reason', async () => {
  const document = h.signet.openApi as unknown as Document;
  const answers: string[] = [];
  const expected: string[] = [];
  for (const route of h.signet.routes) {
    for (const scheme of bearerSchemesOf(document, route)) {
      const dead = deadBySchema.get(scheme);
      // A new kind of bearer token needs its dead tokens above.
      expect({ scheme, dead: dead !== undefined }).toEqual({ scheme, dead: true });
      for (const { what, token, reason } of dead!) {
        const answer = await api(route.method.toUpperCase(), pathOf(route), {
          token,
          body: route.method === 'get' || route.method === 'delete' ? undefined : {},
        });
        const line = `${route.method.toUpperCase()} ${route.path} with ${what}`;
        answers.push(`${line}: ${answer.status} ${answer.json.error} ${answer.json.reason} [${answer.headers.get('www-authenticate')}]`);
        expected.push(`${line}: 401 invalid_token ${reason} [Bearer error="invalid_token"]`);
      }
    }
  }
  // One line per route and token, so a failure names each that answered otherwise.
  expect(answers).toEqual(expected);
  expect(answers.length).toBeGreaterThanOrEqual(10);
});

test('a dead grant token is refused as dead at any resource, and names the word 1.0.0 answered until the transition ends', async () => {
  const [, , revoked, used] = deadBySchema.get('bearer')!;
  // Another resource than its grant's: dead first, not "does not cover".
  const claim = await api('GET', `/identities/${identity}/claims/0x${'cd'.repeat(32)}`, { token: revoked!.token });
  expect(claim).toMatchObject({
    status: 401,
    json: {
      error: 'invalid_token',
      reason: 'token_revoked',
      previous_reason: 'grant_revoked',
      error_description: expect.stringMatching(/^the access grant of this token was revoked at /),
    },
  });
  const again = await api('GET', `/identities/${identity}/profile`, { token: used!.token });
  expect(again).toMatchObject({ status: 401, json: { error: 'invalid_token', reason: 'token_used', previous_reason: 'grant_used' } });
});

test('a request without a token at a route that needs one gets the scheme alone, no error code (RFC 6750 §3.1)', async () => {
  const answer = await api('GET', '/admin/clients');
  expect(answer).toMatchObject({ status: 401, json: { reason: 'admin_token_invalid' } });
  expect(answer.headers.get('www-authenticate')).toBe('Bearer');
});
