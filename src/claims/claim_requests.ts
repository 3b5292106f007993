// Owners' requests for a claim from Signet's own issuer: kept for the issuer's operators, who
// collect the data through their own process and then issue with the admin API or the CLI.
import type { Address } from 'viem';
import { keys } from '../store/keys.js';
import type { Store } from '../store/store.js';

export type ClaimRequest = { identity: Address; topic: string; requested_at: string };

export function createClaimRequests(store: Store, now: () => number) {
  return {
    async add(identity: Address, topic: string) {
      const request: ClaimRequest = { identity, topic, requested_at: new Date(now()).toISOString() };
      await store.set(keys.claimRequest(identity, topic), JSON.stringify(request));
      await store.addToIndex(keys.claimRequests(), `${identity}:${topic}`, 0);
    },
    /** The identity's requests, of the topics named. */
    async listFor(identity: Address, topics: readonly string[]): Promise<ClaimRequest[]> {
      const found = topics.length ? await store.getMany(topics.map((topic) => keys.claimRequest(identity, topic))) : [];
      return found.filter((raw): raw is string => raw !== undefined).map((raw) => JSON.parse(raw) as ClaimRequest);
    },
    /** Deletes the identity's requests and their index entries (erasure). */
    async removeFor(identity: Address, topics: readonly string[]): Promise<void> {
      if (!topics.length) return;
      await store.delete(...topics.map((topic) => keys.claimRequest(identity, topic)));
      await store.removeFromIndex(keys.claimRequests(), ...topics.map((topic) => `${identity}:${topic}`));
    },
    async list(): Promise<ClaimRequest[]> {
      const members = await store.indexMembers(keys.claimRequests());
      const found = await Promise.all(
        members.map(async (member) => {
          const [identity, topic] = member.split(':') as [Address, string];
          return store.get(keys.claimRequest(identity, topic));
        }),
      );
      return found.filter((raw): raw is string => raw !== undefined).map((raw) => JSON.parse(raw) as ClaimRequest);
    },
  };
}

export type ClaimRequests = ReturnType<typeof createClaimRequests>;
