// The data fetched from a provider for one website's grant, kept encrypted no longer than that
// grant (decision 76): AES-256-GCM under a key derived from the provider's API key (which lives in
// the settings, never in Redis) and the grant's id, so a copy read from Redis alone says nothing,
// and serves that grant only. Each claim's entry says when the provider last answered for it;
// one older than PROVIDER_RECHECK_SECONDS is read again before it is released.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import type { DataStatus } from '../claims/data_status.js';
import type { InformationProviders } from './information_providers.js';

/** One claim's entry: its data sealed, or why there is none; the onchain hash it was checked against; when. */
export type CopyEntry = {
  provider: string;
  data_hash: string;
  checked_at: number;
  status?: DataStatus;
  sealed?: { iv: string; data: string; tag: string };
};

export type GrantCopy = { expires_at: number; claims: Record<string, CopyEntry> };

export type ProviderCopies = {
  find(grantId: string): Promise<GrantCopy | undefined>;
  /** Writes the copy until its grant's end (never longer). */
  save(grantId: string, copy: GrantCopy): Promise<void>;
  seal(grantId: string, claimId: string, provider: string, data: Record<string, unknown>): CopyEntry['sealed'];
  /** The data, or undefined when it cannot be opened (the provider's API key changed): read again. */
  open(grantId: string, claimId: string, entry: CopyEntry): Record<string, unknown> | undefined;
  forget(grantId: string): Promise<void>;
};

export function createProviderCopies(deps: { store: Store; providers: InformationProviders; now: () => number }): ProviderCopies {
  const keyOf = (grantId: string, provider: string) => {
    const apiKey = deps.providers.byName(provider)?.apiKey;
    if (!apiKey) return undefined;
    return Buffer.from(hkdfSync('sha256', apiKey, grantId, 'signet provider data', 32));
  };
  const aad = (grantId: string, claimId: string) => Buffer.from(`${grantId}:${claimId.toLowerCase()}`);
  return {
    async find(grantId) {
      const raw = await deps.store.get(keys.providerData(grantId));
      return raw ? (JSON.parse(raw) as GrantCopy) : undefined;
    },
    async save(grantId, copy) {
      const seconds = Math.ceil((copy.expires_at - deps.now()) / 1000);
      if (seconds > 0) await deps.store.set(keys.providerData(grantId), JSON.stringify(copy), seconds);
    },
    seal(grantId, claimId, provider, data) {
      const key = keyOf(grantId, provider);
      if (!key) return undefined;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(grantId, claimId));
      const sealed = Buffer.concat([cipher.update(JSON.stringify(data), 'utf8'), cipher.final()]);
      return { iv: iv.toString('base64url'), data: sealed.toString('base64url'), tag: cipher.getAuthTag().toString('base64url') };
    },
    open(grantId, claimId, entry) {
      const key = entry.sealed && keyOf(grantId, entry.provider);
      if (!key || !entry.sealed) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(entry.sealed.iv, 'base64url')).setAAD(aad(grantId, claimId));
        decipher.setAuthTag(Buffer.from(entry.sealed.tag, 'base64url'));
        const plain = Buffer.concat([decipher.update(Buffer.from(entry.sealed.data, 'base64url')), decipher.final()]);
        return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    },
    forget: (grantId) => deps.store.delete(keys.providerData(grantId)),
  };
}
