// Who manages SSF streams: a configured client, with an access token the engine issued it by
// the client credentials grant with scope `ssf` (RFC 6749 §4.4), sent as a bearer token
// (RFC 6750). A missing or bad token is answered 401, a token without the scope 403, each with
// the WWW-Authenticate header RFC 6750 §3 asks for.
import type Provider from 'oidc-provider';
import type { Config } from '../config.js';
import { refuse } from '../errors.js';
import type { Authenticator } from '../http/authenticators.js';

export const SSF_SCOPE = 'ssf';

export type SsfCaller = { client_id: string };

export function ssfClient(provider: Provider, clients: Config['clients']): Authenticator<SsfCaller> {
  const allowed = new Set(clients.filter((client) => client.grant_types.includes('client_credentials')).map((client) => client.client_id));
  return {
    kind: 'ssf_token',
    refusals: ['authorization_malformed', 'token_invalid', 'ssf_scope_missing'],
    async authenticate(ctx) {
      const header = ctx.get('authorization');
      const token = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header)?.[1];
      if (!token) {
        // No credentials at all: the scheme and scope, no error code (RFC 6750 §3.1).
        ctx.set('WWW-Authenticate', header ? 'Bearer error="invalid_request"' : `Bearer scope="${SSF_SCOPE}"`);
        throw refuse('authorization_malformed', 'send an access token of the client credentials grant as "Authorization: Bearer <token>"');
      }
      const found = await provider.ClientCredentials.find(token);
      // A client removed from CLIENTS, or no longer allowed the grant, loses its tokens too.
      if (!found?.clientId || !allowed.has(found.clientId)) {
        ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
        throw refuse('token_invalid', 'the access token is invalid, expired or revoked');
      }
      if (
        !String(found.scope ?? '')
          .split(' ')
          .includes(SSF_SCOPE)
      ) {
        ctx.set('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${SSF_SCOPE}"`);
        throw refuse('ssf_scope_missing', `the access token was not issued with scope ${SSF_SCOPE}`);
      }
      return { client_id: found.clientId };
    },
  };
}
