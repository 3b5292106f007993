// A CIBA login request waiting in the owner's inbox (backchannel_inbox.ts), as the route table
// and /openapi.json show it: in the owner's pending list and in the data export.
import { z } from 'zod';
import { address, dateTime, identityChainId } from '../../http/schemas.js';

export const backchannelRequest = z
  .object({
    id: z.string(),
    identity: address,
    chain_id: identityChainId,
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
