// The admin API through which Signet issues and revokes its own claims, and reads owners'
// requests for them, as route declarations.

import { refuse } from '../../base/errors.js';
import type { ClaimRequests } from '../../domain/claim_issuer/claim_requests.js';
import type { SignetIssuer } from '../../domain/claim_issuer/signet_issuer.js';
import { assertClaimDataBounds } from '../../domain/claims/claim_document.js';
import { assertVerifiedClaimsData } from '../../domain/verified_claims/verified_claims_schema.js';
import { type Authenticator, adminToken } from '../../http/authenticators.js';
import { type AnyRoute, route } from '../../http/route.js';
import * as forms from './claim_admin_schemas.js';

export type ClaimsAdminDeps = {
  baseUrl: string;
  /** Signet's issuer on the chain a request names (none named: the default chain; one not configured refused); absent without its key. */
  issuerOn?: (chainId: number | undefined) => SignetIssuer;
  /** How paths name an identity of the chain a request names (src/infra/chain/chains.ts). */
  identityRef: (chainId: number | undefined, identity: `0x${string}`) => string;
  claimRequests?: ClaimRequests;
  adminToken?: string;
};

const TAG = 'Admin: claims';

export function claimsAdminRoutes(deps: ClaimsAdminDeps): AnyRoute[] {
  const admin = adminToken(deps.adminToken);
  /** The admin token, then Signet's issuer: without its key these routes do not exist. */
  const issuerAdmin: Authenticator<(chainId: number | undefined) => SignetIssuer> = {
    kind: admin.kind,
    refusals: [...admin.refusals, 'claim_issuer_off'],
    async authenticate(ctx) {
      await admin.authenticate(ctx);
      if (!deps.issuerOn) throw refuse('claim_issuer_off', 'Signet is not a claim issuer here: set SIGNET_ISSUER_ADDRESS and SIGNET_ISSUER_KEY');
      return deps.issuerOn;
    },
  };

  return [
    route({
      method: 'post',
      path: '/admin/claims',
      summary:
        'Issue a claim signed by Signet (it replaces the one Signet issued before on this topic); `data.verified_claims` holds verified data in the OpenID Identity Assurance shape',
      tag: TAG,
      auth: issuerAdmin,
      body: forms.issueBody,
      bodyLimit: 'admin',
      responses: {
        201: {
          description: 'The signed claim; added to the identity when Signet holds a CLAIM key there',
          schema: forms.issuedClaim,
          headers: { Location: 'The claim: {issuer}/identities/{identity}/claims/{claim_id}' },
        },
      },
      refusals: [
        'claim_data_too_deep',
        'claim_data_too_large',
        'claim_verified_claims_invalid',
        'claim_topic_unknown',
        'claim_expiry_invalid',
        'identity_not_found',
        'chain_not_configured',
        'chain_unavailable',
      ],
      async handle({ body, caller: issuerOn }) {
        const chainId = body.chain_id;
        const issuer = issuerOn(chainId);
        assertClaimDataBounds(body.data);
        // Verified data is checked before Signet signs its hash: what it signs, it can release.
        assertVerifiedClaimsData(body.data);
        const result = await issuer.issue({ identity: body.identity, topic: body.topic, data: body.data, expiresAt: body.expires_at, uri: body.uri });
        return {
          status: 201,
          headers: { Location: `${deps.baseUrl}/identities/${deps.identityRef(chainId, body.identity)}/claims/${result.claim_id}` },
          body: result,
        };
      },
    }),

    route({
      method: 'get',
      path: '/admin/claim-requests',
      summary: "Owners' requests for a claim from Signet's issuer",
      tag: TAG,
      auth: issuerAdmin,
      responses: { 200: { description: 'Every open request', schema: forms.claimRequests } },
      async handle() {
        return { body: { claim_requests: (await deps.claimRequests?.list()) ?? [] } };
      },
    }),

    route({
      method: 'post',
      path: '/admin/claims/revocations',
      summary: 'Revoke a claim Signet issued (by its signature, on the ClaimIssuer)',
      tag: TAG,
      auth: issuerAdmin,
      body: forms.revokeBody,
      bodyLimit: 'admin',
      responses: { 200: { description: 'The revocation', schema: forms.revokedClaim } },
      refusals: ['claim_not_found', 'claim_already_revoked', 'chain_not_configured', 'chain_unavailable'],
      async handle({ body, caller: issuerOn }) {
        return { body: await issuerOn(body.chain_id).revoke(body.identity, body.claim_id) };
      },
    }),
  ];
}
