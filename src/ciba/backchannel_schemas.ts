// The answer form of a CIBA login request waiting for its owner, as /openapi.json documents it.
import { z } from 'zod';
import { address, dateTime } from '../http/schemas.js';

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
