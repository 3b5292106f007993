// The owner's account routes (JSON): sign in with the same wallet challenge as the login,
// then read the consent receipts of the identity (what was signed, for whom, when).
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { z } from 'zod';
import { notFound } from '../errors.js';
import { parseBody } from '../http/parse_body.js';
import { addressField, signatureBody } from '../http/schemas.js';
import type { IdentityRegistry } from '../identity/identity_registry.js';
import { resolveIdentity } from '../identity/resolve_identity.js';
import { subjectOf } from '../identity/subject.js';
import type { ConsentReceipts } from '../interaction/consent_receipts.js';
import type { IssueChallenge } from '../wallet/challenge.js';
import type { SignedChallenge } from '../wallet/verify_challenge.js';
import type { IssuedChallenge } from '../wallet/challenge.js';
import type { AccountSessions } from './account_sessions.js';

export type AccountDeps = {
  chainId: number;
  registry: IdentityRegistry;
  receipts: ConsentReceipts;
  sessions: AccountSessions;
  issueChallenge: IssueChallenge;
  verifyChallenge: (signed: SignedChallenge) => Promise<IssuedChallenge>;
  now: () => number;
};

const challengeBody = z.object({ address: addressField, identity: addressField.optional() });

export function createAccountRouter(deps: AccountDeps): Router {
  const router = new Router({ prefix: '/account' });
  router.use(bodyParser({ enableTypes: ['json'], jsonLimit: '16kb' }));

  router.post('/challenge', async (ctx) => {
    const body = parseBody(ctx, challengeBody);
    const identity = await resolveIdentity(deps.registry, body.address, body.identity);
    const challenge = await deps.issueChallenge({
      binding: deps.sessions.beginSignIn(ctx),
      wallet: body.address,
      identity,
      statement: 'Sign in to your Signet account to see and manage what your identity shares.',
      fields: [],
      resources: [subjectOf(deps.chainId, identity)],
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { identity, challenge: challenge.message, expires_at: new Date(challenge.expiresAt).toISOString() };
  });

  router.post('/session', async (ctx) => {
    const body = parseBody(ctx, signatureBody);
    const challenge = await deps.verifyChallenge({ binding: deps.sessions.signInBinding(ctx), ...body });
    await deps.registry.assertKnown(challenge.identity);
    await deps.registry.assertLinked(challenge.identity, challenge.wallet);
    const session = await deps.sessions.open(ctx, challenge.identity, challenge.wallet, deps.now());
    ctx.body = { identity: session.identity, wallet: session.wallet, created_at: session.created_at };
  });

  router.post('/logout', async (ctx) => {
    await deps.sessions.close(ctx);
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
