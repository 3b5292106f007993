// The owner's side of CIBA: approve a backchannel login request by signing its text (which
// gives the waiting client its tokens on its next poll) or deny it.
import Router from '@koa/router';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { Address, Hex } from 'viem';
import { z } from 'zod';
import type { AccountSessions } from '../account/account_sessions.js';
import type { ClaimsService } from '../claims/claims_service.js';
import type { ClaimTopics } from '../claims/claim_topics.js';
import { conflict, notFound } from '../errors.js';
import { BODY_LIMITS, jsonBody } from '../http/body.js';
import { parseBody } from '../http/parse_body.js';
import { addressField } from '../http/schemas.js';
import { subjectOf } from '../identity/subject.js';
import { saveConsentGrant } from '../interaction/consent_grant.js';
import type { ConsentReceipts } from '../interaction/consent_receipts.js';
import { type FieldDefinition, requestedFields } from '../oidc/fields.js';
import type { VerifyLinkedSignature } from '../wallet/verify_linked_signature.js';
import type { BackchannelInbox } from './backchannel_inbox.js';

export type BackchannelRouterDeps = {
  provider: Provider;
  chainId: number;
  inbox: BackchannelInbox;
  sessions: AccountSessions;
  receipts: ConsentReceipts;
  claims: ClaimsService;
  topics: ClaimTopics;
  fields: readonly FieldDefinition[];
  verifyLinkedSignature: VerifyLinkedSignature;
  grantTtlSeconds: number;
  now: () => number;
};

const approvalBody = z.object({ signature: z.string({ error: 'is required' }).min(1, 'is required'), address: addressField.optional() });

export function createBackchannelRouter(deps: BackchannelRouterDeps): Router {
  const router = new Router({ prefix: '/account/backchannel/:id' });
  router.use(jsonBody(BODY_LIMITS.api));

  const pending = async (id: string) => {
    const request = await deps.inbox.find(id);
    if (!request) throw notFound(`no backchannel login request ${id} is waiting`);
    return request;
  };

  router.post('/approvals', async (ctx) => {
    const body = parseBody(ctx, approvalBody);
    const request = await pending(ctx.params.id!);
    const signer = await deps.verifyLinkedSignature(request.identity, request.challenge, body.signature, body.address);
    if (!(await deps.inbox.take(request.id))) throw conflict('the backchannel login request was already decided');
    const requested = requestedFields(deps.fields, request.scope, undefined);
    // Claim topics asked for share the identity's valid claims of those topics.
    const topics = requested.flatMap((field) => deps.topics.topicOfScope(field.scope)?.topic ?? []);
    const claims = topics.length ? (await deps.claims.listForTopics(request.identity, topics)).filter((claim) => claim.valid) : [];
    const accountId = subjectOf(deps.chainId, request.identity);
    const grantId = await saveConsentGrant(deps.provider, {
      accountId,
      clientId: request.client_id,
      scope: request.scope,
      requested,
      kept: request.fields,
    });
    await deps.receipts.save(
      {
        grant_id: grantId,
        client_id: request.client_id,
        identity: request.identity,
        wallet: signer as Address,
        fields: request.fields,
        claims: claims.map((claim) => claim.claim_id as Hex),
        message: request.challenge,
        signature: body.signature,
        signed_at: new Date(deps.now()).toISOString(),
      },
      deps.grantTtlSeconds,
    );
    await deps.provider.backchannelResult(request.id, grantId);
    ctx.body = { id: request.id, status: 'approved', grant_id: grantId };
  });

  router.post('/denials', async (ctx) => {
    const session = await deps.sessions.require(ctx);
    const request = await pending(ctx.params.id!);
    if (request.identity !== session.identity) throw notFound(`no backchannel login request ${request.id} is waiting`);
    if (!(await deps.inbox.take(request.id))) throw conflict('the backchannel login request was already decided');
    await deps.provider.backchannelResult(request.id, new errors.AccessDenied('the identity owner declined the login'));
    ctx.body = { id: request.id, status: 'denied' };
  });

  return router;
}
