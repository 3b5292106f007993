// The clients added at run time, assembled: Signet's rules for them (the one URL guard included),
// what the engine fetches for a client, a client's deletion and all it ends, the registration
// door of RFC 7591, and, once the engine exists, the admin API, CLIENTS written at start, and a
// registered client kept by its first token.
import type { Context } from 'koa';
import Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../../config/config.js';
import type { ClientRegistry } from '../../domain/clients/client_registry.js';
import { type ClientRemovalDeps, createClientRemoval } from '../../domain/clients/client_removal.js';
import { configuredOutboundUrls, createClientRules } from '../../domain/clients/client_rules.js';
import { seedConfiguredClients } from '../../domain/clients/client_seeding.js';
import { engineValidation } from '../../domain/clients/engine_validation.js';
import { registeredClients } from '../../domain/clients/registered_clients.js';
import type { ConsentReceipts } from '../../domain/consent/consent_receipts.js';
import { registrationOrigin } from '../../http/registration_limits.js';
import type { Logger } from '../../infra/observability/logger.js';
import { createGuardedFetch } from '../../infra/outbound/guarded_fetch.js';
import type { DialAddress } from '../../infra/outbound/pinned_request.js';
import type { UrlGuard } from '../../infra/outbound/url_guard.js';
import type { ClientRecords } from '../../infra/store/client_records.js';
import type { Store } from '../../infra/store/store.js';
import { clientsAdminRoutes } from './clients_admin_routes.js';

export type ClientAdminFeatureDeps = {
  config: Pick<Config, 'mode' | 'issuer' | 'adminToken' | 'clients' | 'clientRegistration' | 'clientRegistrationLimits'>;
  store: Store;
  clientRecords: ClientRecords;
  clients: ClientRegistry;
  urlGuard: UrlGuard;
  /** Tests only: where the engine's socket for an approved public address goes. */
  dialAddress?: DialAddress;
  /** The login grants a client holds, ended and forgotten with it. */
  receipts: Pick<ConsentReceipts, 'grantIdsOf' | 'forgetClient'>;
  /** What a client's deletion ends, besides its logins' receipts and its record (decision 24). */
  ends: Pick<ClientRemovalDeps, 'revokeLoginGrant' | 'endAccessGrantsOf' | 'removeApiKeysOf' | 'removeSsfStreamsOf'>;
  logger: Logger;
};

export function createClientAdminFeature(deps: ClientAdminFeatureDeps) {
  const { config } = deps;
  const rules = createClientRules({
    production: config.mode === 'production',
    guard: deps.urlGuard,
    // Signet, its wallets' built-in client, and every client the operator configured.
    reservedNames: ['Signet', 'Your wallet', ...config.clients.map((client) => client.client_name)],
  });
  // What the engine fetches for a client (jwks_uri, sector_identifier_uri) goes through the same
  // check, pinned, redirects checked hop by hop; CLIENTS' own URLs are the operator's.
  const operatorUrls = configuredOutboundUrls(config.clients);
  const engineFetch = createGuardedFetch({ guard: deps.urlGuard, trusted: (href) => operatorUrls.has(href), dial: deps.dialAddress });
  const removeClient = createClientRemoval({
    ...deps.ends,
    loginGrantIdsOf: deps.receipts.grantIdsOf,
    forgetLoginGrantsOf: deps.receipts.forgetClient,
    deleteRecord: deps.clientRecords.delete,
  });
  const registered = registeredClients({
    store: deps.store,
    records: deps.clientRecords,
    rules,
    remove: removeClient,
    isConfigured: deps.clients.isConfigured,
    limits: config.clientRegistrationLimits,
    // The engine saves a registration inside the request that made it: its Koa context is the one
    // it runs for. Only strangers are counted by address (decision 72): a registration that brings
    // the initial access token comes from a party the operator chose.
    originOf: () => {
      if (config.clientRegistration !== 'open') return undefined;
      const ctx = Provider.ctx as Context | undefined;
      return ctx?.request ? registrationOrigin(ctx) : undefined;
    },
  });
  /** What needs the engine: its verdict on a client's metadata. */
  const withEngine = (provider: Provider) => {
    const validate = engineValidation(provider);
    // A registered client's first token (a login's, or its own by client credentials) keeps it; until then it expires unused.
    provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
      const clientId = ctx.oidc.client?.clientId;
      if (clientId)
        registered.keep(clientId).catch((error: unknown) => deps.logger.error('a registered client could not be kept after its first token', error));
    });
    return {
      routes: clientsAdminRoutes({
        issuer: config.issuer,
        adminToken: config.adminToken,
        records: deps.clientRecords,
        registry: deps.clients,
        validate,
        rules,
        remove: removeClient,
      }),
      /** Writes CLIENTS to the client records (decision 23); a process runs it before it serves. */
      seedClients: () => seedConfiguredClients({ store: deps.store, records: deps.clientRecords, configured: config.clients, validate }),
    };
  };
  return { engineFetch, removeClient, registered, withEngine };
}
