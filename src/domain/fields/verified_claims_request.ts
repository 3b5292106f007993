// How a website asks for verified claims (OpenID Connect for Identity Assurance): a
// `verified_claims` member of the `claims` parameter, for the ID token or userinfo, one object
// or a list of them, each `{ verification: {…}, claims: {…} }`; or the `verified_claims` scope,
// which stands for a predefined request. Also the checks of the claims parameter that the
// engine runs before anything else: a malformed request is `invalid_request`.
import { VERIFIED_CLAIMS, VERIFIED_SCOPE, VERIFIED_SCOPE_CLAIMS } from './verified_fields.js';

/** One request element: what of the verification and which claims the website wants. */
export type VerifiedRequest = { verification: Record<string, unknown>; claims: Record<string, unknown> | null };

export type ClaimsTarget = 'id_token' | 'userinfo';

/** The drafts' `purpose` on a requested claim: shown to the owner, 3 to 300 characters. */
export const PURPOSE_LENGTH = { min: 3, max: 300 } as const;

/** A JSON object (not null, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request the `verified_claims` scope stands for: the trust framework, time and evidence of a verified name, date of birth and nationality. */
export const SCOPE_REQUEST: VerifiedRequest = {
  verification: { trust_framework: null, assurance_level: null, time: null, evidence: null },
  claims: Object.fromEntries(VERIFIED_SCOPE_CLAIMS.map((claim) => [claim, null])),
};

/**
 * Where a list of request elements is kept once the engine has it: the engine passes on only
 * requested claims that are null or an object, so a list is wrapped in an object under this
 * member when the request arrives (listsWrapped) and unwrapped by verifiedRequestsIn.
 */
const WRAPPED_LIST = 'signet:elements';

/** The claims parameter with each `verified_claims` list wrapped for the engine, or undefined when it holds none. */
export function listsWrapped(claims: Record<string, unknown>): Record<string, unknown> | undefined {
  let wrapped: Record<string, unknown> | undefined;
  for (const target of ['id_token', 'userinfo'] as const) {
    const requested = claims[target];
    if (!isObject(requested) || !Array.isArray(requested[VERIFIED_CLAIMS])) continue;
    wrapped ??= { ...claims };
    wrapped[target] = { ...requested, [VERIFIED_CLAIMS]: { [WRAPPED_LIST]: requested[VERIFIED_CLAIMS] } };
  }
  return wrapped;
}

/** The request elements of one target of the claims parameter (`claims.userinfo`, say). */
export function verifiedRequestsIn(target: unknown): VerifiedRequest[] {
  if (!isObject(target)) return [];
  const raw = target[VERIFIED_CLAIMS];
  const asked = isObject(raw) && Array.isArray(raw[WRAPPED_LIST]) ? raw[WRAPPED_LIST] : raw;
  const elements = Array.isArray(asked) ? asked : asked === undefined ? [] : [asked];
  return elements.filter(
    (element): element is VerifiedRequest => isObject(element) && isObject(element.verification) && (element.claims === null || isObject(element.claims)),
  );
}

/** Every request element of an authorization request: both targets of the claims parameter, then the scope's. */
export function verifiedRequestsOf(scope: string, claimsParameter: unknown): VerifiedRequest[] {
  const fromParameter = isObject(claimsParameter) ? [...verifiedRequestsIn(claimsParameter.id_token), ...verifiedRequestsIn(claimsParameter.userinfo)] : [];
  const byScope = scope.split(' ').includes(VERIFIED_SCOPE) ? [SCOPE_REQUEST] : [];
  return [...fromParameter, ...byScope];
}

/** The claims parameter as JSON, or undefined when there is none or it does not parse (the engine refuses those). */
export function parseClaimsParameter(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** Every `purpose` member anywhere inside a value, with where it is. */
function purposesIn(value: unknown, at: string, found: { at: string; purpose: unknown }[]): void {
  if (Array.isArray(value)) {
    for (const [i, inner] of value.entries()) purposesIn(inner, `${at}.${i}`, found);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'purpose') found.push({ at: `${at}.purpose`, purpose: inner });
    else purposesIn(inner, `${at}.${key}`, found);
  }
}

const characters = (text: string) => [...text].length;

/** Whether a purpose may be shown: a string of 3 to 300 characters. */
export function purposeProblem(purpose: unknown, at: string): string | undefined {
  if (typeof purpose !== 'string') return `${at} must be a string`;
  const length = characters(purpose);
  if (length < PURPOSE_LENGTH.min || length > PURPOSE_LENGTH.max) {
    return `${at} must be ${PURPOSE_LENGTH.min} to ${PURPOSE_LENGTH.max} characters long (it has ${length})`;
  }
  return undefined;
}

function verifiedClaimsProblem(asked: unknown, at: string): string | undefined {
  const elements = Array.isArray(asked) ? asked : [asked];
  if (elements.length === 0) return `${at} must not be an empty list`;
  for (const [i, element] of elements.entries()) {
    const where = Array.isArray(asked) ? `${at}.${i}` : at;
    if (!isObject(element)) return `${where} must be an object with "verification" and "claims"`;
    if (!isObject(element.verification)) return `${where}.verification must be an object`;
    if (!('claims' in element) || (element.claims !== null && !isObject(element.claims))) return `${where}.claims must be null or an object`;
    if (isObject(element.claims) && Object.keys(element.claims).length === 0) return `${where}.claims must name at least one claim`;
    const evidence = element.verification.evidence;
    if (evidence !== undefined && evidence !== null && (!Array.isArray(evidence) || evidence.length === 0 || !evidence.every(isObject))) {
      return `${where}.verification.evidence must be a list of objects`;
    }
  }
  return undefined;
}

/**
 * The first problem of a claims parameter, in words, or undefined. Each requested claim is null
 * or an object (as OpenID Connect says), `verified_claims` has the standard's shape, and every
 * `purpose` is 3 to 300 characters.
 */
export function claimsParameterProblem(claims: Record<string, unknown>): string | undefined {
  for (const target of ['id_token', 'userinfo'] as const) {
    const requested = claims[target];
    if (requested === undefined) continue;
    if (!isObject(requested)) return `claims.${target} must be an object`;
    for (const [name, value] of Object.entries(requested)) {
      if (value !== null && !isObject(value) && !(name === VERIFIED_CLAIMS && Array.isArray(value))) {
        return `claims.${target}.${name} must be null or an object`;
      }
    }
    if (requested[VERIFIED_CLAIMS] !== undefined) {
      const problem = verifiedClaimsProblem(requested[VERIFIED_CLAIMS], `claims.${target}.${VERIFIED_CLAIMS}`);
      if (problem) return problem;
    }
    const purposes: { at: string; purpose: unknown }[] = [];
    purposesIn(requested, `claims.${target}`, purposes);
    for (const { at, purpose } of purposes) {
      const problem = purposeProblem(purpose, at);
      if (problem) return problem;
    }
  }
  return undefined;
}
