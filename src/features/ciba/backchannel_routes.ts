// The owner's side of CIBA as route declarations: approve a backchannel login request by
// signing its text (the waiting client gets its tokens on its next poll) or deny it.
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { Hex } from 'viem';
import { refuse } from '../../base/errors.js';
import type { BackchannelInbox } from '../../domain/backchannel/backchannel_inbox.js';
import type { ClaimTopics } from '../../domain/claims/claim_topics.js';
import type { ClaimsService } from '../../domain/claims/claims_service.js';
import type { CompleteConsent } from '../../domain/consent/complete_consent.js';
import { type FieldDefinition, requestedFields } from '../../domain/fields/fields.js';
import type { IdentitySession } from '../../domain/owner_sessions/account_sessions.js';
import { LINKED_SIGNATURE_REFUSALS, type VerifyLinkedSignature } from '../../domain/wallet/verify_linked_signature.js';
import { type Authenticator, anyone } from '../../http/authenticators.js';
import { type AnyRoute, route } from '../../http/route.js';
import * as forms from './backchannel_schemas.js';

export type BackchannelRoutesDeps = {
  provider: Provider;
  inbox: BackchannelInbox;
  /** The owner's account session on any chain (denials). */
  owner: Authenticator<IdentitySession>;
  completeConsent: CompleteConsent;
  /** Each chain's signature check and claims: a request is approved on its identity's chain. */
  chains: { named(chainId: number | undefined): { verifyLinkedSignature: VerifyLinkedSignature; claims: ClaimsService } };
  topics: ClaimTopics;
  fields: readonly FieldDefinition[];
};

const TAG = 'CIBA';

const notWaiting = (id: string) => refuse('backchannel_request_not_found', `no backchannel login request ${id} is waiting`);
const decided = () => refuse('backchannel_request_decided', 'the backchannel login request was already decided');

export function backchannelRoutes(deps: BackchannelRoutesDeps): AnyRoute[] {
  const pending = async (id: string) => {
    const request = await deps.inbox.find(id);
    if (!request) throw notWaiting(id);
    return request;
  };

  return [
    route({
      method: 'post',
      path: '/account/backchannel/{id}/approvals',
      summary: "The owner approves a CIBA login request with a linked wallet's signature of its text",
      tag: TAG,
      // The signature is the owner's proof: no session needed.
      auth: anyone,
      params: forms.backchannelPath,
      body: forms.approvalBody,
      // Counted per address and per request before the request is looked up or the signature
      // checked on the chain (decision 64).
      rateLimits: [
        { limit: 'grantAttemptsPerAddress', key: 'client_address' },
        { limit: 'grantAttemptsPerGrant', key: (_caller, ctx) => `backchannel:${String(ctx.params.id ?? '').slice(0, 64)}` },
      ],
      responses: { 200: { description: 'Approved: the client gets its tokens on its next poll', schema: forms.approval } },
      refusals: ['backchannel_request_not_found', 'backchannel_request_decided', ...LINKED_SIGNATURE_REFUSALS],
      async handle({ params, body }) {
        const request = await pending(params.id);
        const on = deps.chains.named(request.chain_id);
        const wallet = await on.verifyLinkedSignature(request.identity, request.challenge, body.signature, body.address);
        const requested = requestedFields(deps.fields, request.scope, undefined);
        // Claim topics asked for share the identity's valid claims of those topics.
        const topics = requested.flatMap((field) => deps.topics.topicOfScope(field.scope)?.topic ?? []);
        const claims = topics.length ? (await on.claims.listForTopics(request.identity, topics)).filter((claim) => claim.valid) : [];
        // Taken only after the chain reads: an outage leaves the request in the inbox.
        if (!(await deps.inbox.take(request.id))) throw decided();
        const { grantId } = await deps.completeConsent({
          identity: request.identity,
          ...(request.chain_id === undefined ? {} : { chainId: request.chain_id }),
          wallet,
          clientId: request.client_id,
          scope: request.scope,
          requested,
          fields: request.fields,
          claims: claims.map((claim) => claim.claim_id as Hex),
          message: request.challenge,
          signature: body.signature,
        });
        await deps.provider.backchannelResult(request.id, grantId);
        return { body: { id: request.id, status: 'approved', grant_id: grantId } };
      },
    }),

    route({
      method: 'post',
      path: '/account/backchannel/{id}/denials',
      summary: 'The owner denies a CIBA login request: the client gets access_denied',
      tag: TAG,
      auth: deps.owner,
      params: forms.backchannelPath,
      responses: { 200: { description: 'Denied', schema: forms.denial } },
      refusals: ['backchannel_request_not_found', 'backchannel_request_decided'],
      async handle({ params, caller }) {
        const request = await pending(params.id);
        // Another owner's request is answered as if it did not exist.
        if (request.identity !== caller.identity || request.chain_id !== caller.chain_id) throw notWaiting(request.id);
        if (!(await deps.inbox.take(request.id))) throw decided();
        await deps.provider.backchannelResult(request.id, new errors.AccessDenied('the identity owner declined the login'));
        return { body: { id: request.id, status: 'denied' } };
      },
    }),
  ];
}
