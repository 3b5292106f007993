// The owner's rights over their data as JSON routes: who read it (access history), a copy of
// everything (export), and erasure, asked with a fresh wallet signature and run as a job whose
// state anyone holding its unguessable id may follow (the erasure ends the owner's sessions).
import { createHash } from 'node:crypto';
import { refuse } from '../../base/errors.js';
import type { AccessHistory } from '../../domain/history/access_history.js';
import { type IdentityRegistry, LINK_REFUSALS } from '../../domain/identity/identity_registry.js';
import { subjectOf } from '../../domain/identity/subject.js';
import type { IdentitySession } from '../../domain/owner_sessions/account_sessions.js';
import type { IssueChallenge, IssuedChallenge } from '../../domain/wallet/challenge.js';
import { type BeforeUse, CHALLENGE_REFUSALS, type SignedChallenge } from '../../domain/wallet/verify_challenge.js';
import { type Authenticator, anyone } from '../../http/authenticators.js';
import { type AnyRoute, route } from '../../http/route.js';
import type { ChainSet, ServedChain } from '../../infra/chain/chains.js';
import type { DataExport } from './data_export.js';
import type { ErasureJobs } from './erasure_jobs.js';
import * as forms from './owner_data_schemas.js';

export type OwnerDataRoutesDeps = {
  issuer: string;
  /** The owner of an identity on any chain (the session names its chain). */
  owner: Authenticator<IdentitySession>;
  /** Each chain's identity reads and export: the session's chain's. */
  onChain: ChainSet<ServedChain & { registry: IdentityRegistry; exportFor: DataExport }>;
  history: AccessHistory;
  erasures: ErasureJobs;
  issueChallenge: IssueChallenge;
  verifyChallenge: (signed: SignedChallenge, beforeUse?: BeforeUse) => Promise<IssuedChallenge>;
  /** Days consent receipts are kept after an erasure, for the challenge's words. */
  receiptDays: number;
};

const TAG = 'Your data';

/** The one sentence the owner signs (EIP-4361 statements are one line). */
export function erasureStatement(receiptDays: number): string {
  return (
    'Erase what Signet holds about this identity: its profile, the claim data Signet stores, claim requests, webhooks and access history; ' +
    `end every grant, token and session. Signed consent receipts are kept ${receiptDays} days as proof, then deleted. Nothing on chain is erased.`
  );
}

/** An erasure challenge belongs to the session that asked for it (named by a hash: the id is the cookie's secret). */
const bindingOf = (session: IdentitySession) => `erasure:${createHash('sha256').update(session.id).digest('base64url').slice(0, 22)}`;

export function ownerDataRoutes(deps: OwnerDataRoutesDeps): AnyRoute[] {
  const { owner } = deps;
  return [
    route({
      method: 'get',
      path: '/account/history',
      summary: "Who read the identity's data, when, what and how: newest first, of one service with `client_id`",
      tag: TAG,
      auth: owner,
      query: forms.historyQuery,
      responses: { 200: { description: 'One page of the access history', schema: forms.historyPage } },
      async handle({ query, caller }) {
        // Another chain's history is kept under its CAIP-10 id; the answer names the identity as ever.
        const chain = deps.onChain.named(caller.chain_id);
        return { body: { ...(await deps.history.page(chain.identityKey(caller.identity), query)), identity: caller.identity } };
      },
    }),

    route({
      method: 'get',
      path: '/account/export',
      summary: 'Everything Signet holds about the identity, in one JSON document (docs/export.md)',
      tag: TAG,
      auth: owner,
      responses: {
        200: {
          description: 'The export',
          schema: forms.dataExport,
          headers: { 'Content-Disposition': 'attachment; filename="signet-export-<date>.json"' },
        },
      },
      async handle({ caller }) {
        const document = await deps.onChain.named(caller.chain_id).exportFor(caller.identity, caller.id);
        const date = document.exported_at.slice(0, 10);
        return { body: document, headers: { 'Content-Disposition': `attachment; filename="signet-export-${date}.json"` } };
      },
    }),

    route({
      method: 'post',
      path: '/account/erasure/challenge',
      summary: 'Start an erasure: the text for the signed-in wallet to sign',
      tag: TAG,
      auth: owner,
      rateLimits: [{ limit: 'challengesPerAddress', key: 'client_address' }],
      responses: { 200: { description: 'The challenge', schema: forms.erasureChallenge } },
      async handle({ caller }) {
        const chain = deps.onChain.named(caller.chain_id);
        const challenge = await deps.issueChallenge({
          binding: bindingOf(caller),
          wallet: caller.wallet,
          identity: caller.identity,
          statement: erasureStatement(deps.receiptDays),
          fields: [],
          resources: [subjectOf(chain.chainId, caller.identity)],
          // Named as records name the chain (the default chain's text is as with one chain): signed and checked there.
          ...(caller.chain_id === undefined ? {} : { chainId: caller.chain_id }),
        });
        return { body: { challenge: challenge.message, expires_at: new Date(challenge.expiresAt).toISOString() } };
      },
    }),

    route({
      method: 'post',
      path: '/account/erasure',
      summary: "Erase the identity's data at Signet, with the wallet's signature of the erasure challenge",
      tag: TAG,
      auth: owner,
      body: forms.erasureBody,
      rateLimits: [{ limit: 'signaturesPerAddress', key: 'client_address' }],
      responses: {
        202: {
          description: 'The erasure job is recorded and started; follow it at Location',
          schema: forms.erasureAccepted,
          headers: { Location: 'The job: {issuer}/account/erasures/{id}' },
        },
      },
      refusals: [...CHALLENGE_REFUSALS, ...LINK_REFUSALS],
      async handle({ body, caller }) {
        const signed = { signature: body.signature, message: body.message };
        const on = deps.onChain.named(caller.chain_id);
        const challenge = await deps.verifyChallenge({ binding: bindingOf(caller), ...signed }, async (issued) => {
          // The wallet must still hold its key now, not only when it signed in.
          await on.registry.assertKnownAndLinked(caller.identity, issued.wallet);
        });
        // The job names the identity as its chain's keys do (and the wallet as that chain's creation records do).
        const job = await deps.erasures.request(on.identityKey(caller.identity), [on.identityKey(challenge.wallet)], body.revoke_issued_claims);
        return {
          status: 202,
          headers: { Location: `${deps.issuer}/account/erasures/${job.id}` },
          body: { id: job.id, status: job.status },
        };
      },
    }),

    route({
      method: 'get',
      path: '/account/erasures/{id}',
      summary: "An erasure job's state (pending, running, done), for whoever holds its id: nothing personal",
      tag: TAG,
      auth: anyone,
      params: forms.erasurePath,
      responses: { 200: { description: 'The state', schema: forms.erasureState } },
      refusals: ['erasure_not_found'],
      async handle({ params }) {
        const state = await deps.erasures.state(params.id);
        if (!state) throw refuse('erasure_not_found', 'no erasure job with this id');
        return { body: state };
      },
    }),
  ];
}
