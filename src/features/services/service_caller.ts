// A service calling with its X-API-Key, as a route's caller. A key of a service whose client is
// gone stops working with it.
import { refuse } from '../../base/errors.js';
import type { Authenticator } from '../../http/authenticators.js';
import type { ApiKeys } from './api_keys.js';

export type ServiceCaller = { service: string };

/** Checks a presented key (the resource reads take it among other credentials). */
export type ServiceAuth = { authenticate(presented: string | undefined): Promise<ServiceCaller> };

export function serviceAuth(apiKeys: ApiKeys, serviceExists: (service: string) => Promise<boolean>): ServiceAuth {
  return {
    async authenticate(presented) {
      const caller = await apiKeys.authenticate(presented);
      if (!(await serviceExists(caller.service))) throw refuse('api_key_invalid', 'the API key is not valid');
      return { service: caller.service };
    },
  };
}

export function serviceCaller(auth: ServiceAuth): Authenticator<ServiceCaller> {
  return { kind: 'api_key', refusals: ['api_key_invalid'], authenticate: (ctx) => auth.authenticate(ctx.get('x-api-key') || undefined) };
}
