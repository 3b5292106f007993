// The access-grant API (spec part 4, DESIGN §3): access requests on each resource, the grant
// record, validations, denials, revocations and listing; and the resource reads themselves.
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Address } from 'viem';
import type { AccountSessions } from '../account/account_sessions.js';
import type { BackchannelRequest } from '../ciba/backchannel_inbox.js';
import { SignetError } from '../errors.js';
import { BODY_LIMITS, jsonBody } from '../http/body.js';
import { parseBody } from '../http/parse_body.js';
import { addressField } from '../http/schemas.js';
import type { AccessGrants } from './access_grants.js';
import { claimRef, profileRef, type ResourceRef } from './grant_resource.js';
import type { createGrantListing } from './grant_listing.js';
import type { RevokeAsOwner } from './owner_revocation.js';
import type { createResourceReader, ServiceAuth } from './resource_reader.js';

export type AccessGrantsRouterDeps = {
  accessGrants: AccessGrants;
  listing: ReturnType<typeof createGrantListing>;
  readResource: ReturnType<typeof createResourceReader>;
  services: ServiceAuth;
  sessions: AccountSessions;
  /** CIBA login requests waiting for this identity's owner. */
  backchannelFor: (identity: Address) => Promise<BackchannelRequest[]>;
  revokeAsOwner: RevokeAsOwner;
};

const requestBody = z.object({
  kind: z.enum(['immediate', 'persistent'], { error: 'must be "immediate" or "persistent"' }),
  fields: z.array(z.string({ error: 'must list field names' }), { error: 'must be a list of field names' }).optional(),
});

const validationBody = z.object({
  signature: z.string({ error: 'is required' }).min(1, 'is required'),
  address: addressField.optional(),
});

const revocationBody = z.object({ signature: z.string().min(1, 'is required').optional() });

/** Who calls: a service with its API key, or the owner with an account session. */
async function callerOf(ctx: Context, deps: AccessGrantsRouterDeps) {
  const key = ctx.get('x-api-key');
  if (key) return { service: (await deps.services.authenticate(key)).service };
  const session = await deps.sessions.find(ctx);
  if (session) return { identity: session.identity };
  throw new SignetError('invalid_client', 'send an X-API-Key, or sign in to your account');
}

export function createAccessGrantsRouter(deps: AccessGrantsRouterDeps): Router {
  const router = new Router();
  const json = jsonBody(BODY_LIMITS.api);

  const requestAccess = async (ctx: Context, ref: ResourceRef) => {
    const { service } = await deps.services.authenticate(ctx.get('x-api-key') || undefined);
    const body = parseBody(ctx, requestBody);
    const grant = await deps.accessGrants.request(ref, service, body.kind, body.fields);
    ctx.status = 201;
    ctx.set('Location', `/access-grants/${grant.id}`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { id: grant.id, kind: grant.kind, status: grant.status, fields: grant.fields, challenge: grant.challenge, expires_at: grant.expires_at };
  };

  router.post('/identities/:identity/profile/access-requests', json, (ctx) => requestAccess(ctx, profileRef(ctx.params.identity!)));
  router.post('/identities/:identity/claims/:claimId/access-requests', json, (ctx) =>
    requestAccess(ctx, claimRef(ctx.params.identity!, ctx.params.claimId!)),
  );

  router.get('/identities/:identity/profile', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await deps.readResource(ctx, profileRef(ctx.params.identity!));
  });
  router.get('/identities/:identity/claims/:claimId', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await deps.readResource(ctx, claimRef(ctx.params.identity!, ctx.params.claimId!));
  });

  router.get('/access-grants', async (ctx) => {
    const caller = await callerOf(ctx, deps);
    const { identity, cursor, limit } = ctx.query as Record<string, string | undefined>;
    if (caller.identity && identity && identity.toLowerCase() !== caller.identity.toLowerCase()) {
      throw new SignetError('access_denied', 'you can list only the grants of the identity you signed in with');
    }
    ctx.set('Cache-Control', 'no-store');
    const owner = caller.identity ? { identity: caller.identity } : { service: caller.service! };
    ctx.body = await deps.listing.list(owner, { cursor, limit });
  });

  router.get('/access-grants/:id', async (ctx) => {
    const caller = await callerOf(ctx, deps);
    const grant = await deps.accessGrants.current(ctx.params.id!);
    deps.accessGrants.assertOwnedBy(grant, caller);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = grant;
  });

  router.post('/access-grants/:id/validations', json, async (ctx) => {
    const body = parseBody(ctx, validationBody);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await deps.accessGrants.validate(ctx.params.id!, body.signature, body.address);
  });

  router.post('/access-grants/:id/denials', json, async (ctx) => {
    const session = await deps.sessions.require(ctx);
    ctx.body = await deps.accessGrants.deny(ctx.params.id!, session.identity);
  });

  router.post('/access-grants/:id/revocations', json, async (ctx) => {
    const body = parseBody(ctx, revocationBody);
    const id = ctx.params.id!;
    const session = await deps.sessions.find(ctx);
    if (session) {
      ctx.body = await deps.revokeAsOwner(id, session.identity);
      return;
    }
    if (!body.signature) throw new SignetError('invalid_token', 'sign in to your account, or send the owner\'s "signature" of the revocation text');
    ctx.body = await deps.accessGrants.revoke(id, { signature: body.signature });
  });

  router.get('/account/inbox', async (ctx) => {
    const session = await deps.sessions.require(ctx);
    const { items } = await deps.listing.list({ identity: session.identity }, { limit: '100' });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      identity: session.identity,
      pending: items.filter((grant) => grant.status === 'pending'),
      backchannel: await deps.backchannelFor(session.identity),
    };
  });

  return router;
}
