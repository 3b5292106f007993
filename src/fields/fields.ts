// The data a website can ask for: each profile field and each claim topic, the OIDC scope
// that carries it, and the words the consent page and the signed challenge use for it.
import type { ProfileFieldName } from '../profile/profile.js';

/** The claim topics as the field list reads them (src/claims/claim_topics.ts gives them). */
export type TopicWords = {
  all: readonly { name: string; description: string }[];
  scopeOf(topic: { name: string; description: string }): string;
};

export type FieldDefinition = { name: string; scope: string; label: string; description: string; kind: 'profile' | 'claim' };

/** How each profile field is shared and worded; `satisfies` keeps it to the profile schema's keys, every one of them. */
const PROFILE_FIELD_WORDS = {
  given_name: { scope: 'profile', label: 'first name', description: 'Your first name' },
  family_name: { scope: 'profile', label: 'last name', description: 'Your last name' },
  website: { scope: 'profile', label: 'website', description: 'The address of your website' },
  email: { scope: 'email', label: 'email address', description: 'Your email address' },
  phone_number: { scope: 'phone', label: 'phone number', description: 'Your phone number' },
  address: { scope: 'address', label: 'postal address', description: 'Your postal address' },
} satisfies Record<ProfileFieldName, Omit<FieldDefinition, 'name' | 'kind'>>;

export type ProfileFieldDefinition = FieldDefinition & { name: ProfileFieldName; kind: 'profile' };

/** The profile fields, in the order the consent page lists them. */
export const PROFILE_FIELDS: readonly ProfileFieldDefinition[] = (Object.keys(PROFILE_FIELD_WORDS) as ProfileFieldName[]).map((name) => ({
  name,
  kind: 'profile',
  ...PROFILE_FIELD_WORDS[name],
}));

/** The one OIDC claim that carries every shared onchain claim (see README, "Claims"). */
export const ONCHAIN_CLAIMS = 'onchain_claims';

export function claimFields(topics: TopicWords): FieldDefinition[] {
  return topics.all.map((topic) => ({
    name: topics.scopeOf(topic),
    scope: topics.scopeOf(topic),
    label: `${topic.name} claim`,
    description: topic.description,
    kind: 'claim',
  }));
}

export function allFields(topics: TopicWords): FieldDefinition[] {
  return [...PROFILE_FIELDS, ...claimFields(topics)];
}

/** The engine's `claims` setting: which claims each scope releases. */
export function scopeClaims(topics: TopicWords): Record<string, string[]> {
  const claims: Record<string, string[]> = { openid: ['sub'] };
  for (const field of PROFILE_FIELDS) {
    claims[field.scope] = [...(claims[field.scope] ?? []), field.name];
  }
  for (const field of claimFields(topics)) claims[field.scope] = [ONCHAIN_CLAIMS];
  return claims;
}

export type RequestedField = FieldDefinition & { required: boolean };

/**
 * The fields an authorization request asks for: every field of each requested scope, plus
 * the profile fields named in the `claims` parameter; those marked essential there are required.
 */
export function requestedFields(fields: readonly FieldDefinition[], scope: string, claimsParameter: unknown): RequestedField[] {
  const scopes = new Set(scope.split(' ').filter(Boolean));
  const essential = new Set<string>();
  const named = new Set<string>();
  if (claimsParameter && typeof claimsParameter === 'object') {
    for (const target of ['id_token', 'userinfo'] as const) {
      const requested = (claimsParameter as Record<string, unknown>)[target];
      if (!requested || typeof requested !== 'object') continue;
      for (const [name, options] of Object.entries(requested as Record<string, unknown>)) {
        named.add(name);
        if (options && typeof options === 'object' && (options as { essential?: unknown }).essential === true) essential.add(name);
      }
    }
  }
  return fields
    .filter((field) => scopes.has(field.scope) || (field.kind === 'profile' && named.has(field.name)))
    .map((field) => ({ ...field, required: essential.has(field.name) }));
}
