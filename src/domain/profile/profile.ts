// The basic information Signet holds about an identity as Information Provider, and where
// it lives in the store.
import type { Address } from 'viem';
import { z } from 'zod';
import { keptAnswers } from '../../base/kept_answers.js';
import { PHONE_NUMBER_RULES } from '../../base/phone_number.js';
import type { PostalAddressShape } from '../../base/postal_address.js';
import { isWebUrl, WEB_URL_RULE } from '../../base/web_url.js';
import { keys } from '../../infra/store/keys.js';
import { createGetsAhead, type ReadToSend } from '../../infra/store/read_ahead.js';
import type { Store } from '../../infra/store/store.js';

/** The owner's postal address, as the profile form takes it (base/postal_address.ts). */
export const addressSchema = z.object({
  street_address: z.string().max(200).optional(),
  locality: z.string().max(100).optional(),
  region: z.string().max(100).optional(),
  postal_code: z.string().max(20).optional(),
  country: z.string().max(100).optional(),
} satisfies PostalAddressShape<z.ZodType>);

export const profileSchema = z.object({
  given_name: z.string().min(1).max(100).optional(),
  family_name: z.string().min(1).max(100).optional(),
  email: z.email().optional(),
  phone_number: z.string().regex(PHONE_NUMBER_RULES.phone_number.pattern, PHONE_NUMBER_RULES.phone_number.refusal).optional(),
  address: addressSchema.optional(),
  website: z.string().refine(isWebUrl, { error: WEB_URL_RULE }).optional(),
});

export type Profile = z.infer<typeof profileSchema>;

/** The names of the profile's fields: its schema's keys, the one list (fields/fields.ts words each of them). */
export type ProfileFieldName = keyof Profile;
/** The parts of the postal address, each its own input on the profile form. */
export const ADDRESS_PARTS = addressSchema.keyof().options;
export type AddressPart = (typeof ADDRESS_PARTS)[number];

export type ProfileStore = {
  get(identity: Address): Promise<Profile>;
  /**
   * The profile as stored, or undefined when none is: one that was saved (even empty) was saved
   * by the identity's signed-in owner, so the identity is known without asking the chain.
   */
  find(identity: Address): Promise<Profile | undefined>;
  /**
   * The profile's read, to send now with the other reads of that moment, for the `get` that
   * follows shortly (the engine found a token of this identity: its claims come next).
   */
  readAhead(identity: Address): ReadToSend;
  set(identity: Address, profile: Profile): Promise<void>;
};

function deepFreeze(profile: Profile): Readonly<Profile> {
  if (profile.address) Object.freeze(profile.address);
  return Object.freeze(profile);
}

/**
 * A profile as stored. A website saved before the URL rule (decision 71) that breaks it, a
 * `javascript:` URL say, reads as absent: never released, and the profile page shows it empty.
 */
const storedProfileSchema = profileSchema
  .extend({ website: z.unknown().optional() })
  .transform(({ website, ...rest }): Profile => (isWebUrl(website) ? { ...rest, website } : rest));

// Userinfo and the ID token read the profile at every request, and it changes rarely: the
// checked answers for the texts read last are kept (the text is the key, so a changed profile
// is parsed anew), frozen, as every reader gets the same object.
const parseStored = keptAnswers(2048, (raw) => deepFreeze(storedProfileSchema.parse(JSON.parse(raw))));

/** A profile as stored (JSON, or nothing: an empty profile). */
export function parseProfile(raw: string | undefined | null): Readonly<Profile> {
  return raw ? parseStored(raw) : {};
}

/** identityKey: how keys name an identity of the profiles' chain (src/infra/chain/chains.ts). */
export function createProfileStore(store: Store, identityKey: (identity: Address) => string = (identity) => identity): ProfileStore {
  const keyOf = (identity: Address) => keys.profile(identityKey(identity));
  const reads = createGetsAhead(store);
  return {
    get: (identity) => reads.get(keyOf(identity)).then(parseProfile),
    async find(identity) {
      const raw = await reads.get(keyOf(identity));
      return raw === undefined ? undefined : parseProfile(raw);
    },
    readAhead: (identity) => reads.toSend(keyOf(identity)),
    async set(identity, profile) {
      const key = keyOf(identity);
      reads.drop(key);
      await store.set(key, JSON.stringify(profileSchema.parse(profile)));
    },
  };
}
