// The data a website can ask for: each profile field, each claim topic and each verified
// field, the OIDC scope that carries it, and the words the consent page and the signed
// challenge use for it.
import type { ProfileFieldName } from '../profile/profile.js';
import { verifiedRequestsOf } from './verified_claims_request.js';
import { VERIFIED_CLAIM_NAMES, VERIFIED_CLAIMS, VERIFIED_FIELDS, VERIFIED_SCOPE, verifiedFieldName } from './verified_fields.js';

/** The claim topics as the field list reads them (src/domain/claims/claim_topics.ts gives them). */
export type TopicWords = {
  all: readonly { name: string; description: string }[];
  scopeOf(topic: { name: string; description: string }): string;
};

export type FieldDefinition = {
  name: string;
  scope: string;
  label: string;
  description: string;
  kind: 'profile' | 'claim' | 'verified' | 'credential';
  /** A credential's: the URI the signed text names for it (its type, `vct`). */
  resource?: string;
};

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

/** The one OIDC claim that carries every shared onchain claim (docs/integration.md, "Claims"). */
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

/** The fields of a browser login: every field, and the verified ones the consent page offers claim by claim. */
export function loginFields(topics: TopicWords): FieldDefinition[] {
  return [...allFields(topics), ...VERIFIED_FIELDS];
}

/** The engine's `claims` setting: which claims each scope releases. */
export function scopeClaims(topics: TopicWords): Record<string, string[]> {
  const claims: Record<string, string[]> = { openid: ['sub'] };
  for (const field of PROFILE_FIELDS) {
    claims[field.scope] = [...(claims[field.scope] ?? []), field.name];
  }
  for (const field of claimFields(topics)) claims[field.scope] = [ONCHAIN_CLAIMS];
  claims[VERIFIED_SCOPE] = [VERIFIED_CLAIMS];
  return claims;
}

/** `purpose`: why the website says it asks (the drafts' member of a requested claim, 3 to 300 characters). */
export type RequestedField = FieldDefinition & { required: boolean; purpose?: string };

type ClaimOptions = { essential?: unknown; purpose?: unknown };

/** What a requested claim's options say: essential, and the purpose given (the first one wins). */
function noteOptions(name: string, options: unknown, named: Set<string>, essential: Set<string>, purposes: Map<string, string>) {
  named.add(name);
  if (!options || typeof options !== 'object') return;
  const { essential: isEssential, purpose } = options as ClaimOptions;
  if (isEssential === true) essential.add(name);
  if (typeof purpose === 'string' && !purposes.has(name)) purposes.set(name, purpose);
}

/**
 * The fields an authorization request asks for: every field of each requested scope, the
 * profile fields named in the `claims` parameter, and the verified fields named inside its
 * `verified_claims` (`claims: null` names them all); those marked essential are required.
 */
export function requestedFields(fields: readonly FieldDefinition[], scope: string, claimsParameter: unknown): RequestedField[] {
  const scopes = new Set(scope.split(' ').filter(Boolean));
  const essential = new Set<string>();
  const named = new Set<string>();
  const purposes = new Map<string, string>();
  if (claimsParameter && typeof claimsParameter === 'object') {
    for (const target of ['id_token', 'userinfo'] as const) {
      const requested = (claimsParameter as Record<string, unknown>)[target];
      if (!requested || typeof requested !== 'object') continue;
      for (const [name, options] of Object.entries(requested as Record<string, unknown>)) {
        if (name !== VERIFIED_CLAIMS) noteOptions(name, options, named, essential, purposes);
      }
    }
  }
  for (const request of verifiedRequestsOf(scope, claimsParameter)) {
    const asked = request.claims ?? Object.fromEntries(VERIFIED_CLAIM_NAMES.map((claim) => [claim, null]));
    for (const [claim, options] of Object.entries(asked)) noteOptions(verifiedFieldName(claim), options, named, essential, purposes);
  }
  return fields
    .filter(
      (field) =>
        ((field.kind === 'claim' || field.kind === 'credential') && scopes.has(field.scope)) ||
        (field.kind === 'profile' && (scopes.has(field.scope) || named.has(field.name))) ||
        (field.kind === 'verified' && named.has(field.name)),
    )
    .map((field) => {
      const purpose = purposes.get(field.name);
      return { ...field, required: essential.has(field.name), ...(purpose === undefined ? {} : { purpose }) };
    });
}
