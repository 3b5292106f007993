// The access-grant API (docs/decisions.md, 15) as route declarations: access requests on each
// resource, the resource reads, the grant record, validations, denials, revocations, listing,
// and the owner's inbox.

import type { Context } from 'koa';
import type { Address } from 'viem';
import { refuse } from '../../base/errors.js';
import type { BackchannelRequest } from '../../domain/backchannel/backchannel_inbox.js';
import { presentationOf } from '../../domain/dpop/dpop_presentation.js';
import type { IdentitySession } from '../../domain/owner_sessions/account_sessions.js';
import type { SessionCallers } from '../../domain/owner_sessions/session_callers.js';
import { FROM_OWN_PAGES } from '../../domain/owner_sessions/session_callers.js';
import { LINKED_SIGNATURE_REFUSALS } from '../../domain/wallet/verify_linked_signature.js';
import { type Authenticator, anyone } from '../../http/authenticators.js';
import { clientAddress } from '../../http/client_address.js';
import { type AnyRoute, type RateLimitSpec, route } from '../../http/route.js';
import type { ServiceAuth, ServiceCaller } from '../services/service_caller.js';
import type { AccessGrants } from './access_grants.js';
import type { ClaimJwtSigner } from './claim_jwt.js';
import type { GrantListing } from './grant_listing.js';
import { claimRef, profileRef, type ResourceRef } from './grant_resource.js';
import * as forms from './grant_schemas.js';
import type { RevokeAsOwner } from './owner_revocation.js';
import type { GrantCredential, ResourceReader } from './resource_reader.js';

export type GrantRoutesDeps = {
  issuer: string;
  accessGrants: AccessGrants;
  listing: GrantListing;
  readResource: ResourceReader;
  services: ServiceAuth;
  service: Authenticator<ServiceCaller>;
  sessions: SessionCallers & { find(ctx: Context): Promise<IdentitySession | undefined> };
  /** CIBA login requests waiting for this identity's owner (`chainId`: of another chain than the default one). */
  backchannelFor: (identity: Address, chainId?: number) => Promise<BackchannelRequest[]>;
  revokeAsOwner: RevokeAsOwner;
  /** The chain of an identity in a path: undefined for the first (bare or named), its id for another; refuses one not served. */
  chainOf: (identity: forms.IdentityInPath) => number | undefined;
  /** A claim's private part as a JWT Signet signs, for `Accept: application/jwt`. */
  signClaim?: ClaimJwtSigner;
  /** The CAIP-10 id of an identity on its chain (undefined: the first). */
  subjectOf: (identity: Address, chainId?: number) => string;
};

const TAG = 'Access grants';

/**
 * Validations and revocations, counted per address and per grant before the grant is looked up
 * or a signature checked on the chain (decision 64): a wrong signature costs a count, and past
 * the count nothing. The grant is named by the raw path segment, cut short: an id that does not
 * exist is counted as one that does.
 */
const grantAttempts: RateLimitSpec<unknown>[] = [
  { limit: 'grantAttemptsPerAddress', key: 'client_address' },
  { limit: 'grantAttemptsPerGrant', key: (_caller, ctx) => `grant:${String(ctx.params.id ?? '').slice(0, 64)}` },
];

export function grantRoutes(deps: GrantRoutesDeps): AnyRoute[] {
  /** A service with its API key, or the owner with an account session. */
  const serviceOrOwner: Authenticator<ServiceCaller | { identity: Address; chainId?: number }> = {
    kind: 'api_key_or_owner_session',
    refusals: ['api_key_invalid', 'caller_missing', ...FROM_OWN_PAGES],
    async authenticate(ctx) {
      const key = ctx.get('x-api-key');
      if (key) return deps.services.authenticate(key);
      const session = await deps.sessions.find(ctx);
      if (session) return { identity: session.identity, chainId: session.chain_id };
      throw refuse('caller_missing', 'send an X-API-Key, or sign in to your account');
    },
  };

  /** What a resource read presents: nothing (the public part), a bearer token or an API key. */
  const credential: Authenticator<GrantCredential> = {
    kind: 'grant_credential',
    refusals: ['authorization_malformed'],
    async authenticate(ctx) {
      const token = presentationOf(ctx);
      if (token) return { token };
      const apiKey = ctx.get('x-api-key');
      return apiKey ? { apiKey } : {};
    },
  };

  const accessRequest = <P>(what: string, path: string, params: import('zod').ZodType<P>, refOf: (params: P) => ResourceRef) =>
    route({
      method: 'post',
      path,
      summary: `Request an access grant to ${what}`,
      tag: TAG,
      auth: deps.service,
      params,
      body: forms.accessRequestBody,
      // Before the chain reads and the owner's notification a request costs.
      rateLimits: [{ limit: 'accessRequestsPerService', key: (caller) => caller.service }],
      responses: {
        201: {
          description: 'The pending grant and the challenge for the owner to sign',
          schema: forms.accessRequestCreated,
          headers: { Location: 'The grant: {issuer}/access-grants/{id}' },
        },
      },
      refusals: ['identity_not_found', 'resource_empty', 'fields_empty', 'field_unknown', 'claim_not_found', 'chain_not_configured', 'chain_unavailable'],
      async handle({ params, body, caller }) {
        const grant = await deps.accessGrants.request(refOf(params), caller.service, body.kind, body.fields);
        return {
          headers: { Location: `${deps.issuer}/access-grants/${grant.id}` },
          body: { id: grant.id, kind: grant.kind, status: grant.status, fields: grant.fields, challenge: grant.challenge, expires_at: grant.expires_at },
        };
      },
    });

  const resourceRead = <P>(
    what: string,
    path: string,
    params: import('zod').ZodType<P>,
    refOf: (params: P) => ResourceRef,
    publicForm: import('zod').ZodType,
    privateForm: import('zod').ZodType,
  ) =>
    route({
      method: 'get',
      path,
      summary: `Read ${what}: the public part, or the private part with a credential`,
      tag: TAG,
      auth: credential,
      params,
      // Only anonymous reads: a token or an API key is checked against its grant instead.
      rateLimits: [{ limit: 'publicReadsPerAddress', key: 'client_address', when: (caller) => !caller.token && !caller.apiKey }],
      responses: {
        200: {
          description:
            "The public part, or the private part a credential covers; a claim's private part as a JWT Signet signs when asked with `Accept: application/jwt` (`application/jwt`)",
          schema: publicForm.or(privateForm),
        },
      },
      refusals: [
        'chain_not_configured',
        'token_invalid',
        'token_dpop_bound',
        'token_not_dpop_bound',
        'dpop_proof_invalid',
        'dpop_nonce_required',
        'api_key_invalid',
        'token_revoked',
        'token_used',
        'token_scope_insufficient',
        'grant_missing',
        'identity_not_found',
        'claim_not_found',
        'claim_issuer_untrusted',
        'claim_not_confirmed',
        'claim_expired',
        'claim_data_missing',
        'claim_data_mismatch',
        'chain_unavailable',
      ],
      async handle({ ctx, params, caller }) {
        const ref = refOf(params);
        const body = await deps.readResource(ref, caller, clientAddress(ctx));
        // Only a claim's released data is signed: the public part is anyone's, and says nothing of Signet's.
        const wantsJwt = ref.kind === 'claim' && body.data !== undefined && ctx.accepts('application/json', 'application/jwt') === 'application/jwt';
        if (wantsJwt && deps.signClaim) {
          return { body: await deps.signClaim(deps.subjectOf(ref.identity, ref.chainId), body), headers: { 'content-type': 'application/jwt' } };
        }
        return { body };
      },
    });

  return [
    accessRequest('the profile', '/identities/{identity}/profile/access-requests', forms.identityPath, (p) =>
      profileRef(p.identity.address, deps.chainOf(p.identity)),
    ),
    accessRequest('one claim', '/identities/{identity}/claims/{claimId}/access-requests', forms.claimPath, (p) =>
      claimRef(p.identity.address, p.claimId, deps.chainOf(p.identity)),
    ),
    resourceRead(
      'the profile',
      '/identities/{identity}/profile',
      forms.identityPath,
      (p) => profileRef(p.identity.address, deps.chainOf(p.identity)),
      forms.profilePublic,
      forms.profilePrivate,
    ),
    resourceRead(
      'one claim',
      '/identities/{identity}/claims/{claimId}',
      forms.claimPath,
      (p) => claimRef(p.identity.address, p.claimId, deps.chainOf(p.identity)),
      forms.claimView,
      forms.claimWithData,
    ),

    route({
      method: 'get',
      path: '/access-grants',
      summary: "List grants: the owner's (access grants and OIDC logins), or the service's own (of one identity when `identity` is given)",
      tag: TAG,
      auth: serviceOrOwner,
      query: forms.listingQuery,
      responses: { 200: { description: 'One page, newest first', schema: forms.grantPage } },
      refusals: ['identity_not_yours'],
      async handle({ query, caller }) {
        if ('identity' in caller) {
          if (query.identity && query.identity !== caller.identity) {
            throw refuse('identity_not_yours', 'you can list only the grants of the identity you signed in with');
          }
          return { body: await deps.listing.list({ identity: caller.identity, chainId: caller.chainId }, query) };
        }
        return { body: await deps.listing.list({ service: caller.service, identity: query.identity }, query) };
      },
    }),

    route({
      method: 'get',
      path: '/access-grants/{id}',
      summary: 'One grant, to its service or its owner',
      tag: TAG,
      auth: serviceOrOwner,
      params: forms.grantPath,
      responses: { 200: { description: 'The grant', schema: forms.accessGrant } },
      refusals: ['grant_not_found'],
      async handle({ params, caller }) {
        const grant = await deps.accessGrants.current(params.id);
        deps.accessGrants.assertOwnedBy(grant, caller);
        return { body: grant };
      },
    }),

    route({
      method: 'post',
      path: '/access-grants/{id}/validations',
      summary: "Validate a pending grant with the owner's signature of its challenge",
      tag: TAG,
      auth: anyone,
      params: forms.grantPath,
      body: forms.validationBody,
      rateLimits: grantAttempts,
      responses: { 200: { description: 'The active grant and its bearer token', schema: forms.validation } },
      refusals: ['grant_not_found', 'grant_expired', 'grant_not_pending', ...LINKED_SIGNATURE_REFUSALS],
      async handle({ params, body }) {
        return { body: await deps.accessGrants.validate(params.id, body.signature, body.address) };
      },
    }),

    route({
      method: 'post',
      path: '/access-grants/{id}/denials',
      summary: 'The owner denies a pending grant',
      tag: TAG,
      // The owner of an identity on any chain: only that chain's identity's grants.
      auth: deps.sessions.owner,
      params: forms.grantPath,
      responses: { 200: { description: 'The denied grant', schema: forms.accessGrant } },
      refusals: ['grant_not_found', 'grant_expired', 'grant_not_pending'],
      async handle({ params, caller }) {
        return { body: await deps.accessGrants.deny(params.id, caller.identity, caller.chain_id) };
      },
    }),

    route({
      method: 'post',
      path: '/access-grants/{id}/revocations',
      summary:
        'The owner revokes a grant (an access grant or an OIDC login), signed in or with a signature of the revocation text; or a service gives up its own access grant with its API key',
      tag: TAG,
      auth: anyone,
      params: forms.grantPath,
      body: forms.revocationBody,
      rateLimits: grantAttempts,
      responses: { 200: { description: 'The revoked grant', schema: forms.accessGrant.or(forms.loginGrant) } },
      // Under a session, as every change of the owner's: from Signet's own pages (FROM_OWN_PAGES).
      refusals: ['owner_proof_missing', 'grant_not_found', 'grant_not_active', 'api_key_invalid', ...LINKED_SIGNATURE_REFUSALS, ...FROM_OWN_PAGES],
      async handle({ ctx, params, body }) {
        const key = ctx.get('x-api-key');
        if (key) {
          const { service } = await deps.services.authenticate(key);
          return { body: await deps.accessGrants.revoke(params.id, { service }, 'service_released') };
        }
        const session = await deps.sessions.find(ctx);
        if (session) return { body: await deps.revokeAsOwner(params.id, session.identity, session.chain_id) };
        if (!body.signature) throw refuse('owner_proof_missing', 'sign in to your account, or send the owner\'s "signature" of the revocation text');
        return { body: await deps.accessGrants.revoke(params.id, { signature: body.signature }) };
      },
    }),

    route({
      method: 'get',
      path: '/account/inbox',
      summary: "The owner's pending requests: access grants and CIBA logins",
      tag: TAG,
      auth: deps.sessions.owner,
      responses: { 200: { description: 'Pending requests', schema: forms.inbox } },
      async handle({ caller }) {
        const { items } = await deps.listing.list({ identity: caller.identity, chainId: caller.chain_id }, { limit: 100 });
        return {
          body: {
            identity: caller.identity,
            pending: items.filter((grant) => grant.status === 'pending'),
            backchannel: await deps.backchannelFor(caller.identity, caller.chain_id),
          },
        };
      },
    }),
  ];
}
