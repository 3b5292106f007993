// The answer forms of a claim (src/domain/claims/claims_service.ts ClaimView), as /openapi.json
// documents them.
import { z } from 'zod';
import { address, bytes32, dateTime } from '../../http/schemas.js';
import { DATA_STATUS_NAMES } from './data_status.js';

export const claimView = z
  .object({
    identity: address,
    claim_id: bytes32,
    topic: z.number().int(),
    topic_name: z.string().nullable(),
    issuer: address,
    trusted: z.boolean(),
    valid: z.boolean(),
    status: z.enum(['valid', 'untrusted_issuer', 'not_confirmed_by_issuer', 'expired']),
    scheme: z.number().int(),
    data_hash: z.string(),
    uri: z.string(),
    expires_at: dateTime.nullable(),
    data_status: z
      .enum(DATA_STATUS_NAMES)
      .optional()
      .meta({ description: 'Only for a claim whose data another Information Provider holds, released without it: why (docs/integration.md)' }),
  })
  .meta({ id: 'Claim' });

/** A claim with its off-chain data, as a grant or a login's token releases it. */
export const claimWithData = claimView
  .extend({
    data: z.record(z.string(), z.unknown()),
    salt: bytes32.optional().meta({ description: "To a service reading under an access grant: the salt of the claim's hashed document (docs/integration.md)" }),
    chain_id: z.number().int().optional().meta({ description: 'To a service reading under an access grant: the chain the hashed document names' }),
  })
  .meta({ id: 'ClaimWithData' });
