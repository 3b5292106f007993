// The owner's account API (JSON) as route declarations: sign in with the same wallet challenge
// as the login (a wallet without an identity may sign in to create one), the identity's
// creation, the transactions the owner's wallet sends to manage keys and claims, the owner's
// webhook, and consent receipts.

import type { Hex } from 'viem';
import { z } from 'zod';
import { caip10Of } from '../../base/caip10.js';
import { refuse } from '../../base/errors.js';
import type { ConsentReceipts } from '../../domain/consent/consent_receipts.js';
import type { IdentityRegistry } from '../../domain/identity/identity_registry.js';
import { LINK_REFUSALS } from '../../domain/identity/identity_registry.js';
import { signInIdentity } from '../../domain/identity/login_identity.js';
import { subjectOf } from '../../domain/identity/subject.js';
import type { AccountSessions } from '../../domain/owner_sessions/account_sessions.js';
import type { SessionCallers } from '../../domain/owner_sessions/session_callers.js';
import { FROM_OWN_PAGES } from '../../domain/owner_sessions/session_callers.js';
import type { IssueChallenge, IssuedChallenge } from '../../domain/wallet/challenge.js';
import type { BeforeUse, SignedChallenge } from '../../domain/wallet/verify_challenge.js';
import { CHALLENGE_REFUSALS } from '../../domain/wallet/verify_challenge.js';
import type { OwnerWebhooks } from '../../domain/webhooks/owner_webhooks.js';
import { anyone } from '../../http/authenticators.js';
import { clientAddress } from '../../http/client_address.js';
import { type AnyRoute, route } from '../../http/route.js';
import { signatureBody } from '../../http/schemas.js';
import type { ChainSet, ServedChain } from '../../infra/chain/chains.js';
import type { UrlGuard } from '../../infra/outbound/url_guard.js';
import * as forms from './account_schemas.js';
import type { ClaimActions } from './claim_actions.js';
import type { IdentityCreator } from './identity_creation.js';
import type { IdentityKeys } from './identity_keys.js';

/** What the account reads and prepares on one chain. */
export type AccountChain = { registry: IdentityRegistry; identityKeys: IdentityKeys; claimActions: ClaimActions; creator: IdentityCreator };

export type AccountRoutesDeps = {
  /** Each chain's identity reads, keys and claim changes; a session acts on its identity's chain. */
  onChain: ChainSet<ServedChain & AccountChain>;
  receipts: ConsentReceipts;
  sessions: AccountSessions;
  callers: SessionCallers;
  issueChallenge: IssueChallenge;
  verifyChallenge: (signed: SignedChallenge, beforeUse?: BeforeUse) => Promise<IssuedChallenge>;
  ownerWebhooks: OwnerWebhooks;
  /** Refuses a URL that does not resolve to public addresses only (SSRF). */
  webhookUrlGuard: UrlGuard;
  now: () => number;
};

const TAG = 'Account';

/** What verifying a sign-in's signature can answer: the challenge's checks, then the live link check. */
const SIGNATURE_REFUSALS = [...CHALLENGE_REFUSALS, ...LINK_REFUSALS];

export function accountRoutes(deps: AccountRoutesDeps): AnyRoute[] {
  const { owner, wallet, signIn } = deps.callers;
  const { onChain } = deps;
  type OnChain = (typeof onChain.all)[number];
  /** A chain id in answers only where several chains are served (one chain answers as before). */
  const chainFields = (on: OnChain) => (onChain.several ? { chain_id: on.chainId, chain_name: on.name } : {});
  return [
    route({
      method: 'post',
      path: '/account/challenge',
      summary: 'Start an account sign-in: the challenge for the wallet to sign',
      tag: TAG,
      auth: anyone,
      body: forms.challengeBody,
      // Before the chain reads a challenge costs.
      rateLimits: [
        { limit: 'challengesPerAddress', key: 'client_address' },
        { limit: 'accountSignInsPerAddress', key: 'client_address' },
      ],
      responses: {
        200: {
          description: 'The challenge; the browser keeps the sign-in cookie it belongs to',
          schema: z.union([forms.signInChallenge, forms.signInChoice]),
          headers: { 'Set-Cookie': 'signet_account_login: the sign-in under way' },
        },
      },
      refusals: ['wallet_without_identity', 'chain_not_configured', 'cross_origin_request', ...LINK_REFUSALS],
      async handle({ ctx, body }) {
        // Before any chain read: another origin's page cannot start a sign-in in this browser.
        deps.sessions.assertSameOrigin(ctx);
        const resolved = await signInIdentity(onChain, body);
        if ('choose' in resolved)
          return { body: { choose: resolved.choose.map(({ on, identity }) => ({ chain_id: on.chainId, chain_name: on.name, identity })) } };
        const { on, identity } = resolved;
        const binding = deps.sessions.beginSignIn(ctx);
        const chainId = on.chainId;
        const challenge = await deps.issueChallenge({
          binding,
          wallet: body.address,
          identity,
          statement: identity
            ? 'Sign in to your Signet account to see and manage what your identity shares.'
            : 'Sign in to Signet with your wallet to create your onchain identity.',
          fields: [],
          resources: [identity ? subjectOf(chainId, identity) : caip10Of(chainId, body.address)],
          // Named as records name the chain: the default chain's text is as with one chain.
          ...(on.idInRecords === undefined ? {} : { chainId: on.idInRecords }),
        });
        return { body: { identity, ...chainFields(on), challenge: challenge.message, expires_at: new Date(challenge.expiresAt).toISOString() } };
      },
    }),

    route({
      method: 'post',
      path: '/account/session',
      summary: "Finish an account sign-in with the wallet's signature: the owner session",
      tag: TAG,
      auth: signIn,
      body: signatureBody,
      // Per address and per sign-in, before the signature's eth_call.
      rateLimits: [
        { limit: 'signaturesPerAddress', key: 'client_address' },
        { limit: 'signaturesPerInteraction', key: (binding) => binding },
      ],
      responses: {
        200: {
          description: 'The session; the browser keeps its cookie',
          schema: forms.accountSession,
          headers: { 'Set-Cookie': 'signet_account: the owner session (httpOnly, SameSite=Strict)' },
        },
      },
      refusals: [...SIGNATURE_REFUSALS, 'chain_not_configured'],
      async handle({ ctx, body, caller: binding }) {
        const onChainOf = (chainId: number | undefined) => onChain.named(chainId);
        const challenge = await deps.verifyChallenge({ binding, ...body }, async (issued) => {
          if (!issued.identity) return;
          await onChainOf(issued.chainId).registry.assertKnownAndLinked(issued.identity, issued.wallet);
        });
        const on = onChainOf(challenge.chainId);
        const session = await deps.sessions.open(ctx, challenge.identity, challenge.wallet, deps.now(), on.idInRecords);
        return {
          body: {
            identity: session.identity,
            wallet: session.wallet,
            created_at: session.created_at,
            ...(onChain.several ? { chain_id: on.chainId } : {}),
            csrf_token: deps.sessions.formTokenOf(session),
          },
        };
      },
    }),

    route({
      method: 'post',
      path: '/account/logout',
      summary: 'End the owner session',
      tag: TAG,
      auth: anyone,
      responses: { 204: { description: 'Signed out (also when no session was open)' } },
      refusals: FROM_OWN_PAGES,
      async handle({ ctx }) {
        await deps.sessions.close(ctx);
        return { status: 204 };
      },
    }),

    route({
      method: 'get',
      path: '/account/identity',
      summary: "The signed-in wallet's identity creation, or its identity deployed earlier",
      tag: TAG,
      auth: wallet,
      responses: { 200: { description: 'The creation record', schema: forms.identityCreation } },
      refusals: ['wallet_without_identity', 'chain_unavailable'],
      async handle({ caller: session }) {
        const record = await onChain.named(session.chain_id).creator.status(session.wallet);
        if (!record) throw refuse('wallet_without_identity', `wallet ${session.wallet} has no identity yet`, { previous: 'identity_not_created' });
        if (record.status === 'deployed' && record.identity && !session.identity) await deps.sessions.attachIdentity(session, record.identity);
        return { body: record };
      },
    }),

    route({
      method: 'post',
      path: '/account/identity',
      summary: "Create an identity for the signed-in wallet (idempotent: a second call answers with the first one's record)",
      tag: TAG,
      auth: wallet,
      responses: {
        200: { description: 'The identity is deployed (or was already)', schema: forms.identityCreation },
        202: { description: 'The deployment is sent; follow it with GET /account/identity', schema: forms.identityCreation },
      },
      refusals: ['identity_exists', 'identity_deployment_off', 'identity_creation_in_progress', 'deployment_refused', 'rate_limited', 'chain_unavailable'],
      async handle({ ctx, caller: session }) {
        if (session.identity) throw refuse('identity_exists', `your wallet already has identity ${session.identity}`);
        const record = await onChain.named(session.chain_id).creator.start(session.wallet, clientAddress(ctx));
        if (record.status === 'deployed' && record.identity) await deps.sessions.attachIdentity(session, record.identity);
        return { status: record.status === 'pending' ? 202 : 200, body: record };
      },
    }),

    route({
      method: 'post',
      path: '/account/wallets/transactions',
      summary: "Prepare the transaction that adds or removes a wallet's key, for the owner's wallet to send",
      tag: TAG,
      auth: owner,
      body: forms.walletChangeBody,
      responses: { 200: { description: 'The transaction to send', schema: forms.preparedTransaction } },
      refusals: ['key_already_held', 'key_not_held', 'last_management_key', 'chain_unavailable'],
      async handle({ body, caller: session }) {
        const purpose = body.purpose === 'management' ? 'MANAGEMENT' : 'ACTION';
        return { body: await onChain.named(session.chain_id).identityKeys.prepare(session.identity, body.address, purpose, body.action) };
      },
    }),

    route({
      method: 'post',
      path: '/account/claims/transactions',
      summary: "Prepare the transaction that removes a claim, or adds one its issuer signed, for the owner's wallet to send",
      tag: TAG,
      auth: owner,
      body: forms.claimChangeBody,
      responses: { 200: { description: 'The transaction to send', schema: forms.preparedTransaction } },
      refusals: ['claim_not_found', 'claim_not_confirmed', 'chain_unavailable'],
      async handle({ body, caller: session }) {
        const { claimActions } = onChain.named(session.chain_id);
        if (body.action === 'remove') return { body: await claimActions.prepareRemoval(session.identity, body.claim_id) };
        const { signature, data } = body.claim;
        return { body: await claimActions.prepareAddition(session.identity, { ...body.claim, signature: signature as Hex, data: data as Hex }) };
      },
    }),

    route({
      method: 'get',
      path: '/account/transactions/{hash}',
      summary: 'Whether a transaction the owner sent is confirmed yet',
      tag: TAG,
      auth: wallet,
      params: forms.transactionPath,
      responses: { 200: { description: 'The transaction’s status', schema: forms.transactionStatus } },
      refusals: ['chain_unavailable'],
      async handle({ params, caller: session }) {
        const on = onChain.named(session.chain_id);
        const status = await on.identityKeys.transactionStatus(params.hash);
        // A change the owner just made must show on the next page, not after the cache expires.
        if (status === 'confirmed' && session.identity) on.claimActions.forget(session.identity);
        return { body: { hash: params.hash, status } };
      },
    }),

    route({
      method: 'get',
      path: '/account/webhook',
      summary: "The owner's webhook URL (its secret is never shown again)",
      tag: TAG,
      auth: owner,
      responses: { 200: { description: 'The URL, or null', schema: forms.ownerWebhook } },
      async handle({ caller: session }) {
        const target = await deps.ownerWebhooks.get(onChain.named(session.chain_id).identityKey(session.identity));
        return { body: { url: target?.url ?? null } };
      },
    }),

    route({
      method: 'put',
      path: '/account/webhook',
      summary: 'Set the URL Signet calls when a service requests access to the identity',
      tag: TAG,
      auth: owner,
      body: forms.webhookBody,
      responses: { 200: { description: 'The webhook and its secret, shown once', schema: forms.ownerWebhookSet } },
      refusals: ['webhook_url_not_public', 'webhook_url_unresolvable', 'dns_unavailable'],
      async handle({ body, caller: session }) {
        // Checked now for a clear answer to the owner, and again at each delivery (DNS can change).
        await deps.webhookUrlGuard.check(body.url);
        const target = await deps.ownerWebhooks.set(onChain.named(session.chain_id).identityKey(session.identity), body.url, body.secret);
        // The secret is shown here once, like an API key.
        return { body: { url: target.url, secret: target.secret, events: ['access_request.created'] } };
      },
    }),

    route({
      method: 'delete',
      path: '/account/webhook',
      summary: "Remove the owner's webhook",
      tag: TAG,
      auth: owner,
      responses: { 204: { description: 'Removed (also when none was set)' } },
      async handle({ caller: session }) {
        await deps.ownerWebhooks.remove(onChain.named(session.chain_id).identityKey(session.identity));
        return { status: 204 };
      },
    }),

    route({
      method: 'get',
      path: '/account/consents',
      summary: 'The consent receipts of the signed-in identity, newest first',
      tag: TAG,
      auth: owner,
      responses: { 200: { description: 'The receipts', schema: forms.consentList } },
      async handle({ caller: session }) {
        return { body: { identity: session.identity, consents: await deps.receipts.listFor(session.identity, session.chain_id) } };
      },
    }),

    route({
      method: 'get',
      path: '/account/consents/{grantId}',
      summary: 'One consent receipt: the exact text the owner signed, and the signature',
      tag: TAG,
      auth: owner,
      params: forms.consentPath,
      responses: { 200: { description: 'The receipt', schema: forms.consentReceipt } },
      refusals: ['consent_not_found'],
      async handle({ params, caller: session }) {
        const receipt = await deps.receipts.find(params.grantId);
        // Another identity's receipt is answered as missing, not as forbidden: ids reveal nothing.
        if (!receipt || receipt.identity !== session.identity || receipt.chain_id !== session.chain_id)
          throw refuse('consent_not_found', 'no consent receipt with this id for your identity');
        return { body: receipt };
      },
    }),
  ];
}
