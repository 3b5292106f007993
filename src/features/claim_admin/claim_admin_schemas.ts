// The request and answer forms of the claims admin API, for the route table and /openapi.json.
import { z } from 'zod';
import { address, addressField, bytes32, bytes32Field, chainIdField, dateTime, identityChainId } from '../../http/schemas.js';

/** The chain of the identity (default: the first configured chain). */
const claimChainId = chainIdField("The identity's chain (default: the first configured chain); the claim is bound to it");

export const issueBody = z.object({
  identity: addressField,
  topic: z.string({ error: 'must name a claim topic' }),
  data: z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }),
  expires_at: z.string({ error: 'must be an ISO-8601 date' }).optional(),
  uri: z.url({ error: 'must be an absolute URL' }).optional(),
  chain_id: claimChainId,
});

export const revokeBody = z.object({ identity: addressField, claim_id: bytes32Field('a 0x-prefixed 32-byte claim id'), chain_id: claimChainId });

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);

export const signedClaim = z
  .object({ topic: z.number().int(), scheme: z.number().int(), issuer: address, signature: hex, data: bytes32, uri: z.string() })
  .meta({ id: 'SignedClaim' });

export const issuedClaim = z
  .object({
    claim_id: bytes32,
    claim: signedClaim,
    added: z.boolean().meta({ description: 'False when Signet holds no CLAIM key on the identity: the owner adds the claim' }),
    transaction: bytes32.optional(),
    replaced: z
      .object({ signature: hex, transaction: bytes32 })
      .optional()
      .meta({ description: 'The claim Signet issued before on this topic, whose signature is now revoked' }),
  })
  .meta({ id: 'IssuedClaim' });

export const claimRequests = z.object({
  claim_requests: z.array(z.object({ identity: address, chain_id: identityChainId, topic: z.string(), requested_at: dateTime }).meta({ id: 'ClaimRequest' })),
});

export const revokedClaim = z.object({ claim_id: bytes32, revoked_at: dateTime, transaction: bytes32 }).meta({ id: 'RevokedClaim' });
