// The one list of a postal address's parts: OpenID Connect's `address` claim (Core 1.0, 5.1.1),
// and the `country_code` OpenID Identity Assurance adds. Two schemas hold an address, each keyed
// by these names (the compiler refuses any other) and each reading them its own way:
// - the owner's profile (domain/profile/profile.ts), typed on the profile form: five parts, each
//   bounded in length; no `formatted` text (Signet composes none) and no `country_code`;
// - a verified claim's address (domain/verified_claims/verified_claims_schema.ts), written by a
//   claim issuer: every part, any length, `country_code` an ISO 3166-1 code.

export const POSTAL_ADDRESS_PARTS = ['formatted', 'street_address', 'locality', 'region', 'postal_code', 'country', 'country_code'] as const;

export type PostalAddressPart = (typeof POSTAL_ADDRESS_PARTS)[number];

/** An address schema's members, each one of the parts above (`satisfies PostalAddressShape<…>`). */
export type PostalAddressShape<Schema> = Partial<Record<PostalAddressPart, Schema>>;
