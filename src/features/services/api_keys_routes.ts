// The admin API for services' API keys, under /admin/services/{serviceId}/api-keys: create,
// list, rotate, revoke, as route declarations. No answer is cached (the route default): they
// carry keys or key metadata.
import { refuse } from '../../base/errors.js';
import { adminToken } from '../../http/authenticators.js';
import { type AnyRoute, route } from '../../http/route.js';
import * as forms from './api_key_schemas.js';
import type { ApiKeys } from './api_keys.js';

export type ApiKeysRoutesDeps = {
  apiKeys: ApiKeys;
  /** True when a client with this client_id exists (from CLIENTS or added at run time). */
  serviceExists: (serviceId: string) => boolean | Promise<boolean>;
  adminToken?: string;
};

const TAG = 'Admin: API keys';

export function apiKeysRoutes(deps: ApiKeysRoutesDeps): AnyRoute[] {
  // The token is checked first: without it nobody learns which services exist.
  const auth = adminToken(deps.adminToken);
  const known = async (serviceId: string): Promise<string> => {
    if (!(await deps.serviceExists(serviceId))) throw refuse('client_not_found', `no service "${serviceId}" is registered`, { previous: 'service_not_found' });
    return serviceId;
  };

  return [
    route({
      method: 'post',
      path: '/admin/services/{serviceId}/api-keys',
      summary: 'Create an API key for a service',
      tag: TAG,
      auth,
      params: forms.servicePath,
      body: forms.createBody,
      responses: { 201: { description: 'The new key, shown this once', schema: forms.newApiKey } },
      refusals: ['client_not_found', 'api_key_id_taken'],
      async handle({ params, body }) {
        return { body: await deps.apiKeys.create(await known(params.serviceId), body.label) };
      },
    }),

    route({
      method: 'get',
      path: '/admin/services/{serviceId}/api-keys',
      summary: "A service's API keys, newest first, revoked ones included",
      tag: TAG,
      auth,
      params: forms.servicePath,
      responses: { 200: { description: 'The keys (never their secrets)', schema: forms.apiKeyList } },
      refusals: ['client_not_found'],
      async handle({ params }) {
        return { body: { api_keys: await deps.apiKeys.list(await known(params.serviceId)) } };
      },
    }),

    route({
      method: 'post',
      path: '/admin/services/{serviceId}/api-keys/{keyId}/rotations',
      summary: 'Rotate a key: a new one with the same label; the old one is revoked',
      tag: TAG,
      auth,
      params: forms.keyPath,
      responses: { 201: { description: 'The new key, shown this once', schema: forms.newApiKey } },
      refusals: ['client_not_found', 'api_key_not_found', 'api_key_revoked', 'api_key_id_taken'],
      async handle({ params }) {
        return { body: await deps.apiKeys.rotate(await known(params.serviceId), params.keyId) };
      },
    }),

    route({
      method: 'delete',
      path: '/admin/services/{serviceId}/api-keys/{keyId}',
      summary: 'Revoke a key',
      tag: TAG,
      auth,
      params: forms.keyPath,
      responses: { 200: { description: 'The revoked key', schema: forms.apiKey } },
      refusals: ['client_not_found', 'api_key_not_found', 'api_key_revoked'],
      async handle({ params }) {
        return { body: await deps.apiKeys.revoke(await known(params.serviceId), params.keyId) };
      },
    }),
  ];
}
