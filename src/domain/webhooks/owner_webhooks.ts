// Owners' optional webhooks: an owner may ask Signet to call a URL of theirs when a service
// requests access, besides the inbox. Events for an owner travel as service "owner:<identity>".
import { randomBytes } from 'node:crypto';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import type { SignedTarget } from './webhook_queue.js';

export const OWNER_SERVICE_PREFIX = 'owner:';

export const ownerService = (identity: string) => `${OWNER_SERVICE_PREFIX}${identity}`;

export function createOwnerWebhooks(store: Store) {
  const get = async (identity: string): Promise<SignedTarget | undefined> => {
    const raw = await store.get(keys.ownerWebhook(identity));
    if (!raw) return undefined;
    // Built field by field: an owner's target is never trusted, whatever the stored JSON holds.
    const { url, secret } = JSON.parse(raw) as SignedTarget;
    return { url, secret };
  };
  return {
    get,
    /** Sets the URL; a new secret is made unless one is given. Returns the target (the secret shown once). */
    async set(identity: string, url: string, secret?: string): Promise<SignedTarget> {
      const target = { url, secret: secret ?? randomBytes(24).toString('base64url') };
      await store.set(keys.ownerWebhook(identity), JSON.stringify(target));
      return target;
    },
    remove: (identity: string) => store.delete(keys.ownerWebhook(identity)),
    /** The queue's lookup for "owner:<identity>" services. */
    targetOf: async (service: string) => (service.startsWith(OWNER_SERVICE_PREFIX) ? get(service.slice(OWNER_SERVICE_PREFIX.length)) : undefined),
  };
}

export type OwnerWebhooks = ReturnType<typeof createOwnerWebhooks>;
