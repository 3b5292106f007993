// How many credentials Signet issues (decision 66): one credential request per access token
// (its batch, up to the metadata's batch_size), and at most `perIdentityPerDay` credentials per
// identity in any 24 hours, whatever the wallets and offers. The day's count is an index of
// the credentials issued, each listed for 24 hours: a batch reserves its places there at once
// and gives them back if it is refused after, so two batches at once never pass the bound.
import { createHash } from 'node:crypto';
import { refuse } from '../../base/errors.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

const DAY_SECONDS = 86_400;

export type IssuanceBounds = {
  /** True when the access token has received its credentials already. */
  tokenSpent(token: string): Promise<boolean>;
  /** Marks the token as having received its credentials, for its remaining life; false when another request did first. */
  spendToken(token: string, lifeSeconds: number): Promise<boolean>;
  /**
   * Reserves `ids.length` of the identity's credentials of the day, all or none: refuses
   * `credentials_daily_limit` (with Retry-After) past the bound. `release` gives them back.
   */
  reserve(identity: string, ids: readonly string[]): Promise<{ release(): Promise<void> }>;
};

const digestOf = (token: string) => createHash('sha256').update(token).digest('base64url');

export function createIssuanceBounds(deps: { store: Store; now: () => number; perIdentityPerDay: number }): IssuanceBounds {
  const { store } = deps;
  return {
    async tokenSpent(token) {
      return (await store.get(keys.credentialTokenSpent(digestOf(token)))) !== undefined;
    },
    spendToken(token, lifeSeconds) {
      return store.setIfAbsent(keys.credentialTokenSpent(digestOf(token)), '1', Math.max(1, Math.ceil(lifeSeconds)));
    },
    async reserve(identity, ids) {
      const index = keys.credentialsOfDay(identity);
      const now = deps.now();
      const taken: string[] = [];
      const release = async () => {
        if (taken.length) await store.removeFromIndex(index, ...taken.splice(0));
      };
      for (const id of ids) {
        // The member names when it was issued: the refusal's Retry-After is when the oldest leaves.
        const member = `${now}.${id}`;
        if (!(await store.addToIndexWithin(index, member, DAY_SECONDS, deps.perIdentityPerDay))) {
          await release();
          const issued = (await store.indexMembers(index)).map((each) => Number(each.split('.')[0])).filter(Number.isFinite);
          const oldest = issued.length ? Math.min(...issued) : now;
          const retryAfterSeconds = Math.max(1, Math.ceil((oldest + DAY_SECONDS * 1000 - now) / 1000));
          throw refuse(
            'credentials_daily_limit',
            `at most ${deps.perIdentityPerDay} credentials per identity in 24 hours (this request asks for ${ids.length}); try again in ${retryAfterSeconds} s`,
            { retryAfterSeconds },
          );
        }
        taken.push(member);
      }
      return { release };
    },
  };
}
