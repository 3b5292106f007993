// The data a website can ask for: each field, the OIDC scope that carries it, and the words
// the consent page and the signed challenge use for it.

export type FieldDefinition = { name: string; scope: string; label: string; description: string };

export const PROFILE_FIELDS: readonly FieldDefinition[] = [
  { name: 'given_name', scope: 'profile', label: 'first name', description: 'Your first name' },
  { name: 'family_name', scope: 'profile', label: 'last name', description: 'Your last name' },
  { name: 'website', scope: 'profile', label: 'website', description: 'The address of your website' },
  { name: 'email', scope: 'email', label: 'email address', description: 'Your email address' },
  { name: 'phone_number', scope: 'phone', label: 'phone number', description: 'Your phone number' },
  { name: 'address', scope: 'address', label: 'postal address', description: 'Your postal address' },
];

const byName = new Map(PROFILE_FIELDS.map((field) => [field.name, field]));

export function fieldNamed(name: string): FieldDefinition | undefined {
  return byName.get(name);
}

/** The engine's `claims` setting: which claims each scope releases. */
export function scopeClaims(): Record<string, string[]> {
  const claims: Record<string, string[]> = { openid: ['sub'] };
  for (const field of PROFILE_FIELDS) {
    claims[field.scope] = [...(claims[field.scope] ?? []), field.name];
  }
  return claims;
}

export type RequestedField = FieldDefinition & { required: boolean };

/**
 * The fields an authorization request asks for: every field of each requested scope, plus
 * the fields named in the `claims` parameter; those marked essential there are required.
 */
export function requestedFields(scope: string, claimsParameter: unknown): RequestedField[] {
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
  return PROFILE_FIELDS.filter((field) => scopes.has(field.scope) || named.has(field.name)).map((field) => ({
    ...field,
    required: essential.has(field.name),
  }));
}
