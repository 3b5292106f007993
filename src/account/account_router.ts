// The owner's account API (JSON): sign in with the same wallet challenge as the login (a
// wallet without an identity may sign in to create one), the identity's creation, the
// transactions the owner's wallet sends to manage keys and claims, and consent receipts.
import Router from '@koa/router';
import type { Hex } from 'viem';
import { z } from 'zod';
import { invalidRequest, notFound } from '../errors.js';
import { clientAddress } from '../http/client_address.js';
import { BODY_LIMITS, jsonBody } from '../http/body.js';
import { parseBody } from '../http/parse_body.js';
import type { RateLimits } from '../http/rate_limits.js';
import { addressField, signatureBody } from '../http/schemas.js';
import type { IdentityRegistry } from '../identity/identity_registry.js';
import { resolveIdentity } from '../identity/resolve_identity.js';
import { subjectOf } from '../identity/subject.js';
import type { ConsentReceipts } from '../interaction/consent_receipts.js';
import type { OwnerWebhooks } from '../notify/owner_webhooks.js';
import type { WebhookUrlGuard } from '../notify/webhook_url_guard.js';
import type { IssueChallenge, IssuedChallenge } from '../wallet/challenge.js';
import type { BeforeUse, SignedChallenge } from '../wallet/verify_challenge.js';
import type { AccountSessions } from './account_sessions.js';
import type { ClaimActions } from './claim_actions.js';
import type { IdentityCreator } from './identity_creation.js';
import type { IdentityKeys } from './identity_keys.js';

export type AccountDeps = {
  chainId: number;
  registry: IdentityRegistry;
  receipts: ConsentReceipts;
  sessions: AccountSessions;
  issueChallenge: IssueChallenge;
  verifyChallenge: (signed: SignedChallenge, beforeUse?: BeforeUse) => Promise<IssuedChallenge>;
  limits: Pick<RateLimits, 'consume' | 'consumeAll'>;
  creator: IdentityCreator;
  identityKeys: IdentityKeys;
  claimActions: ClaimActions;
  ownerWebhooks: OwnerWebhooks;
  /** Refuses a URL that does not resolve to public addresses only (SSRF). */
  webhookUrlGuard: WebhookUrlGuard;
  now: () => number;
};

const webhookBody = z.object({
  url: z.url({ error: 'must be an absolute URL' }).refine((url) => /^https?:/.test(url), 'must be an http(s) URL'),
  secret: z.string().min(16, 'needs at least 16 characters').optional(),
});
const challengeBody = z.object({ address: addressField, identity: addressField.optional() });
const hex = (what: string) => z.string({ error: `must be ${what}` }).regex(/^0x([0-9a-fA-F]{2})*$/, `must be ${what}`);
const walletChangeBody = z.object({
  address: addressField,
  purpose: z.enum(['management', 'action'], { error: 'must be "management" or "action"' }),
  action: z.enum(['add', 'remove'], { error: 'must be "add" or "remove"' }),
});
const claimChangeBody = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('remove'), claim_id: hex('a 0x-prefixed 32-byte claim id').refine((v) => v.length === 66, 'must be a 32-byte claim id') }),
    z.object({
      action: z.literal('add'),
      claim: z.object({
        topic: z.number({ error: 'must be a number' }).int().nonnegative(),
        scheme: z.number({ error: 'must be a number' }).int().nonnegative(),
        issuer: addressField,
        signature: hex('0x-prefixed hex'),
        data: hex('0x-prefixed hex'),
        uri: z.string({ error: 'must be a string' }),
      }),
    }),
  ],
  { error: 'must be "add" or "remove"' },
);

export function createAccountRouter(deps: AccountDeps): Router {
  const router = new Router({ prefix: '/account' });
  router.use(jsonBody(BODY_LIMITS.api));

  // Limits first: a challenge costs chain reads, a signature an eth_call.
  router.post('/challenge', async (ctx) => {
    await deps.limits.consumeAll([
      ['challengesPerAddress', clientAddress(ctx)],
      ['accountSignInsPerAddress', clientAddress(ctx)],
    ]);
    const body = parseBody(ctx, challengeBody);
    const binding = deps.sessions.beginSignIn(ctx);
    // A wallet with no identity (and none named) signs in to create one.
    const bare = !body.identity && !(await deps.registry.identityOf(body.address));
    const identity = bare ? null : await resolveIdentity(deps.registry, body.address, body.identity);
    const challenge = await deps.issueChallenge({
      binding,
      wallet: body.address,
      identity,
      statement: identity
        ? 'Sign in to your Signet account to see and manage what your identity shares.'
        : 'Sign in to Signet with your wallet to create your onchain identity.',
      fields: [],
      resources: [identity ? subjectOf(deps.chainId, identity) : `eip155:${deps.chainId}:${body.address}`],
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { identity, challenge: challenge.message, expires_at: new Date(challenge.expiresAt).toISOString() };
  });

  router.post('/session', async (ctx) => {
    await deps.limits.consume('signaturesPerAddress', clientAddress(ctx));
    const body = parseBody(ctx, signatureBody);
    const binding = deps.sessions.signInBinding(ctx);
    await deps.limits.consume('signaturesPerInteraction', binding);
    const challenge = await deps.verifyChallenge({ binding, ...body }, async (issued) => {
      if (!issued.identity) return;
      await deps.registry.assertKnownAndLinked(issued.identity, issued.wallet);
    });
    const session = await deps.sessions.open(ctx, challenge.identity, challenge.wallet, deps.now());
    ctx.body = { identity: session.identity, wallet: session.wallet, created_at: session.created_at };
  });

  router.post('/logout', async (ctx) => {
    await deps.sessions.close(ctx);
    ctx.status = 204;
  });

  router.get('/identity', async (ctx) => {
    const session = await deps.sessions.requireWallet(ctx);
    const record = await deps.creator.status(session.wallet);
    if (!record) throw notFound(`wallet ${session.wallet} has no identity yet`);
    if (record.status === 'deployed' && record.identity && !session.identity) await deps.sessions.attachIdentity(session, record.identity);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = record;
  });

  router.post('/identity', async (ctx) => {
    const session = await deps.sessions.requireWallet(ctx);
    if (session.identity) throw invalidRequest(`your wallet already has identity ${session.identity}`);
    const record = await deps.creator.start(session.wallet, clientAddress(ctx));
    if (record.status === 'deployed' && record.identity) await deps.sessions.attachIdentity(session, record.identity);
    ctx.status = record.status === 'pending' ? 202 : 200;
    ctx.body = record;
  });

  router.post('/wallets/transactions', async (ctx) => {
    const session = await deps.sessions.require(ctx);
    const body = parseBody(ctx, walletChangeBody);
    const purpose = body.purpose === 'management' ? 1 : 2;
    ctx.body = await deps.identityKeys.prepare(session.identity, body.address, purpose, body.action);
  });

  router.post('/claims/transactions', async (ctx) => {
    const session = await deps.sessions.require(ctx);
    const body = parseBody(ctx, claimChangeBody);
    ctx.body =
      body.action === 'remove'
        ? await deps.claimActions.prepareRemoval(session.identity, body.claim_id.toLowerCase() as Hex)
        : await deps.claimActions.prepareAddition(session.identity, { ...body.claim, signature: body.claim.signature as Hex, data: body.claim.data as Hex });
  });

  router.get('/transactions/:hash', async (ctx) => {
    const session = await deps.sessions.requireWallet(ctx);
    const hash = ctx.params.hash!;
    if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) throw invalidRequest('the transaction hash must be 0x-prefixed 32-byte hex');
    const status = await deps.identityKeys.transactionStatus(hash as Hex);
    // A change the owner just made must show on the next page, not after the cache expires.
    if (status === 'confirmed' && session.identity) deps.claimActions.forget(session.identity);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { hash, status };
  });

  router.get('/webhook', async (ctx) => {
    const session = await deps.sessions.require(ctx);
    const target = await deps.ownerWebhooks.get(session.identity);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { url: target?.url ?? null };
  });

  router.put('/webhook', async (ctx) => {
    const session = await deps.sessions.require(ctx);
    const body = parseBody(ctx, webhookBody);
    // Checked now for a clear answer to the owner, and again at each delivery (DNS can change).
    await deps.webhookUrlGuard.check(body.url);
    const target = await deps.ownerWebhooks.set(session.identity, body.url, body.secret);
    ctx.set('Cache-Control', 'no-store');
    // The secret is shown here once, like an API key.
    ctx.body = { url: target.url, secret: target.secret, events: ['access_request.created'] };
  });

  router.delete('/webhook', async (ctx) => {
    const session = await deps.sessions.require(ctx);
    await deps.ownerWebhooks.remove(session.identity);
    ctx.status = 204;
  });

  router.get('/consents', async (ctx) => {
    const session = await deps.sessions.require(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { identity: session.identity, consents: await deps.receipts.listFor(session.identity) };
  });

  router.get('/consents/:grantId', async (ctx) => {
    const session = await deps.sessions.require(ctx);
    const receipt = await deps.receipts.find(ctx.params.grantId!);
    // Another identity's receipt is answered as missing, not as forbidden: ids reveal nothing.
    if (!receipt || receipt.identity !== session.identity) throw notFound('no consent receipt with this id for your identity');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = receipt;
  });

  return router;
}
