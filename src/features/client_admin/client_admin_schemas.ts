// The request and answer forms of the clients' admin API, for the route table and /openapi.json.
import { z } from 'zod';
import { clientSchema } from '../../config/client_metadata.js';
import { pageCursorField, pageLimitField } from '../../http/schemas.js';

/** Ids the admin API gives or takes: safe in a path, a Redis key and a webhook's service name. */
const CLIENT_ID = /^[A-Za-z0-9._~-]{1,128}$/;
const CLIENT_ID_MESSAGE = 'must be 1 to 128 letters, digits, ".", "_", "~" or "-"';

export const clientPath = z.object({ clientId: z.string().min(1).max(128) });

/** A client's metadata as in CLIENTS; client_id and client_secret are made when left out. */
export const clientBody = clientSchema.extend({
  client_id: z.string({ error: CLIENT_ID_MESSAGE }).regex(CLIENT_ID, CLIENT_ID_MESSAGE).optional(),
});

export type ClientBody = z.infer<typeof clientBody>;

export const storedClient = z
  .object({
    client_id: z.string(),
    client_name: z.string().optional(),
    client_secret: z.string().optional().meta({ description: 'The secret the client authenticates with; made by Signet when the request gave none' }),
    redirect_uris: z.array(z.string()).optional(),
    grant_types: z.array(z.string()).optional(),
    configured: z.boolean().meta({ description: 'Listed in CLIENTS: changed or deleted only by editing CLIENTS (and restarting)' }),
  })
  .loose()
  .meta({ id: 'Client', description: "The client's metadata as stored (the engine's names), every field it holds" });

/** A page of the clients, by client_id: `cursor` is the `next_cursor` of the page before. */
export const clientListQuery = z.object({
  cursor: pageCursorField,
  limit: pageLimitField(500, 100),
});

export const clientList = z.object({
  clients: z.array(storedClient),
  next_cursor: z.string().nullable().meta({ description: 'Where the next page starts (its `cursor`); null on the last page' }),
});
