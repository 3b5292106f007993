// The request and answer forms of CIBA login requests waiting for their owner, as the route
// table and /openapi.json take them.
import { z } from 'zod';
import { address, addressField, dateTime } from '../http/schemas.js';

export const backchannelRequest = z
  .object({
    id: z.string(),
    identity: address,
    client_id: z.string(),
    client_name: z.string(),
    fields: z.array(z.string()),
    scope: z.string(),
    binding_message: z.string().nullable(),
    challenge: z.string(),
    created_at: dateTime,
    expires_at: dateTime,
  })
  .meta({ id: 'BackchannelRequest' });

export const backchannelPath = z.object({
  id: z.string().min(1).max(128).meta({ description: 'The request id (the client’s auth_req_id)' }),
});

export const approvalBody = z.object({
  signature: z.string({ error: 'is required' }).min(1, 'is required').meta({ description: "A linked wallet's EIP-191 signature of the request's challenge" }),
  address: addressField.optional().meta({ description: 'The signing wallet, for a contract wallet (EIP-1271, EIP-6492)' }),
});

export const approval = z
  .object({ id: z.string(), status: z.literal('approved'), grant_id: z.string() })
  .meta({ id: 'BackchannelApproval' });

export const denial = z.object({ id: z.string(), status: z.literal('denied') }).meta({ id: 'BackchannelDenial' });
