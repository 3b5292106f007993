// The access-grant feature: the grant store and its services (requests, validation, ends),
// built before the engine, then the listing, revocation, resource reads and routes over it.
import type Provider from 'oidc-provider';
import type { Address } from 'viem';
import { SignetError } from '../../base/errors.js';
import { retentionSeconds } from '../../base/retention.js';
import type { Config } from '../../config/config.js';
import type { BackchannelInbox } from '../../domain/backchannel/backchannel_inbox.js';
import type { Chains } from '../../domain/chains/chains.js';
import type { ClientRegistry } from '../../domain/clients/client_registry.js';
import { isFapiClient } from '../../domain/clients/fapi_profile.js';
import type { ConsentReceipts } from '../../domain/consent/consent_receipts.js';
import type { Signals } from '../../domain/consent/consent_signal.js';
import type { DpopCheck } from '../../domain/dpop/dpop_proof.js';
import type { AccessHistory } from '../../domain/history/access_history.js';
import { subjectOf } from '../../domain/identity/subject.js';
import type { AccountSessions } from '../../domain/owner_sessions/account_sessions.js';
import type { SessionCallers } from '../../domain/owner_sessions/session_callers.js';
import type { HeldElsewhere } from '../../domain/providers/held_elsewhere.js';
import type { Watchlists } from '../../domain/watch/watchlist.js';
import type { WebhookQueue } from '../../domain/webhooks/webhook_queue.js';
import type { Authenticator } from '../../http/authenticators.js';
import { signingKeysOf } from '../../infra/keys/signing_keys.js';
import type { ServiceAuth, ServiceCaller } from '../services/service_caller.js';
import type { AccessGrantStore } from './access_grant_store.js';
import { createAccessGrants } from './access_grants.js';
import { createClaimJwtSigner } from './claim_jwt.js';
import { webhookEventOf } from './grant_events.js';
import { createGrantListing } from './grant_listing.js';
import { createGrantResources } from './grant_resource.js';
import { grantRoutes } from './grant_routes.js';
import { createOwnerRevocation } from './owner_revocation.js';
import { createResourceReader } from './resource_reader.js';

export type AccessGrantPartsDeps = {
  /** The grants' records (app.ts builds it once: the signals' emitter reads it too). */
  grants: AccessGrantStore;
  config: Pick<Config, 'retention' | 'challengeTtlSeconds' | 'grants' | 'ttl'>;
  issuer: string;
  /** Each chain's identity reads, signature check, profiles and claims. */
  chains: Chains;
  serviceName: (service: string) => Promise<string>;
  webhooks: WebhookQueue;
  /** Told of every grant that ends, for the clients (back-channel logout, SSF). */
  signals?: Signals;
  /** The identities the chain watcher follows: an access grant's identity joins when it is validated. */
  watchlists?: Watchlists;
  now: () => number;
};

/**
 * The access grants themselves (their records, requests, validation and ends), built before
 * the engine: deleting a client, which the engine's registration calls, ends the grants it holds.
 */
export function createAccessGrantParts(deps: AccessGrantPartsDeps) {
  const { grants } = deps;
  const resources = createGrantResources(deps.chains);
  const accessGrants = createAccessGrants({
    grants,
    resources,
    chains: deps.chains,
    serviceName: deps.serviceName,
    notify: async (event) => {
      // A request goes to the owner's webhook of the identity on its chain (grant_events.ts).
      await deps.webhooks.enqueue(webhookEventOf(event, deps.now));
      // A revoked grant is also a grant ended, for the service's SSF stream (one the service gave up itself needs no telling).
      const { grant } = event;
      const reason = grant.revoked_reason ?? 'owner_revoked';
      if (event.type === 'access_grant.revoked' && reason !== 'service_released') {
        await deps.signals?.emit({
          type: 'grant_ended',
          identity: grant.identity,
          ...(grant.chain_id === undefined ? {} : { chain_id: grant.chain_id }),
          client_id: grant.service,
          grant_id: grant.id,
          kind: grant.kind,
          reason,
          at: deps.now(),
        });
      }
    },
    settings: {
      issuer: deps.issuer,
      // An immediate grant lives as long as a wallet challenge; a persistent one's token as an access token.
      immediateRequestSeconds: deps.config.challengeTtlSeconds,
      persistentRequestSeconds: deps.config.grants.pendingSeconds,
      immediateTokenSeconds: deps.config.challengeTtlSeconds,
      persistentTokenSeconds: deps.config.ttl.accessToken,
      endedGrantSeconds: retentionSeconds(deps.config.retention.endedGrantDays),
    },
    watchlists: deps.watchlists,
    now: deps.now,
  });
  /** The ids of an identity's access grants (ended ones included, while kept); chainId: as records name the chain. */
  const accessGrantIdsOf = (identity: Address, chainId?: number) => grants.listIds({ identity, chainId });
  /** Ends the access grants a service holds, its client being deleted: active ones revoked, requests denied. */
  const endAccessGrantsOf = async (service: string) => {
    for (const grant of await accessGrants.currentOf(await grants.listIds({ service }))) {
      const end =
        grant.status === 'active'
          ? () => accessGrants.revoke(grant.id, { identity: grant.identity, chainId: grant.chain_id }, 'client_deleted')
          : grant.status === 'pending'
            ? () => accessGrants.deny(grant.id, grant.identity, grant.chain_id)
            : undefined;
      // One that ended meanwhile (a refusal, not an outage) needs nothing more.
      await end?.().catch((error: unknown) => {
        if (!(error instanceof SignetError && error.status < 500)) throw error;
      });
    }
  };
  return { grants, resources, accessGrants, accessGrantIdsOf, endAccessGrantsOf };
}

export type AccessGrantParts = ReturnType<typeof createAccessGrantParts>;

export type GrantsFeatureDeps = {
  /** The access grants, built before the engine. */
  access: AccessGrantParts;
  /** The DPoP check of access tokens presented to the resource routes. */
  checkDpop: DpopCheck;
  issuer: string;
  provider: Provider;
  /** The clients' records: whether a token's client follows the FAPI profile. */
  clients: Pick<ClientRegistry, 'find'>;
  receipts: ConsentReceipts;
  sessions: AccountSessions;
  sessionCallers: SessionCallers;
  /** The services' API keys: who calls the access-grant API. */
  services: { services: ServiceAuth; service: Authenticator<ServiceCaller> };
  backchannel: BackchannelInbox;
  /** The chains served (a path's chain id is checked against them). */
  chains: Pick<Chains, 'named' | 'idOf'>;
  revokeLoginGrant: (grantId: string) => Promise<void>;
  history: AccessHistory;
  /** Claim data other Information Providers hold, kept for a login's grant (src/domain/providers/). */
  heldElsewhere?: HeldElsewhere;
  /** The signing keys a claim's resource is signed with as a JWT (`Accept: application/jwt`). */
  config: Pick<Config, 'jwks'>;
  now: () => number;
};

/** The grants' listing, revocation by the owner, resource reads and routes, once the engine exists. */
export function createGrantsFeature(deps: GrantsFeatureDeps) {
  const { grants, resources, accessGrants } = deps.access;
  const listing = createGrantListing({ grants, accessGrants, receipts: deps.receipts, provider: deps.provider });
  const revokeAsOwner = createOwnerRevocation({ listing, accessGrants, revokeLoginGrant: deps.revokeLoginGrant });
  const readResource = createResourceReader({
    provider: deps.provider,
    chains: deps.chains,
    receipts: deps.receipts,
    grants,
    accessGrants,
    resources,
    services: deps.services.services,
    history: deps.history,
    heldElsewhere: deps.heldElsewhere,
    checkDpop: deps.checkDpop,
    requiresDpopNonce: async (clientId) => isFapiClient(await deps.clients.find(clientId)),
  });
  const routes = grantRoutes({
    issuer: deps.issuer,
    accessGrants,
    listing,
    readResource,
    services: deps.services.services,
    service: deps.services.service,
    sessions: { ...deps.sessionCallers, find: (ctx) => deps.sessions.find(ctx) },
    backchannelFor: (identity: Address, chainId?: number) => deps.backchannel.pendingFor(identity, chainId),
    revokeAsOwner,
    signClaim: createClaimJwtSigner(deps.issuer, signingKeysOf(deps.config), deps.now),
    subjectOf: (identity, chainId) => subjectOf(deps.chains.idOf(chainId), identity),
    // A bare address, or the default chain named, is the default chain's identity (one path, one grant).
    chainOf: ({ chainId }) => deps.chains.named(chainId).idInRecords,
  });
  return { routes, accessGrants, listing, revokeAsOwner };
}

export type GrantsFeature = ReturnType<typeof createGrantsFeature>;
