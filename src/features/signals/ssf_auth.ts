// Who manages SSF streams: a client, with an access token the engine issued it by the client
// credentials grant with scope `ssf` (RFC 6749 §4.4), sent as a bearer token (RFC 6750) or, when
// the token is DPoP-bound, with its DPoP proof (RFC 9449). A missing or bad token is answered 401,
// a token without the scope 403, each with the WWW-Authenticate header the standards ask for.
import type Provider from 'oidc-provider';
import { refuse } from '../../base/errors.js';
import { isFapiClient } from '../../domain/clients/fapi_profile.js';
import { presentationOf } from '../../domain/dpop/dpop_presentation.js';
import type { DpopCheck } from '../../domain/dpop/dpop_proof.js';
import type { Authenticator } from '../../http/authenticators.js';
import type { ClientRecord } from '../../infra/store/client_records.js';

export const SSF_SCOPE = 'ssf';

export type SsfCaller = { client_id: string };

/** `clientOf`: the client's record (CLIENTS' or added at run time), read once per request. */
export function ssfClient(
  provider: Provider,
  clientOf: (clientId: string) => Promise<ClientRecord | undefined>,
  checkDpop: DpopCheck,
): Authenticator<SsfCaller> {
  return {
    kind: 'ssf_token',
    refusals: [
      'authorization_malformed',
      'token_invalid',
      'token_dpop_bound',
      'token_not_dpop_bound',
      'dpop_proof_invalid',
      'dpop_nonce_required',
      'token_scope_insufficient',
    ],
    async authenticate(ctx) {
      const header = ctx.get('authorization');
      const presented = header ? presentationOfOrUndefined(ctx) : undefined;
      if (!presented) {
        // No credentials at all: the scheme and scope, no error code (RFC 6750 §3.1).
        ctx.set('WWW-Authenticate', header ? 'Bearer error="invalid_request"' : `Bearer scope="${SSF_SCOPE}"`);
        throw refuse('authorization_malformed', 'send an access token of the client credentials grant as "Authorization: Bearer <token>" or "DPoP <token>"');
      }
      const found = await provider.ClientCredentials.find(presented.token);
      const client = found?.clientId ? await clientOf(found.clientId) : undefined;
      // A deleted client, or one no longer allowed the grant, loses its tokens too.
      const grants = client?.grant_types;
      if (!found?.clientId || !(Array.isArray(grants) && grants.includes('client_credentials'))) {
        ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
        throw refuse('token_invalid', 'the access token is invalid, expired or revoked');
      }
      const jkt = found.jkt as string | undefined;
      const requireNonce = Boolean(jkt) && isFapiClient(client);
      await checkDpop({ jkt, clientId: found.clientId, requireNonce }, presented);
      if (
        !String(found.scope ?? '')
          .split(' ')
          .includes(SSF_SCOPE)
      ) {
        ctx.set('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${SSF_SCOPE}"`);
        throw refuse('token_scope_insufficient', `the access token was not issued with scope ${SSF_SCOPE}`, { previous: 'ssf_scope_missing' });
      }
      return { client_id: found.clientId };
    },
  };
}

/** The presentation, or undefined when the header is not one the standards define. */
function presentationOfOrUndefined(ctx: Parameters<typeof presentationOf>[0]) {
  try {
    return presentationOf(ctx);
  } catch {
    return undefined;
  }
}
