// A client's metadata as Signet takes it, in CLIENTS and in the admin API (docs/operations.md,
// "Clients"): the schema, and the rules across its fields that every client must meet, whether
// the operator configured it or it was added at run time. A base module kept with its folder:
// the settings (config.ts) validate CLIENTS with it, so it imports nothing of Signet's.
import { z } from 'zod';

export const clientSchema = z.object({
  client_id: z.string().min(1),
  client_secret: z.string().min(8).optional(),
  client_name: z.string().min(1),
  /** The client's name in a language Signet speaks (Dynamic Client Registration §2.1), shown on pages in that language. */
  'client_name#en': z.string().min(1).optional(),
  'client_name#fr': z.string().min(1).optional(),
  'client_name#de': z.string().min(1).optional(),
  'client_name#es': z.string().min(1).optional(),
  'client_name#ja': z.string().min(1).optional(),
  'client_name#ar': z.string().min(1).optional(),
  logo_uri: z.url().optional(),
  /** The client's home page, privacy policy and terms, linked from the consent page (https, on a redirect URI's host). */
  client_uri: z.url({ error: 'must be an absolute URL' }).optional(),
  policy_uri: z.url({ error: 'must be an absolute URL' }).optional(),
  tos_uri: z.url({ error: 'must be an absolute URL' }).optional(),
  redirect_uris: z.array(z.url({ error: 'must be an absolute URL' })).default([]),
  post_logout_redirect_uris: z.array(z.url({ error: 'must be an absolute URL' })).default([]),
  grant_types: z
    .array(z.enum(['authorization_code', 'refresh_token', 'urn:openid:params:grant-type:ciba', 'client_credentials']))
    .default(['authorization_code', 'refresh_token']),
  /** The scopes the client may ask for (space separated), among those Signet offers; all of them when absent. */
  scope: z.string().min(1).optional(),
  /** OpenID Connect Back-Channel Logout: where Signet posts a logout token when a login grant ends. */
  backchannel_logout_uri: z.url({ error: 'must be an absolute URL' }).optional(),
  /** The logout token then carries the login session's `sid` (and the ID token does too). */
  backchannel_logout_session_required: z.boolean({ error: 'must be true or false' }).optional(),
  /** CIBA clients: Signet supports the poll mode. */
  backchannel_token_delivery_mode: z.enum(['poll']).optional(),
  token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none']).default('client_secret_basic'),
  /** The client's public keys (RFC 7591): its client assertions (private_key_jwt) and signed request objects are checked with them. */
  jwks: z.object({ keys: z.array(z.object({ kty: z.string() }).loose()).min(1) }).optional(),
  jwks_uri: z.url({ error: 'must be an absolute URL' }).optional(),
  /** RFC 9126: the client must push its authorization requests first. */
  require_pushed_authorization_requests: z.boolean({ error: 'must be true or false' }).optional(),
  /** RFC 9449: the client's access tokens are always DPoP-bound. */
  dpop_bound_access_tokens: z.boolean({ error: 'must be true or false' }).optional(),
  id_token_signed_response_alg: z.enum(['RS256', 'PS256', 'ES256', 'EdDSA']).optional(),
  /** "2.0": the client follows the FAPI 2.0 Security Profile (docs/regulated-services.md). */
  fapi_profile: z.enum(['2.0']).optional(),
  /** Where Signet sends this service's access-grant notifications, signed with webhook_secret. */
  webhook_url: z.url({ error: 'must be an absolute URL' }).optional(),
  webhook_secret: z.string().min(16, 'needs at least 16 characters').optional(),
});

export type ClientMetadata = z.infer<typeof clientSchema>;

/**
 * What the rules read: the fields of a client's metadata, in Signet's form (defaults applied) or
 * in the engine's (a client registered by RFC 7591, with the engine's defaults).
 */
export type ClientFields = {
  grant_types?: readonly string[];
  redirect_uris?: readonly string[];
  backchannel_token_delivery_mode?: string;
  backchannel_logout_uri?: string;
  backchannel_logout_session_required?: boolean;
  webhook_url?: string;
  webhook_secret?: string;
  token_endpoint_auth_method?: string;
  client_secret?: string;
  jwks?: unknown;
  jwks_uri?: string;
};

/** A rule a client breaks: the field it names and what is wrong, as a sentence's end. */
export type ClientProblem = { field: string; problem: string };

const SECRETLESS_AUTH = new Set(['none', 'private_key_jwt']);

/** Whether the client authenticates with a secret (every method but "none" and "private_key_jwt"). */
export const needsSecret = (client: Pick<ClientFields, 'token_endpoint_auth_method'>) =>
  !SECRETLESS_AUTH.has(client.token_endpoint_auth_method ?? 'client_secret_basic');

/**
 * The first rule across fields this client breaks, or undefined. CLIENTS (config.ts's
 * clientsAreComplete), the admin API and dynamic registration all check with it.
 */
export function clientProblem(client: ClientFields): ClientProblem | undefined {
  const grants = client.grant_types ?? [];
  if (grants.includes('authorization_code') && (client.redirect_uris ?? []).length === 0) {
    return { field: 'redirect_uris', problem: 'needs at least one URI for the authorization_code grant' };
  }
  if (grants.includes('urn:openid:params:grant-type:ciba') && client.backchannel_token_delivery_mode !== 'poll') {
    return { field: 'backchannel_token_delivery_mode', problem: 'must be "poll" for a CIBA client' };
  }
  if (client.webhook_url && !client.webhook_secret) return { field: 'webhook_secret', problem: 'is required with webhook_url' };
  // `false` is the engine's default for every client: only asking for the sid needs the URI.
  if (client.backchannel_logout_session_required === true && !client.backchannel_logout_uri) {
    return { field: 'backchannel_logout_session_required', problem: 'needs backchannel_logout_uri' };
  }
  if (needsSecret(client) && !client.client_secret) {
    return { field: 'client_secret', problem: 'is required unless token_endpoint_auth_method is "none" or "private_key_jwt"' };
  }
  if (client.token_endpoint_auth_method === 'private_key_jwt' && !client.jwks && !client.jwks_uri) {
    return { field: 'jwks', problem: 'jwks or jwks_uri is required with private_key_jwt' };
  }
  return undefined;
}

/**
 * What one client's record may hold, so that a stranger's registration cannot fill the store
 * (decision 43): a name, any other text or URI, the entries of a list, and the whole record.
 */
export const CLIENT_SIZE_BOUNDS = { nameCharacters: 120, textCharacters: 2048, listEntries: 16, recordBytes: 8192 } as const;

/** The first size bound the record's metadata breaks, or undefined. */
export function clientSizeProblem(record: Record<string, unknown>): ClientProblem | undefined {
  const { nameCharacters, textCharacters, listEntries, recordBytes } = CLIENT_SIZE_BOUNDS;
  for (const [field, value] of Object.entries(record)) {
    // client_name and its language-tagged forms (client_name#fr) are read by people.
    const most = field === 'client_name' || field.startsWith('client_name#') ? nameCharacters : textCharacters;
    if (typeof value === 'string' && value.length > most) return { field, problem: `is ${value.length} characters long; at most ${most}` };
    if (Array.isArray(value)) {
      if (value.length > listEntries) return { field, problem: `lists ${value.length} entries; at most ${listEntries}` };
      const long = value.find((entry) => typeof entry === 'string' && entry.length > textCharacters);
      if (long !== undefined) return { field, problem: `holds an entry of ${long.length} characters; at most ${textCharacters}` };
    }
  }
  const bytes = Buffer.byteLength(JSON.stringify(record));
  if (bytes > recordBytes) return { field: 'metadata', problem: `is ${bytes} bytes as stored; at most ${recordBytes}` };
  return undefined;
}

/** Signet's own client metadata, kept in the engine's record beside the standards' (its extraClientMetadata). */
export const SIGNET_CLIENT_METADATA = ['webhook_url', 'webhook_secret'] as const;

/** Why a value of Signet's own metadata is refused (as the engine's error sentence), or undefined. */
export function signetMetadataProblem(key: (typeof SIGNET_CLIENT_METADATA)[number], value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const parsed = clientSchema.shape[key].safeParse(value);
  return parsed.success ? undefined : `${key} ${parsed.error.issues[0]!.message}`;
}
