// The services feature: the clients as services (CLIENTS' and those added at run time), their
// API keys, the check of a presented key (as a route's caller, and for the resource reads), and
// the admin API's routes.

import type { Config } from '../../config/config.js';
import type { ClientRegistry } from '../../domain/clients/client_registry.js';
import type { Store } from '../../infra/store/store.js';
import { createApiKeys } from './api_keys.js';
import { apiKeysRoutes } from './api_keys_routes.js';
import { serviceAuth, serviceCaller } from './service_caller.js';

export type ServicesFeatureDeps = {
  config: Pick<Config, 'adminToken'>;
  clients: ClientRegistry;
  store: Store;
  now: () => number;
};

export function createServicesFeature({ config, clients, store, now }: ServicesFeatureDeps) {
  const serviceExists = async (service: string) => (await clients.find(service)) !== undefined;
  /** The name people read (the client's client_name), its id when it has none, or that it was deleted. */
  const serviceName = clients.nameOf;
  const apiKeys = createApiKeys(store, now);
  const services = serviceAuth(apiKeys, serviceExists);
  const routes = apiKeysRoutes({ apiKeys, serviceExists, adminToken: config.adminToken });
  return { routes, apiKeys, services, service: serviceCaller(services), serviceExists, serviceName };
}

export type ServicesFeature = ReturnType<typeof createServicesFeature>;
