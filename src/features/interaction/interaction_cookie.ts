// The login's caller check (route table `auth`): the engine's interaction cookie, read once per
// request. The Interaction it returns is the one the handler finishes, so a request never
// reads it twice. A step that changes the login (challenge, signature, abort) must come from
// the issuer's own page: the cookie is SameSite=Lax, which a sibling subdomain's page gets
// past (same site), so its Origin is checked too.
import type Provider from 'oidc-provider';
import { errors, type Interaction } from 'oidc-provider';
import { refuse } from '../../base/errors.js';
import type { Authenticator } from '../../http/authenticators.js';
import { assertSameOrigin } from '../../http/same_origin.js';

// The engine's words for a request that carries no interaction cookie at all.
const NO_COOKIE = 'interaction session id cookie not found';

export function interactionCookie(provider: Provider, issuer: string): Authenticator<Interaction> {
  const issuerOrigin = new URL(issuer).origin;
  return {
    kind: 'interaction_cookie',
    refusals: ['interaction_cookie_missing', 'interaction_mismatch', 'interaction_not_found', 'cross_origin_request'],
    async authenticate(ctx) {
      assertSameOrigin(ctx, issuerOrigin);
      let details: Interaction;
      try {
        details = await provider.interactionDetails(ctx.req, ctx.res);
      } catch (error) {
        // Outages (a store that does not answer) keep their own answer.
        if (!(error instanceof errors.SessionNotFound)) throw error;
        if (error.error_description === NO_COOKIE) {
          throw refuse('interaction_cookie_missing', 'the interaction cookie is missing: continue in the browser that started the login');
        }
        throw refuse('interaction_not_found', 'this login has expired or is already finished; start again from the website', { cause: error });
      }
      if (details.uid !== ctx.params.uid) {
        throw refuse('interaction_mismatch', 'the interaction cookie belongs to another login: continue in the browser that started it');
      }
      return details;
    },
  };
}
