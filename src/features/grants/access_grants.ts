// The access-grant operations (docs/decisions.md, 15): a service requests, the owner (or the service
// relaying the owner's signature) validates, the owner denies or revokes; pending requests
// expire. Every status change is one atomic step and notifies the service.
import type { Address } from 'viem';
import { refuse, SignetError } from '../../base/errors.js';
import type { IdentityRegistry } from '../../domain/identity/identity_registry.js';
import { subjectOf } from '../../domain/identity/subject.js';
import type { VerifyLinkedSignature } from '../../domain/wallet/verify_linked_signature.js';
import type { Watchlists } from '../../domain/watch/watchlist.js';
import type { AccessGrant, GrantKind, RevocationReason } from './access_grant.js';
import type { AccessGrantStore } from './access_grant_store.js';
import { grantChallenge, revocationText } from './grant_challenge.js';
import type { GrantResources, ResourceRef } from './grant_resource.js';

/** access_request.created goes to the owner (their optional webhook); the others to the service. */
export type GrantEvent = {
  type: 'access_request.created' | 'access_grant.granted' | 'access_grant.denied' | 'access_grant.revoked';
  grant: AccessGrant;
};

export type AccessGrantSettings = {
  issuer: string;
  /** How long an immediate request may wait for its signature. */
  immediateRequestSeconds: number;
  /** How long a persistent request may wait for the owner. */
  persistentRequestSeconds: number;
  /** Life of the bearer token a validation returns. */
  immediateTokenSeconds: number;
  persistentTokenSeconds: number;
  /** How long an ended grant (used, revoked, denied, expired) stays readable, then goes (retention.endedGrantDays). */
  endedGrantSeconds: number;
};

export type AccessGrantDeps = {
  grants: AccessGrantStore;
  resources: GrantResources;
  /** The chain a grant or resource names (none: the default chain): its identity reads and signature check. */
  chains: {
    named(chainId: number | undefined): { registry: IdentityRegistry; verifyLinkedSignature: VerifyLinkedSignature };
    idOf(chainId: number | undefined): number;
  };
  serviceName: (service: string) => Promise<string>;
  notify: (event: GrantEvent) => Promise<void>;
  settings: AccessGrantSettings;
  /** The chain watcher follows the identity of an active grant: a one-time one for its token's life, a lasting one until revoked. */
  watchlists?: Watchlists;
  now: () => number;
};

const iso = (ms: number) => new Date(ms).toISOString();
// Another identity's or service's grant is answered as missing: ids reveal nothing.
const grantNotFound = (id: string) => refuse('grant_not_found', `no access grant ${id}`);
const requestExpired = (grant: AccessGrant) => refuse('grant_expired', `the access request expired at ${grant.expires_at}`);

/** A grant of the identity on its chain (chainId as records name it: undefined on the default chain). */
const ofIdentity = (grant: AccessGrant, identity: Address, chainId?: number) => grant.identity === identity && grant.chain_id === chainId;

export function createAccessGrants(deps: AccessGrantDeps) {
  const { grants, settings } = deps;
  /** The chain's reads of a grant's (or a resource's) identity. */
  const chainOf = (chainId?: number) => deps.chains.named(chainId);
  // How long a grant is kept from each step on (docs/data.md): an ended one for the ended period;
  // a request for its wait and then that period (it ends expired if nobody reads it); an active
  // immediate grant for its token's life and then that period (unread, it cannot be used after);
  // an active persistent grant until it is revoked (0: no expiry).
  const ended = settings.endedGrantSeconds;
  const requestLife = (kind: GrantKind) => (kind === 'immediate' ? settings.immediateRequestSeconds : settings.persistentRequestSeconds) + ended;
  const activeLife = (kind: GrantKind) => (kind === 'immediate' ? settings.immediateTokenSeconds + ended : 0);

  /** The grant as it stands: a pending request past its expiry becomes expired on the way. */
  const current = async (id: string): Promise<AccessGrant> => {
    const grant = await grants.find(id);
    if (!grant) throw grantNotFound(id);
    if (grant.status === 'pending' && Date.parse(grant.expires_at) <= deps.now()) {
      // Another caller moved it first: the grant as that left it.
      return grants.transition(id, ['pending'], 'expired', {}, ended).catch(async () => {
        const moved = await grants.find(id);
        if (!moved) throw grantNotFound(id);
        return moved;
      });
    }
    return grant;
  };

  const verifySigner = (grant: AccessGrant, message: string, signature: string, address?: Address) =>
    chainOf(grant.chain_id).verifyLinkedSignature(grant.identity, message, signature, address);

  return {
    current,

    /**
     * The listed grants as they stand. A grant ends its period (record, status and index entry
     * expiring together) at any moment, so one may still be listed an instant after its record
     * went: it is left out, as if the listing had been read an instant later.
     */
    async currentOf(ids: readonly string[]): Promise<AccessGrant[]> {
      const found = await Promise.all(
        ids.map((id) =>
          current(id).catch((error: unknown) => {
            if (error instanceof SignetError && error.reason === 'grant_not_found') return undefined;
            throw error;
          }),
        ),
      );
      return found.filter((grant): grant is AccessGrant => grant !== undefined);
    },

    async request(ref: ResourceRef, service: string, kind: GrantKind, askedFields: string[] | undefined): Promise<AccessGrant> {
      await chainOf(ref.chainId)
        .registry.assertKnown(ref.identity)
        .catch((error) => {
          // Only the factory's "unknown" is a 404; an unreachable chain stays a 503.
          if (error instanceof SignetError && error.reason === 'identity_not_found') {
            throw refuse('identity_not_found', `identity ${ref.identity} is not registered with Signet's IdFactory`);
          }
          throw error;
        });
      const fields = await deps.resources.requestedFields(ref, askedFields);
      const id = grants.newId();
      const now = deps.now();
      const expiresAt = iso(now + 1000 * (kind === 'immediate' ? settings.immediateRequestSeconds : settings.persistentRequestSeconds));
      const grant: AccessGrant = {
        id,
        kind,
        status: 'pending',
        identity: ref.identity,
        ...(ref.chainId === undefined ? {} : { chain_id: ref.chainId }),
        service,
        resource: ref.path,
        fields,
        challenge: grantChallenge({
          issuer: settings.issuer,
          serviceName: await deps.serviceName(service),
          kind,
          identitySubject: subjectOf(deps.chains.idOf(ref.chainId), ref.identity),
          resourceUrl: `${settings.issuer}${ref.path}`,
          fields,
          grantId: id,
          expiresAt,
        }),
        created_at: iso(now),
        expires_at: expiresAt,
      };
      await grants.create(grant, requestLife(kind));
      // The owner decides a lasting grant later: besides the inbox, their webhook hears of it.
      if (kind === 'persistent') await deps.notify({ type: 'access_request.created', grant });
      return grant;
    },

    /** The owner's signature over the challenge turns a pending request into an active grant. */
    async validate(id: string, signature: string, address?: Address) {
      const pending = await current(id);
      if (pending.status === 'expired') throw requestExpired(pending);
      // Checked again atomically below; this gives the answer before any chain read.
      if (pending.status !== 'pending') throw refuse('grant_not_pending', `the access grant is ${pending.status}`);
      const signer = await verifySigner(pending, pending.challenge, signature, address);
      await deps
        .watchlists?.(pending.chain_id)
        .watch(pending.identity, pending.kind === 'immediate' ? deps.now() + settings.immediateTokenSeconds * 1000 : 0, pending.id);
      const grant = await grants.transition(id, ['pending'], 'active', { signature, signer, granted_at: iso(deps.now()) }, activeLife(pending.kind));
      const ttl = grant.kind === 'immediate' ? settings.immediateTokenSeconds : settings.persistentTokenSeconds;
      const accessToken = await grants.issueToken(id, ttl);
      await deps.notify({ type: 'access_grant.granted', grant });
      return { grant, access_token: accessToken, token_type: 'Bearer' as const, expires_in: ttl };
    },

    async deny(id: string, identity: Address, chainId?: number) {
      const pending = await current(id);
      if (!ofIdentity(pending, identity, chainId)) throw grantNotFound(id);
      if (pending.status === 'expired') throw requestExpired(pending);
      const grant = await grants.transition(id, ['pending'], 'denied', { denied_at: iso(deps.now()) }, ended);
      await deps.notify({ type: 'access_grant.denied', grant });
      return grant;
    },

    /** By the owner: with an account session (identity known) or a signature of the revocation text. */
    /** By the owner (a session or a signature of the revocation text), or by Signet for `reason` (a key removed on chain, an erasure). */
    async revoke(
      id: string,
      by: { identity: Address; chainId?: number } | { signature: string } | { service: string },
      reason: RevocationReason = 'owner_revoked',
    ) {
      const grant = await current(id);
      if ('identity' in by) {
        if (!ofIdentity(grant, by.identity, by.chainId)) throw grantNotFound(id);
      } else if ('service' in by) {
        // A service gives up its own grant (another Signet whose owner erased their data there).
        if (grant.service !== by.service) throw grantNotFound(id);
      } else {
        await verifySigner(grant, revocationText(settings.issuer, id, grant.identity), by.signature);
      }
      const revoked = await grants.transition(id, ['active'], 'revoked', { revoked_at: iso(deps.now()), revoked_reason: reason }, ended);
      if (revoked.kind === 'persistent') await deps.watchlists?.(revoked.chain_id).ended(revoked.identity, revoked.id);
      await deps.notify({ type: 'access_grant.revoked', grant: revoked });
      return revoked;
    },

    /** Spends an immediate grant: exactly one caller wins, even when many arrive at once. */
    async use(grant: AccessGrant) {
      return grants.transition(grant.id, ['active'], 'used', { used_at: iso(deps.now()) }, ended);
    },

    assertOwnedBy(grant: AccessGrant, who: { service?: string; identity?: Address; chainId?: number }) {
      const mine = (who.service && grant.service === who.service) || (who.identity && ofIdentity(grant, who.identity, who.chainId));
      if (!mine) throw grantNotFound(grant.id);
    },

    accessDeniedFor: (service: string) => refuse('grant_missing', `no active access grant of service "${service}" covers this resource`),
  };
}

export type AccessGrants = ReturnType<typeof createAccessGrants>;
