// The verified fields a website may ask for: the claims about a person that a claim issuer
// verified and Signet releases inside `verified_claims` (OpenID Connect for Identity
// Assurance), with their words for the consent page and the signed text. They are apart from
// the profile's fields of the same name: a name the owner typed is never a verified name.
/** The OIDC claim, and the scope asking for the predefined set below (docs/verified-claims.md). */
export const VERIFIED_CLAIMS = 'verified_claims';
export const VERIFIED_SCOPE = 'verified_claims';

/** A verified field's name: `verified:<claim>` (verified:birthdate). */
export const VERIFIED_FIELD_PREFIX = 'verified:';

/** Each claim Signet releases verified (discovery's claims_in_verified_claims_supported), in words. */
const VERIFIED_CLAIM_WORDS = {
  given_name: 'first name',
  middle_name: 'middle name',
  family_name: 'last name',
  name: 'full name',
  birthdate: 'date of birth',
  place_of_birth: 'place of birth',
  nationalities: 'nationality',
  address: 'postal address',
  birth_given_name: 'first name at birth',
  birth_middle_name: 'middle name at birth',
  birth_family_name: 'last name at birth',
  also_known_as: 'other name',
  salutation: 'salutation',
  title: 'title',
} as const;

export type VerifiedClaimName = keyof typeof VERIFIED_CLAIM_WORDS;

export const VERIFIED_CLAIM_NAMES = Object.keys(VERIFIED_CLAIM_WORDS) as VerifiedClaimName[];

export const isVerifiedClaimName = (name: string): name is VerifiedClaimName => Object.hasOwn(VERIFIED_CLAIM_WORDS, name);

/** What the `verified_claims` scope asks for: a KYC-verified name, date of birth and nationality. */
export const VERIFIED_SCOPE_CLAIMS: readonly VerifiedClaimName[] = ['given_name', 'family_name', 'birthdate', 'nationalities'];

/** A field of fields.ts (FieldDefinition) that names a verified claim. */
export type VerifiedFieldDefinition = { name: string; scope: string; label: string; description: string; kind: 'verified'; claim: VerifiedClaimName };

export const verifiedFieldName = (claim: string) => `${VERIFIED_FIELD_PREFIX}${claim}`;

export function verifiedClaimOf(fieldName: string): VerifiedClaimName | undefined {
  if (!fieldName.startsWith(VERIFIED_FIELD_PREFIX)) return undefined;
  const claim = fieldName.slice(VERIFIED_FIELD_PREFIX.length);
  return isVerifiedClaimName(claim) ? claim : undefined;
}

/** The words of a verified claim: "date of birth". */
export const verifiedClaimLabel = (claim: VerifiedClaimName) => VERIFIED_CLAIM_WORDS[claim];

/** The verified fields, in the order the consent page lists them. */
export const VERIFIED_FIELDS: readonly VerifiedFieldDefinition[] = VERIFIED_CLAIM_NAMES.map((claim) => ({
  name: verifiedFieldName(claim),
  scope: VERIFIED_SCOPE,
  label: `verified ${VERIFIED_CLAIM_WORDS[claim]}`,
  description: `Your ${VERIFIED_CLAIM_WORDS[claim]}, as a claim issuer verified it`,
  kind: 'verified',
  claim,
}));

/** What the owner keeps of one claim's verified data: the claim, and the verified claims released from it. */
export type VerifiedPick = { claim_id: string; claims: string[] };
