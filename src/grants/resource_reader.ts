// Reads a shared resource for whoever asks: the public part for anyone; the private part for
// an OIDC access token whose login kept it, a grant's bearer token (an immediate grant serves
// exactly one read), or a service's X-API-Key holding an active persistent grant for it.
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import { SignetError } from '../errors.js';
import { subjectOf } from '../identity/subject.js';
import type { ConsentReceipts } from '../interaction/consent_receipts.js';
import type { AccessGrants } from './access_grants.js';
import type { AccessGrantStore } from './access_grant_store.js';
import type { GrantResources, ResourceRef } from './grant_resource.js';

export type ServiceAuth = { authenticate(presented: string | undefined): Promise<{ service: string }> };

export type ResourceReaderDeps = {
  provider: Provider;
  chainId: number;
  receipts: ConsentReceipts;
  grants: AccessGrantStore;
  accessGrants: AccessGrants;
  resources: GrantResources;
  services: ServiceAuth;
};

const GRANT_TOKEN_PREFIX = 'sgt_';

function bearerOf(ctx: Context): string | undefined {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header);
  if (!match) throw new SignetError('invalid_token', 'the Authorization header must be "Bearer <access token>"');
  return match[1];
}

const insufficient = (what: string) => new SignetError('insufficient_scope', what);

export function createResourceReader(deps: ResourceReaderDeps) {
  /** A grant's bearer token: the grant must be active and for this very resource. */
  const readWithGrantToken = async (ref: ResourceRef, token: string) => {
    const grantId = await deps.grants.tokenGrant(token);
    if (!grantId) throw new SignetError('invalid_token', 'the access token is invalid, expired or revoked');
    const grant = await deps.accessGrants.current(grantId);
    if (grant.resource !== ref.path) throw insufficient('the access grant of this token is for another resource');
    if (grant.status === 'revoked') throw new SignetError('access_denied', `the access grant was revoked at ${grant.revoked_at}`);
    if (grant.kind === 'immediate') await deps.accessGrants.use(grant);
    else if (grant.status !== 'active') throw new SignetError('access_denied', `the access grant is ${grant.status}`);
    return deps.resources.privatePart(ref, grant.fields);
  };

  /** An OIDC access token: what the owner kept at login, for their own identity. */
  const readWithLoginToken = async (ref: ResourceRef, token: string) => {
    const accessToken = await deps.provider.AccessToken.find(token);
    if (!accessToken?.grantId) throw new SignetError('invalid_token', 'the access token is invalid, expired or revoked');
    const receipt = await deps.receipts.find(accessToken.grantId);
    const own = receipt && accessToken.accountId === subjectOf(deps.chainId, ref.identity) && receipt.identity === ref.identity;
    if (!own) throw insufficient(`the grant of this access token does not cover this ${ref.kind}`);
    if (ref.kind === 'claim') {
      if (!receipt.claims.some((kept) => kept.toLowerCase() === ref.claimId)) throw insufficient('the grant of this access token does not cover this claim');
      return deps.resources.privatePart(ref, ['data']);
    }
    const fields = receipt.fields.filter((name) => !name.startsWith('claim:'));
    if (fields.length === 0) throw insufficient('the grant of this access token does not cover this profile');
    return deps.resources.privatePart(ref, fields);
  };

  /** A service's API key: the union of its active persistent grants on this resource. */
  const readWithApiKey = async (ref: ResourceRef, key: string) => {
    const { service } = await deps.services.authenticate(key);
    const grants = await Promise.all((await deps.grants.listIdsOn(service, ref.path)).map((id) => deps.accessGrants.current(id)));
    const fields = new Set<string>();
    for (const grant of grants) {
      if (grant.kind === 'persistent' && grant.status === 'active') {
        for (const field of grant.fields) fields.add(field);
      }
    }
    if (fields.size === 0) throw deps.accessGrants.accessDeniedFor(service);
    return deps.resources.privatePart(ref, [...fields]);
  };

  return async function read(ctx: Context, ref: ResourceRef): Promise<Record<string, unknown>> {
    const bearer = bearerOf(ctx);
    const apiKey = ctx.get('x-api-key') || undefined;
    if (bearer?.startsWith(GRANT_TOKEN_PREFIX)) return readWithGrantToken(ref, bearer);
    if (bearer) return readWithLoginToken(ref, bearer);
    if (apiKey) return readWithApiKey(ref, apiKey);
    return deps.resources.publicPart(ref);
  };
}
