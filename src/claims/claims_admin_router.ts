// The admin API through which Signet issues and revokes its own claims.
import Router from '@koa/router';
import type { Hex } from 'viem';
import { z } from 'zod';
import type { ClaimRequests } from '../account/claim_requests.js';
import { notFound } from '../errors.js';
import { adminAuth } from '../http/admin_auth.js';
import { BODY_LIMITS, jsonBody } from '../http/body.js';
import { parseBody } from '../http/parse_body.js';
import { addressField } from '../http/schemas.js';
import { assertClaimDataBounds } from './claim_document.js';
import type { SignetIssuer } from './signet_issuer.js';

export type ClaimsAdminDeps = { issuer?: SignetIssuer; claimRequests?: ClaimRequests; adminToken?: string };

const claimIdField = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte claim id');

const issueBody = z.object({
  identity: addressField,
  topic: z.string({ error: 'must name a claim topic' }),
  data: z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }),
  expires_at: z.string().optional(),
  uri: z.url({ error: 'must be an absolute URL' }).optional(),
});

const revokeBody = z.object({ identity: addressField, claim_id: claimIdField });

export function createClaimsAdminRouter(deps: ClaimsAdminDeps): Router {
  const admin = new Router({ prefix: '/admin' });
  admin.use(jsonBody(BODY_LIMITS.admin));
  admin.use(adminAuth(deps.adminToken));
  admin.use(async (_ctx, next) => {
    if (!deps.issuer) throw notFound('Signet is not a claim issuer here: set SIGNET_ISSUER_ADDRESS and SIGNET_ISSUER_KEY');
    await next();
  });

  admin.post('/claims', async (ctx) => {
    const body = parseBody(ctx, issueBody);
    assertClaimDataBounds(body.data);
    const result = await deps.issuer!.issue({
      identity: body.identity,
      topic: body.topic,
      data: body.data,
      expiresAt: body.expires_at,
      uri: body.uri,
    });
    ctx.status = 201;
    ctx.set('Location', `/identities/${body.identity}/claims/${result.claim_id}`);
    ctx.body = result;
  });

  admin.get('/claim-requests', async (ctx) => {
    ctx.body = { claim_requests: (await deps.claimRequests?.list()) ?? [] };
  });

  admin.post('/claims/revocations', async (ctx) => {
    const body = parseBody(ctx, revokeBody);
    ctx.body = await deps.issuer!.revoke(body.identity, body.claim_id.toLowerCase() as Hex);
  });

  return admin;
}
