// Owners' requests for a claim from Signet's own issuer: kept for the issuer's operators, who
// collect the data through their own process and then issue with the admin API or the CLI.
import type { Address } from 'viem';
import { identityKeyOf } from '../../infra/chain/identity_key.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

/** `chain_id`: the identity's chain, as records name it (absent: the default chain, as before several chains; src/infra/chain/chains.ts). */
export type ClaimRequest = { identity: Address; chain_id?: number; topic: string; requested_at: string };

/** The index names a request by its identity's key and topic; the topic is the part after the last colon. */
const memberOf = (identity: Address, chainId: number | undefined, topic: string) => `${identityKeyOf(identity, chainId)}:${topic}`;

export function createClaimRequests(store: Store, now: () => number) {
  return {
    /** `chainId`: of an identity on another chain than the default one. */
    async add(identity: Address, topic: string, chainId?: number) {
      const request: ClaimRequest = { identity, ...(chainId === undefined ? {} : { chain_id: chainId }), topic, requested_at: new Date(now()).toISOString() };
      await store.set(keys.claimRequest(identityKeyOf(identity, chainId), topic), JSON.stringify(request));
      await store.addToIndex(keys.claimRequests(), memberOf(identity, chainId, topic), 0);
    },
    /** The identity's requests, of the topics named (`chainId`: of an identity on another chain than the default one). */
    async listFor(identity: Address, topics: readonly string[], chainId?: number): Promise<ClaimRequest[]> {
      const named = identityKeyOf(identity, chainId);
      const found = topics.length ? await store.getMany(topics.map((topic) => keys.claimRequest(named, topic))) : [];
      return found.filter((raw): raw is string => raw !== undefined).map((raw) => JSON.parse(raw) as ClaimRequest);
    },
    /** Deletes the identity's requests and their index entries (erasure). */
    async removeFor(identity: Address, topics: readonly string[], chainId?: number): Promise<void> {
      if (!topics.length) return;
      await store.delete(...topics.map((topic) => keys.claimRequest(identityKeyOf(identity, chainId), topic)));
      await store.removeFromIndex(keys.claimRequests(), ...topics.map((topic) => memberOf(identity, chainId, topic)));
    },
    async list(): Promise<ClaimRequest[]> {
      const members = await store.indexMembers(keys.claimRequests());
      const found = await Promise.all(
        members.map(async (member) => {
          const at = member.lastIndexOf(':');
          return store.get(keys.claimRequest(member.slice(0, at), member.slice(at + 1)));
        }),
      );
      return found.filter((raw): raw is string => raw !== undefined).map((raw) => JSON.parse(raw) as ClaimRequest);
    },
  };
}

export type ClaimRequests = ReturnType<typeof createClaimRequests>;
