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
