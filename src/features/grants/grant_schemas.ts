// The request and answer forms of the access-grant API, for the route table and /openapi.json.

import { type Address, getAddress } from 'viem';
import { z } from 'zod';
import { CAIP10_PREFIX, caip10Parts } from '../../base/caip10.js';
import { ADDRESS_DIGITS, isEthereumAddress } from '../../base/ethereum_address.js';
import { backchannelRequest } from '../../domain/backchannel/backchannel_request_schema.js';
import { claimView, claimWithData } from '../../domain/claims/claim_schemas.js';
import { address, addressField, bytes32, bytes32Field, dateTime, identityChainId, pageCursorField, pageLimitField } from '../../http/schemas.js';

const IDENTITY_MESSAGE = 'must be a 0x-prefixed 20-byte address, or one qualified by its chain: eip155:<chain id>:0x…';

/** An identity in a path: a bare address (the default chain's) or its CAIP-10 id naming the chain. */
export type IdentityInPath = { address: Address; chainId?: number };

const identityInPath = z
  .string({ error: IDENTITY_MESSAGE })
  .regex(new RegExp(`^(${CAIP10_PREFIX})?${ADDRESS_DIGITS}$`), IDENTITY_MESSAGE)
  .refine((value) => isEthereumAddress(value.slice(value.lastIndexOf(':') + 1)), IDENTITY_MESSAGE)
  .transform((value): IdentityInPath => {
    const parts = caip10Parts(value);
    return parts ? { address: getAddress(parts.account), chainId: parts.chainId } : { address: getAddress(value) };
  })
  .meta({ description: 'The identity: its address (on the first configured chain) or eip155:<chain id>:<address>' });

export const identityPath = z.object({ identity: identityInPath });
export const claimPath = z.object({ identity: identityInPath, claimId: bytes32Field('a 0x-prefixed 32-byte claim id') });
export const grantPath = z.object({ id: z.string().min(1).max(64) });

export const accessRequestBody = z.object({
  kind: z.enum(['immediate', 'persistent'], { error: 'must be "immediate" or "persistent"' }),
  fields: z.array(z.string({ error: 'must list field names' }), { error: 'must be a list of field names' }).optional(),
});
export const validationBody = z.object({ signature: z.string({ error: 'is required' }).min(1, 'is required'), address: addressField.optional() });
export const revocationBody = z.object({ signature: z.string({ error: 'must be a string' }).min(1, 'is required').optional() });
export const listingQuery = z.object({
  identity: addressField.optional(),
  cursor: pageCursorField,
  limit: pageLimitField(100, 20),
});

const kind = z.enum(['immediate', 'persistent']);

export const accessRequestCreated = z
  .object({
    id: z.string(),
    kind,
    status: z.literal('pending'),
    fields: z.array(z.string()),
    challenge: z.string().meta({ description: 'EIP-191 text for the owner to sign' }),
    expires_at: dateTime,
  })
  .meta({ id: 'AccessRequestCreated' });

export const accessGrant = z
  .object({
    id: z.string(),
    kind,
    status: z.enum(['pending', 'active', 'used', 'revoked', 'expired', 'denied']),
    identity: address,
    chain_id: identityChainId,
    service: z.string(),
    resource: z.string(),
    fields: z.array(z.string()),
    challenge: z.string(),
    signature: z.string().optional(),
    signer: address.optional(),
    created_at: dateTime,
    expires_at: dateTime,
    granted_at: dateTime.optional(),
    used_at: dateTime.optional(),
    revoked_at: dateTime.optional(),
    revoked_reason: z.enum(['owner_revoked', 'key_removed', 'erasure', 'client_deleted', 'service_released']).optional(),
    denied_at: dateTime.optional(),
  })
  .meta({ id: 'AccessGrant' });

export const loginGrant = z
  .object({
    id: z.string(),
    kind: z.literal('login'),
    status: z.enum(['active', 'revoked']),
    identity: address,
    service: z.string(),
    resource: z.null(),
    fields: z.array(z.string()),
    claims: z.array(bytes32),
    verified: z
      .array(z.object({ claim_id: bytes32, claims: z.array(z.string()) }))
      .meta({ description: 'The verified claims shared as verified_claims, claim by claim (docs/verified-claims.md)' }),
    challenge: z.string(),
    signature: z.string(),
    signer: address,
    created_at: dateTime,
    granted_at: dateTime,
  })
  .meta({ id: 'LoginGrant', description: 'An OIDC login, listed with the access grants for its owner' });

export const validation = z
  .object({ grant: accessGrant, access_token: z.string().regex(/^sgt_/), token_type: z.literal('Bearer'), expires_in: z.number().int() })
  .meta({ id: 'Validation' });

export const grantPage = z.object({ items: z.array(z.union([accessGrant, loginGrant])), next_cursor: z.string().nullable() }).meta({ id: 'GrantPage' });

export const profilePublic = z.object({ identity: address, fields: z.array(z.string()) }).meta({ id: 'ProfilePublic' });
export const profilePrivate = z
  .object({ identity: address, fields: z.array(z.string()), values: z.record(z.string(), z.unknown()) })
  .meta({ id: 'ProfilePrivate' });

export { claimView, claimWithData };

export const inbox = z.object({ identity: address, pending: z.array(accessGrant), backchannel: z.array(backchannelRequest) }).meta({ id: 'Inbox' });
