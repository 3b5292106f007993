// The request and answer forms of the owner's answer to a CIBA login request (approve, deny), as
// the route table and /openapi.json take them. The request itself: src/domain/backchannel/backchannel_request_schema.ts.
import { z } from 'zod';
import { addressField } from '../../http/schemas.js';

export const backchannelPath = z.object({
  id: z.string().min(1).max(128).meta({ description: 'The request id (the client’s auth_req_id)' }),
});

export const approvalBody = z.object({
  signature: z.string({ error: 'is required' }).min(1, 'is required').meta({ description: "A linked wallet's EIP-191 signature of the request's challenge" }),
  address: addressField.optional().meta({ description: 'The signing wallet, for a contract wallet (EIP-1271, EIP-6492)' }),
});

export const approval = z.object({ id: z.string(), status: z.literal('approved'), grant_id: z.string() }).meta({ id: 'BackchannelApproval' });

export const denial = z.object({ id: z.string(), status: z.literal('denied') }).meta({ id: 'BackchannelDenial' });
