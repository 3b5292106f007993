// The request and answer forms of the login's consent interaction, for the route table and
// /openapi.json.
import { z } from 'zod';
import { claimView } from '../claims/claim_schemas.js';
import { address, addressField, dateTime } from '../http/schemas.js';

export const interactionPath = z.object({
  uid: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be the id of a login')
    .meta({ description: 'The id of the login under way' }),
});

export const challengeBody = z.object({
  address: addressField.meta({ description: 'The wallet that will sign' }),
  identity: addressField.optional().meta({ description: 'The identity to sign in with (default: the one the IdFactory links to the wallet)' }),
  fields: z
    .array(z.string({ error: 'must list field names' }), { error: 'must be a list of field names' })
    .optional()
    .meta({ description: 'The requested fields the owner keeps (default: all; required ones must stay)' }),
  claims: z
    .array(z.string({ error: 'must list claim ids' }), { error: 'must be a list of claim ids' })
    .optional()
    .meta({ description: 'The claims shared under the kept claim topics (default: every valid one)' }),
});

export const consentView = z
  .object({
    uid: z.string(),
    client: z.object({ client_id: z.string(), name: z.string() }),
    fields: z.array(z.object({ name: z.string(), scope: z.string(), required: z.boolean(), description: z.string() })),
  })
  .meta({ id: 'ConsentRequest' });

/** The claims the consent page lists (the identity is the answer's own). */
const offeredClaim = claimView.omit({ identity: true }).extend({ kept: z.boolean().meta({ description: 'Shared if the owner signs' }) });

export const loginChallenge = z
  .object({
    identity: address,
    fields: z.array(z.string()).meta({ description: 'The fields the owner shares by signing' }),
    claims: z.array(offeredClaim),
    challenge: z.string().meta({ description: 'The EIP-4361 text to sign' }),
    expires_at: dateTime,
  })
  .meta({ id: 'LoginChallenge' });

export const loginRedirect = z
  .object({ redirect_to: z.string().meta({ description: 'Where the browser goes next: back through the engine to the website' }) })
  .meta({ id: 'LoginRedirect' });
