// A Signet with every body-taking route reachable (a live interaction, an owner's session, an
// API key, the admin token, a CIBA client, the embedded demo's wallet) and the table of those
// routes, for the tests that throw malformed input at them; plus a snapshot of every Redis key
// to prove nothing changed.
import { Redis } from 'ioredis';
import type { Address } from 'viem';
import type { ClientConfig } from '../../src/config/config.js';
import { BODY_LIMITS } from '../../src/http/body.js';
import { signInToAccount } from './account_sign_in.js';
import { embeddedDemoRoutes } from './embedded_demo_routes.js';
import { kycIssuedBySignet } from './kyc_claims.js';
import { startLogin } from './login_driver.js';
import { ANALYTICS, basicAuth, type Harness, KIOSK, startSignet, WEBSITE } from './signet_harness.js';
import { UserAgent } from './user_agent.js';

export const ADMIN_TOKEN = 'admin-token-for-the-input-tests';

/** How a route reads its body: Signet's JSON or form step, or the engine's own parser. */
export type BodyKind = 'json' | 'form' | 'engine';

export type Target = {
  method: 'POST' | 'PUT';
  path: string;
  kind: BodyKind;
  /** The route class's byte limit. */
  bytes: number;
  headers: Record<string, string>;
  /** Body fields a schema checks; empty when the route takes no body (any JSON is accepted). */
  fields: string[];
};

export type InputTargets = {
  h: Harness;
  identity: Address;
  ownerCookie: string;
  /** The owner session's form token, which every change under it carries. */
  ownerFormToken: string;
  targets: Target[];
  redisKeys(): Promise<string[]>;
  close(): Promise<void>;
};

export async function startInputTargets(): Promise<InputTargets> {
  const h = await startSignet({
    clients: [WEBSITE, ANALYTICS, KIOSK],
    configure: (chain) => ({
      ...kycIssuedBySignet(chain),
      adminToken: ADMIN_TOKEN,
    }),
    // The demo's wallet route: its JSON-RPC body is checked like any other (it sends nothing here).
    extraRoutes: embeddedDemoRoutes,
  });
  const owner = h.chain.accounts[0]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  const { agent: ownerAgent } = await signInToAccount(h.issuer, owner);
  // An account sign-in under way (challenge asked for, not signed): its cookie is checked before the body.
  const signingIn = new UserAgent();
  await signingIn.postJson(`${h.issuer}/account/challenge`, { address: owner.address });
  const signInCookie = signingIn.cookieHeader();
  const login = await startLogin(h.issuer, WEBSITE);
  const interactionCookie = login.agent.cookieHeader();
  const apiKey = (await h.signet.apiKeys.create('analytics')).key;
  // A key's first use records last_used_at (refreshed at most once a minute after): bookkeeping
  // of an accepted key, not of the body it carried, so it is done once here, before any snapshot.
  await h.signet.apiKeys.authenticate(apiKey);
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  // The owner's pages send the session's form token with every change: the body's checks come after it.
  const session = { cookie: ownerAgent.cookieHeader(), 'x-csrf-token': ownerAgent.formToken! };
  const claimId = `0x${'ab'.repeat(32)}`;
  const { api, interaction, admin: adminClass, form, engine } = BODY_LIMITS;

  const json = (method: 'POST' | 'PUT', path: string, bytes: number, headers: Record<string, string>, fields: string[] = []): Target => ({
    method,
    path,
    kind: 'json',
    bytes,
    headers,
    fields,
  });
  const targets: Target[] = [
    json('POST', `/interaction/${login.uid}/challenge`, interaction.bytes, { cookie: interactionCookie }, [
      'address',
      'identity',
      'fields',
      'claims',
      'verified',
    ]),
    json('POST', `/interaction/${login.uid}/signature`, interaction.bytes, { cookie: interactionCookie }, ['signature', 'message']),
    json('POST', `/interaction/${login.uid}/abort`, interaction.bytes, { cookie: interactionCookie }),
    json('POST', '/account/challenge', api.bytes, {}, ['address', 'identity']),
    json('POST', '/account/session', api.bytes, { cookie: signInCookie }, ['signature', 'message']),
    json('POST', '/account/logout', api.bytes, session),
    json('POST', '/account/identity', api.bytes, session),
    json('POST', '/account/wallets/transactions', api.bytes, session, ['address', 'purpose', 'action']),
    json('POST', '/account/claims/transactions', api.bytes, session, ['action', 'claim_id', 'claim']),
    json('PUT', '/account/webhook', api.bytes, session, ['url', 'secret']),
    json('POST', `/identities/${identity}/profile/access-requests`, api.bytes, { 'x-api-key': apiKey }, ['kind', 'fields']),
    json('POST', `/identities/${identity}/claims/${claimId}/access-requests`, api.bytes, { 'x-api-key': apiKey }, ['kind', 'fields']),
    json('POST', '/access-grants/some-grant/validations', api.bytes, {}, ['signature', 'address']),
    json('POST', '/access-grants/some-grant/revocations', api.bytes, {}, ['signature']),
    json('POST', '/access-grants/some-grant/denials', api.bytes, session),
    json('POST', '/account/backchannel/some-request/approvals', api.bytes, session, ['signature', 'address']),
    json('POST', '/account/backchannel/some-request/denials', api.bytes, session),
    json('POST', '/admin/claims', adminClass.bytes, admin, ['identity', 'topic', 'data', 'expires_at', 'uri']),
    json('POST', '/admin/claims/revocations', adminClass.bytes, admin, ['identity', 'claim_id']),
    json('POST', '/admin/services/analytics/api-keys', api.bytes, admin, ['label']),
    json('POST', '/admin/services/analytics/api-keys/some-key/rotations', api.bytes, admin),
    json('POST', '/admin/webhooks/dead-letters/some-entry/replay', api.bytes, admin),
    json('POST', '/demo/wallet', interaction.bytes, {}, ['method', 'params']),
    ...['/account/profile', '/account/claims/requests', '/account/signout', '/account/accesses/some-grant/revoke'].map(
      (path): Target => ({ method: 'POST', path, kind: 'form', bytes: form.bytes, headers: session, fields: [] }),
    ),
    ...[
      ['/token', WEBSITE],
      ['/token/introspection', WEBSITE],
      ['/token/revocation', WEBSITE],
      ['/auth', WEBSITE],
      ['/request', WEBSITE],
      ['/backchannel', KIOSK],
      ['/me', WEBSITE],
      ['/session/end', WEBSITE],
    ].map(
      ([path, client]): Target => ({
        method: 'POST',
        path: path as string,
        kind: 'engine',
        bytes: engine.bytes,
        headers: { authorization: basicAuth(client as ClientConfig) },
        fields: [],
      }),
    ),
  ];

  const redis = new Redis(h.redis.url, { lazyConnect: false });
  /**
   * Every key, sorted: SCAN, not KEYS, as an operator would. Rate-limit counters
   * (signet:rate:*) are left out: they count requests, refused ones too, by design, and
   * live only for their window.
   */
  const redisKeys = async () => {
    const found = new Set<string>();
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'COUNT', 1000);
      for (const key of batch) if (!key.startsWith('signet:rate:')) found.add(key);
      cursor = next;
    } while (cursor !== '0');
    return [...found].sort();
  };
  return {
    h,
    identity,
    ownerCookie: ownerAgent.cookieHeader(),
    ownerFormToken: ownerAgent.formToken!,
    targets,
    redisKeys,
    close: async () => {
      redis.disconnect();
      await h.close();
    },
  };
}
