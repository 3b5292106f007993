// The services feature: the configured clients as services, their API keys, the check of a
// presented key (as a route's caller, and for the resource reads), and the admin API's routes.
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';
import { createApiKeys } from './api_keys.js';
import { apiKeysRoutes } from './api_keys_routes.js';
import { serviceAuth, serviceCaller } from './service_caller.js';

export type ServicesFeatureDeps = {
  config: Pick<Config, 'clients' | 'adminToken'>;
  store: Store;
  now: () => number;
};

export function createServicesFeature({ config, store, now }: ServicesFeatureDeps) {
  const serviceNames = new Map(config.clients.map((client) => [client.client_id, client.client_name]));
  const serviceExists = (service: string) => serviceNames.has(service);
  /** The name people read (the client's client_name), or the id when it has none. */
  const serviceName = (service: string) => serviceNames.get(service) ?? service;
  const apiKeys = createApiKeys(store, now);
  const services = serviceAuth(apiKeys, serviceExists);
  const routes = apiKeysRoutes({ apiKeys, serviceExists, adminToken: config.adminToken });
  return { routes, apiKeys, services, service: serviceCaller(services), serviceExists, serviceName };
}

export type ServicesFeature = ReturnType<typeof createServicesFeature>;
