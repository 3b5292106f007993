// The answer to one `verified_claims` request element from one claim's verified data, as
// OpenID Connect for Identity Assurance says: the `verification` members the website asked
// for (trust_framework always), filtered by its `value`, `values` and `max_age`; evidence
// entries matching one of its evidence filters (a logical OR), shaped by that filter; and the
// requested claims the owner kept. A requirement on the verification that the data does not
// meet omits the whole element; one on a claim omits that claim. No element without a claim:
// the owner signed for claims, not for the bare fact of a check.
import { DATE_SHAPE } from '../../base/dates.js';
import { isObject, type VerifiedRequest } from '../fields/verified_claims_request.js';
import { isVerifiedClaimName } from '../fields/verified_fields.js';
import type { VerifiedClaimsElement } from './verified_claims_schema.js';

/** The members of a request object that ask for a value rather than name sub-elements. */
const LEAF_MEMBERS = new Set(['essential', 'value', 'values', 'max_age', 'purpose']);

type Outcome = { kind: 'ok'; value: unknown } | { kind: 'missing' } | { kind: 'unmet' };

const MISSING: Outcome = { kind: 'missing' };
const UNMET: Outcome = { kind: 'unmet' };

const isLeaf = (request: unknown) => request === null || (isObject(request) && Object.keys(request).every((key) => LEAF_MEMBERS.has(key)));

/** Whether a request (or anything inside it) restricts values: then missing data does not meet it. */
function constrains(request: unknown): boolean {
  if (Array.isArray(request)) return request.some(constrains);
  if (!isObject(request)) return false;
  if (isLeaf(request)) return 'value' in request || 'values' in request || 'max_age' in request;
  return Object.values(request).some(constrains);
}

/** The last second a date or time stands for: a date counts to its end (the standard's "last valid second"). */
function lastSecondOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const at = Date.parse(DATE_SHAPE.test(value) ? `${value}T23:59:59Z` : value);
  return Number.isNaN(at) ? undefined : at;
}

function meets(actual: unknown, leaf: Record<string, unknown> | null, now: number): boolean {
  if (leaf === null) return true;
  if ('value' in leaf && actual !== leaf.value) return false;
  if ('values' in leaf && !(Array.isArray(leaf.values) && leaf.values.includes(actual))) return false;
  if ('max_age' in leaf) {
    const at = lastSecondOf(actual);
    if (typeof leaf.max_age !== 'number' || at === undefined || (now - at) / 1000 > leaf.max_age) return false;
  }
  return true;
}

/** The part of `actual` a request names, or why there is none. */
function project(actual: unknown, request: unknown, now: number): Outcome {
  if (isLeaf(request)) {
    if (actual === undefined) return constrains(request) ? UNMET : MISSING;
    return meets(actual, request as Record<string, unknown> | null, now) ? { kind: 'ok', value: actual } : UNMET;
  }
  if (Array.isArray(request)) {
    // Filters over the entries of a list (evidence, check_details): each entry is shaped by the first filter it meets.
    if (!Array.isArray(actual)) return constrains(request) ? UNMET : MISSING;
    const matched = actual.flatMap((entry) => {
      for (const filter of request) {
        const outcome = project(entry, filter, now);
        if (outcome.kind === 'ok') return [outcome.value];
      }
      return [];
    });
    if (matched.length === 0) return constrains(request) ? UNMET : MISSING;
    return { kind: 'ok', value: matched };
  }
  if (!isObject(actual)) return constrains(request) ? UNMET : MISSING;
  const shown: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(request as Record<string, unknown>)) {
    const outcome = project(actual[key], inner, now);
    if (outcome.kind === 'unmet') return UNMET;
    if (outcome.kind === 'ok') shown[key] = outcome.value;
  }
  return { kind: 'ok', value: shown };
}

/**
 * The element answering `request` from one claim's verified data (`element`, with Signet's
 * evidence already in it), releasing only the claims in `kept`; undefined when the data does
 * not meet the request or nothing kept is asked for.
 */
export function answerRequest(
  element: VerifiedClaimsElement,
  request: VerifiedRequest,
  kept: ReadonlySet<string>,
  now: number,
): VerifiedClaimsElement | undefined {
  const verification = project(element.verification, request.verification, now);
  if (verification.kind === 'unmet') return undefined;
  const asked = request.claims ?? Object.fromEntries(Object.keys(element.claims).map((name) => [name, null]));
  const claims: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(asked)) {
    if (!isVerifiedClaimName(name) || !kept.has(name)) continue;
    const outcome = project(element.claims[name], inner, now);
    if (outcome.kind === 'ok') claims[name] = outcome.value;
  }
  if (Object.keys(claims).length === 0) return undefined;
  const shown = verification.kind === 'ok' ? (verification.value as Record<string, unknown>) : {};
  return {
    verification: { ...shown, trust_framework: element.verification.trust_framework },
    claims,
  } as VerifiedClaimsElement;
}

/** The claims of `element` some request could release: what the owner is offered on the consent page. */
export function offeredClaims(element: VerifiedClaimsElement, requests: readonly VerifiedRequest[], now: number): string[] {
  const every = new Set(Object.keys(element.claims));
  const offered = new Set<string>();
  for (const request of requests) {
    for (const name of Object.keys(answerRequest(element, request, every, now)?.claims ?? {})) offered.add(name);
  }
  return [...offered];
}
