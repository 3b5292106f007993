// Data held elsewhere (decisions 75 to 79): a claim whose `uri` lies under a listed Information
// Provider has its data fetched from there, on the owner's behalf, within a login:
//   1. the challenge step (`prepare`) finds the grants Signet already holds there; for the claims
//      without one it sends the access request in the background, while the owner reads the page;
//   2. the page fetches the provider's challenge (`challenges`), the wallet signs it after
//      Signet's own text;
//   3. the signature step (`fetchAtLogin`, beside Signet's own chain reads) validates the grant
//      at the provider if needed and reads the data, checked against the claim's onchain hash;
//   4. the data is kept encrypted for that website's grant (`keep`), and every release
//      (`release`: ID token, userinfo, the claim's resource) reads it from there, asking the
//      provider again once the copy is older than PROVIDER_RECHECK_SECONDS.
// A provider that fails at any step leaves the claim released without data, with `data_status`.
import type { Address, Hex } from 'viem';
import type { Logger } from '../../infra/observability/logger.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import type { ClaimView } from '../claims/claims_service.js';
import type { DataStatus } from '../claims/data_status.js';
import type { InformationProvider, InformationProviders } from './information_providers.js';
import type { HeldClaim, ProviderClient } from './provider_client.js';
import type { CopyEntry, GrantCopy, ProviderCopies } from './provider_copies.js';
import { faultStatusOf, ProviderFault } from './provider_fault.js';
import type { ProviderGrants } from './provider_grants.js';

/** A kept claim whose data a provider holds, as the login's challenge records it. */
export type HeldOffer = { claim_id: Hex; provider: string; resource: string; data_hash: Hex; signs: boolean };

/** A login's access requests at providers for one identity, by claim id: the grant and its challenge, or why there is none. */
type PendingRecord = { identity: string; claims: Record<string, { grant_id: string; challenge: string } | { status: DataStatus }> };

/** What the signature step fetched, by claim id: the data, or why there is none. */
export type Fetched = Record<string, { provider: string; data_hash: string; data?: Record<string, unknown>; status?: DataStatus }>;

/** A claim as released: with its data, or with `data_status` saying why not. */
export type ReleasedClaim = ClaimView & { data_status?: DataStatus };

export type HeldElsewhereDeps = {
  store: Store;
  providers: InformationProviders;
  client: ProviderClient;
  grants: ProviderGrants;
  copies: ProviderCopies;
  /** PROVIDER_TIMEOUT_MS: one step's requests to one provider. */
  timeoutMs: number;
  /** PROVIDER_RECHECK_SECONDS: how old a copy may be when released. */
  recheckSeconds: number;
  challengeTtlSeconds: number;
  now: () => number;
  logger: Logger;
};

const heldClaim = (provider: InformationProvider, identity: Address, offer: Pick<HeldOffer, 'claim_id' | 'resource' | 'data_hash'>): HeldClaim => ({
  provider,
  resource: offer.resource,
  identity,
  claimId: offer.claim_id,
  dataHash: offer.data_hash,
});

/** Settles with `work`, or with the fault of the deadline once `signal` aborts (nothing waits past it). */
function withinDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new ProviderFault('provider_unavailable', 'past the provider deadline'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

export function createHeldElsewhere(deps: HeldElsewhereDeps) {
  const { providers, client, grants, copies, store } = deps;
  /**
   * The access requests this process started, by login, while their answers are on their way:
   * `work`, and `again`, which sends them anew (when `work` could not be written).
   */
  const started = new Map<string, { work: Promise<PendingRecord>; again: () => Promise<PendingRecord> }>();
  /** The answer is in Redis for every process once written; this process's entry is a shortcut, kept while a challenge lives. */
  const keepStarted = (uid: string, entry: { work: Promise<PendingRecord>; again: () => Promise<PendingRecord> }) => {
    started.set(uid, entry);
    // A failure is not lost: `challenges` answers it.
    entry.work.catch(() => {});
    setTimeout(() => {
      if (started.get(uid) === entry) started.delete(uid);
    }, deps.challengeTtlSeconds * 1000).unref();
  };

  const note = (provider: string, status: DataStatus) => deps.logger.warn('claim data held elsewhere was not fetched', { provider, data_status: status });

  /**
   * The access requests of a login's claims. The page asks for the text again when the owner
   * changes what they keep: a request the login already has (same identity, answered) is kept,
   * not sent again, so the provider does not collect a pending request per click.
   */
  const requestAll = async (uid: string, identity: Address, offers: HeldOffer[], earlier: PendingRecord | undefined): Promise<PendingRecord> => {
    const signal = AbortSignal.timeout(deps.timeoutMs);
    const kept = earlier?.identity.toLowerCase() === identity.toLowerCase() ? earlier.claims : {};
    const record: PendingRecord = { identity, claims: { ...kept } };
    await Promise.all(
      offers.map(async (offer) => {
        const asked = kept[offer.claim_id];
        if (asked && 'grant_id' in asked) return;
        const provider = providers.byName(offer.provider)!;
        try {
          const pending = await withinDeadline(client.requestAccess(heldClaim(provider, identity, offer), signal), signal);
          record.claims[offer.claim_id] = { grant_id: pending.grantId, challenge: pending.challenge };
        } catch (error) {
          const status = faultStatusOf(error);
          note(offer.provider, status);
          record.claims[offer.claim_id] = { status };
        }
      }),
    );
    await store.set(keys.providerLogin(uid), JSON.stringify(record), deps.challengeTtlSeconds);
    return record;
  };

  const readPending = async (uid: string): Promise<PendingRecord | undefined> => {
    const raw = await store.get(keys.providerLogin(uid));
    return raw ? (JSON.parse(raw) as PendingRecord) : undefined;
  };

  /**
   * Reads the claim at its provider under the grant Signet holds; a grant the provider no longer
   * honours is forgotten (after `saving`, the grant's write still on its way, so the forgetting wins).
   */
  const readHeld = async (subject: string, claim: HeldClaim, signal: AbortSignal, saving?: Promise<void>) => {
    try {
      return await withinDeadline(client.read(claim, signal), signal);
    } catch (error) {
      if (faultStatusOf(error) === 'provider_grant_missing') {
        // A write that failed (Redis down) is the outage thrown here; one that lands is then undone.
        await saving;
        await grants.forget(subject, claim.claimId);
      }
      throw error;
    }
  };

  return {
    providers,

    /** The kept claims whose data a listed provider holds (valid ones only: nothing else is fetched). */
    heldAmong(claims: readonly ClaimView[]): { claim: ClaimView; provider: InformationProvider }[] {
      return claims.flatMap((claim) => {
        const provider = claim.valid ? providers.of(claim.uri) : undefined;
        return provider ? [{ claim, provider }] : [];
      });
    },

    /**
     * The challenge step: which claims need the owner's signature at their provider (none where
     * Signet holds a grant already); their access requests leave now, not awaited.
     */
    async prepare(uid: string, subject: string, identity: Address, held: { claim: ClaimView; provider: InformationProvider }[]): Promise<HeldOffer[]> {
      const holding = await grants.find(
        subject,
        held.map(({ claim }) => claim.claim_id),
      );
      const offers = held.map(({ claim, provider }) => ({
        claim_id: claim.claim_id.toLowerCase() as Hex,
        provider: provider.name,
        resource: claim.uri,
        data_hash: claim.data_hash,
        signs: !holding.has(claim.claim_id.toLowerCase()),
      }));
      const asking = offers.filter((offer) => offer.signs);
      if (asking.length) {
        // What this login asked already, read in the background too: this process's requests, else
        // (none, or their write failed) what Redis holds. A Redis failure fails `work`.
        const ask = (before: PendingRecord | undefined) => requestAll(uid, identity, asking, before);
        const mine = started.get(uid);
        const earlier = mine ? mine.work.catch(() => readPending(uid)) : readPending(uid);
        keepStarted(uid, { work: earlier.then(ask), again: () => readPending(uid).then(ask) });
      }
      return offers;
    },

    /**
     * The providers' challenges of a login, for the wallet to sign: from this process's own
     * requests, else from Redis once another process wrote them (waited for up to the deadline).
     */
    async challenges(uid: string): Promise<{ claim_id: string; challenge?: string; data_status?: DataStatus }[]> {
      // This process's requests could not be written (Redis down): the page's 503; they are sent
      // again at once, so that the page's next try has them once Redis is back.
      const mine = started.get(uid);
      let record = await mine?.work.catch((error: unknown) => {
        if (started.get(uid) === mine) keepStarted(uid, { ...mine, work: mine.again() });
        throw error;
      });
      const until = deps.now() + deps.timeoutMs;
      while (!record) {
        record = await readPending(uid);
        if (record || deps.now() >= until) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return Object.entries(record?.claims ?? {}).map(([claimId, entry]) =>
        'status' in entry ? { claim_id: claimId, data_status: entry.status } : { claim_id: claimId, challenge: entry.challenge },
      );
    },

    /** The signature step: validations where the owner signed, then the reads (each grant written meanwhile), all within one provider deadline. */
    async fetchAtLogin(
      uid: string,
      subject: string,
      identity: Address,
      wallet: Address,
      offers: readonly HeldOffer[],
      signatures: readonly { claim_id: string; signature: string }[],
    ): Promise<Fetched> {
      const [holding, pending] = await Promise.all([
        grants.find(
          subject,
          offers.map((offer) => offer.claim_id),
        ),
        offers.some((offer) => offer.signs) ? readPending(uid) : undefined,
      ]);
      const signal = AbortSignal.timeout(deps.timeoutMs);
      const fetched: Fetched = {};
      await Promise.all(
        offers.map(async (offer) => {
          const provider = providers.byName(offer.provider);
          const entry = { provider: offer.provider, data_hash: offer.data_hash };
          if (!provider) {
            fetched[offer.claim_id] = { ...entry, status: 'provider_unavailable' };
            return;
          }
          const claim = heldClaim(provider, identity, offer);
          let saving: Promise<void> | undefined;
          try {
            if (!holding.has(offer.claim_id)) {
              const asked = pending?.identity.toLowerCase() === identity.toLowerCase() ? pending.claims[offer.claim_id] : undefined;
              const signature = signatures.find((each) => each.claim_id.toLowerCase() === offer.claim_id)?.signature;
              if (!asked || 'status' in asked || !signature) {
                fetched[offer.claim_id] = { ...entry, status: asked && 'status' in asked ? asked.status : 'provider_grant_missing' };
                return;
              }
              await withinDeadline(client.validate(claim, asked.grant_id, signature, wallet, signal), signal);
              // The grant is written while the data is read: no Redis round trip between the provider's two answers.
              saving = grants.save(subject, {
                provider: offer.provider,
                claim_id: offer.claim_id,
                grant_id: asked.grant_id,
                resource: offer.resource,
                granted_at: new Date(deps.now()).toISOString(),
              });
              saving.catch(() => {}); // awaited below
            }
            const data = await readHeld(subject, claim, signal, saving);
            await saving;
            fetched[offer.claim_id] = { ...entry, data };
          } catch (error) {
            // The grant's write settles first: if Redis failed it, that outage is thrown, not a claim status.
            await saving;
            const status = faultStatusOf(error);
            note(offer.provider, status);
            fetched[offer.claim_id] = { ...entry, status };
          }
        }),
      );
      return fetched;
    },

    /**
     * The owner's erasure: every grant Signet holds for them at a provider is revoked there and
     * forgotten. A provider that cannot be reached now fails the step, which the erasure job runs
     * again later (a grant is never forgotten while it still stands there).
     */
    async endGrantsOf(subject: string): Promise<void> {
      for (const grant of await grants.listFor(subject)) {
        const provider = providers.byName(grant.provider);
        // A provider no longer listed: its API key is gone, nothing Signet can do there.
        if (provider) await client.revoke(provider, grant.grant_id, AbortSignal.timeout(deps.timeoutMs));
        await grants.forget(subject, grant.claim_id);
      }
    },

    /** Forgets the data kept for a website's grant (its login ended). */
    forgetCopy: (grantId: string) => copies.forget(grantId),

    /** The grants held for the owner at providers, for the export. */
    grantsOf: (subject: string) => grants.listFor(subject),

    /** Keeps what the login fetched for the website's grant, sealed, until the grant ends. */
    async keep(grantId: string, grantExpiresAt: number, fetched: Fetched): Promise<void> {
      const at = deps.now();
      const claims: Record<string, CopyEntry> = {};
      for (const [claimId, entry] of Object.entries(fetched)) {
        const sealed = entry.data && copies.seal(grantId, claimId, entry.provider, entry.data);
        claims[claimId] = {
          provider: entry.provider,
          data_hash: entry.data_hash,
          checked_at: at,
          ...(sealed ? { sealed } : { status: entry.status ?? 'provider_unavailable' }),
        };
      }
      await copies.save(grantId, { expires_at: grantExpiresAt, claims });
    },

    /**
     * The kept claims of a website's grant with the data their providers hold: from the copy
     * while it is fresh and its hash is still the onchain one, else read at the provider again
     * (with the grant Signet holds). `sources` names the provider of each claim released with data.
     */
    async release(
      grantId: string,
      subject: string,
      identity: Address,
      views: readonly ClaimView[],
    ): Promise<{ views: ReleasedClaim[]; sources: Record<string, string> }> {
      const sources: Record<string, string> = {};
      // A claim named while the chain could not be read has no uri: nothing is fetched for it.
      const held = views.filter((view) => view.valid && view.data === undefined && typeof view.uri === 'string' && providers.of(view.uri));
      if (held.length === 0) return { views: [...views], sources };
      const copy: GrantCopy | undefined = await copies.find(grantId);
      if (!copy) return { views: views.map((view) => (held.includes(view) ? { ...view, data_status: 'provider_grant_missing' as const } : view)), sources };
      const now = deps.now();
      let changed = false;
      const signal = AbortSignal.timeout(deps.timeoutMs);
      const answers = new Map<ClaimView, ReleasedClaim>();
      const stale = held.filter((view) => {
        const entry = copy.claims[view.claim_id.toLowerCase()];
        if (!entry) {
          answers.set(view, { ...view, data_status: 'provider_grant_missing' });
          return false;
        }
        const fresh = now - entry.checked_at < deps.recheckSeconds * 1000 && entry.data_hash.toLowerCase() === view.data_hash.toLowerCase();
        if (!fresh) return true;
        const data = copies.open(grantId, view.claim_id, entry);
        if (data) {
          answers.set(view, { ...view, data });
          sources[view.claim_id] = entry.provider;
          return false;
        }
        if (entry.status) {
          answers.set(view, { ...view, data_status: entry.status });
          return false;
        }
        return true;
      });
      if (stale.length) {
        const holding = await grants.find(
          subject,
          stale.map((view) => view.claim_id),
        );
        await Promise.all(
          stale.map(async (view) => {
            const claimId = view.claim_id.toLowerCase();
            const provider = providers.of(view.uri)!;
            const grant = holding.get(claimId);
            let entry: CopyEntry;
            if (!grant) entry = { provider: provider.name, data_hash: view.data_hash, checked_at: now, status: 'provider_grant_missing' };
            else {
              try {
                const data = await readHeld(
                  subject,
                  heldClaim(provider, identity, { claim_id: view.claim_id, resource: view.uri, data_hash: view.data_hash }),
                  signal,
                );
                entry = { provider: provider.name, data_hash: view.data_hash, checked_at: now, sealed: copies.seal(grantId, claimId, provider.name, data) };
                answers.set(view, { ...view, data });
                sources[view.claim_id] = provider.name;
              } catch (error) {
                const status = faultStatusOf(error);
                note(provider.name, status);
                entry = { provider: provider.name, data_hash: view.data_hash, checked_at: now, status };
              }
            }
            if (!answers.has(view)) answers.set(view, { ...view, data_status: entry.status ?? 'provider_unavailable' });
            copy.claims[claimId] = entry;
            changed = true;
          }),
        );
      }
      if (changed) await copies.save(grantId, copy);
      return { views: views.map((view) => answers.get(view) ?? view), sources };
    },
  };
}

export type HeldElsewhere = ReturnType<typeof createHeldElsewhere>;
