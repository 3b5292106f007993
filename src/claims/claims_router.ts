// The per-claim resource (DESIGN §3), GET /identities/:identity/claims/:claimId: the public
// part for anyone; the private data only with an access token whose grant kept that claim.
// And the admin API through which Signet issues and revokes its own claims.
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import { getAddress, type Hex, isAddress } from 'viem';
import { z } from 'zod';
import { invalidRequest, notFound, SignetError } from '../errors.js';
import { adminAuth } from '../http/admin_auth.js';
import { parseBody } from '../http/parse_body.js';
import { addressField } from '../http/schemas.js';
import type { IdentityRegistry } from '../identity/identity_registry.js';
import { subjectOf } from '../identity/subject.js';
import type { ConsentReceipts } from '../interaction/consent_receipts.js';
import type { ClaimsService } from './claims_service.js';
import type { SignetIssuer } from './signet_issuer.js';

export type ClaimsRouterDeps = {
  provider: Provider;
  chainId: number;
  claims: ClaimsService;
  receipts: ConsentReceipts;
  registry: IdentityRegistry;
  issuer?: SignetIssuer;
  adminToken?: string;
};

const claimIdField = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte claim id');

const issueBody = z.object({
  identity: addressField,
  topic: z.string({ error: 'must name a claim topic' }),
  data: z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }),
  expires_at: z.string().optional(),
  uri: z.url({ error: 'must be an absolute URL' }).optional(),
});

const revokeBody = z.object({ identity: addressField, claim_id: claimIdField });

function bearer(ctx: Context): string | undefined {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header);
  if (!match) throw new SignetError('invalid_token', 'the Authorization header must be "Bearer <access token>"');
  return match[1];
}

export function createClaimsRouter(deps: ClaimsRouterDeps): Router {
  const router = new Router();

  router.get('/identities/:identity/claims/:claimId', async (ctx) => {
    const { identity: rawIdentity, claimId: rawClaimId } = ctx.params as { identity: string; claimId: string };
    if (!isAddress(rawIdentity)) throw invalidRequest('the identity in the path must be a 0x-prefixed 20-byte address');
    if (!claimIdField.safeParse(rawClaimId).success) throw invalidRequest('the claim id in the path must be a 0x-prefixed 32-byte hex value');
    const identity = getAddress(rawIdentity);
    const claimId = rawClaimId.toLowerCase() as Hex;
    ctx.set('Cache-Control', 'no-store');
    const token = bearer(ctx);
    if (!token) {
      await deps.registry.assertKnown(identity).catch(() => {
        throw notFound(`identity ${identity} is not registered with Signet's IdFactory`);
      });
      ctx.body = { identity, ...(await deps.claims.publicView(identity, claimId)) };
      return;
    }
    const accessToken = await deps.provider.AccessToken.find(token);
    if (!accessToken?.grantId) throw new SignetError('invalid_token', 'the access token is invalid, expired or revoked');
    const receipt = await deps.receipts.find(accessToken.grantId);
    const covers =
      receipt &&
      accessToken.accountId === subjectOf(deps.chainId, identity) &&
      receipt.identity === identity &&
      (receipt.claims ?? []).some((kept) => kept.toLowerCase() === claimId);
    if (!covers) throw new SignetError('insufficient_scope', 'the grant of this access token does not cover this claim');
    ctx.body = { identity, ...(await deps.claims.release(identity, claimId)) };
  });

  const admin = new Router({ prefix: '/admin' });
  admin.use(bodyParser({ enableTypes: ['json'], jsonLimit: '64kb' }));
  admin.use(adminAuth(deps.adminToken));
  admin.use(async (_ctx, next) => {
    if (!deps.issuer) throw notFound('Signet is not a claim issuer here: set SIGNET_ISSUER_ADDRESS and SIGNET_ISSUER_KEY');
    await next();
  });

  admin.post('/claims', async (ctx) => {
    const body = parseBody(ctx, issueBody);
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

  admin.post('/claims/revocations', async (ctx) => {
    const body = parseBody(ctx, revokeBody);
    ctx.body = await deps.issuer!.revoke(body.identity, body.claim_id.toLowerCase() as Hex);
  });

  router.use(admin.routes(), admin.allowedMethods());
  return router;
}
