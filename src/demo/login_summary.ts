// What the demo website learnt from a login, in words: who logged in, the fields shared, the
// claims with their issuer and validity, the verified claims with who verified them under
// which rules, and what `sub` is; the raw JSON stays folded below.
import type { DisplayNames } from '../domain/claims/display_names.js';
import { ONCHAIN_CLAIMS, PROFILE_FIELDS } from '../domain/fields/fields.js';
import { isVerifiedClaimName, VERIFIED_CLAIMS, verifiedClaimLabel } from '../domain/fields/verified_fields.js';
import { ONCHAIN_RECORD_TYPE } from '../domain/verified_claims/onchain_evidence.js';

export type LoginSummary = {
  name: string | null;
  subject: string;
  chainId: string;
  identity: string;
  fields: { label: string; value: string }[];
  claims: { topic: string; issuer: string | null; issuerAddress: string; validity: string; data: { key: string; value: string }[] }[];
  claimsAsked: boolean;
  /** Each verified_claims element: who verified (the onchain evidence's source), under which rules, when, and what. */
  verified: { issuer: string | null; trustFramework: string; time: string | null; fields: { label: string; value: string }[] }[];
};

type VerifiedElement = {
  verification?: { trust_framework?: string; time?: string; evidence?: { type?: string; record?: { type?: string; source?: { name?: string } } }[] };
  claims?: Record<string, unknown>;
};

type SharedClaim = {
  topic_name?: string | null;
  topic?: number;
  issuer?: string;
  valid?: boolean;
  status?: string;
  expires_at?: string | null;
  data?: Record<string, unknown>;
};

const VALIDITY: Record<string, string> = {
  untrusted_issuer: 'not valid: its issuer is not trusted',
  not_confirmed_by_issuer: 'not valid: revoked by its issuer',
  expired: 'not valid: expired',
};

const words = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    return Object.values(value as Record<string, unknown>)
      .map(words)
      .filter(Boolean)
      .join(', ');
  }
  return String(value);
};

export function summarizeLogin(userinfo: Record<string, unknown>, names: DisplayNames): LoginSummary {
  const subject = String(userinfo.sub);
  const [, chainId = '', identity = ''] = subject.split(':');
  const fields = PROFILE_FIELDS.filter((field) => userinfo[field.name] !== undefined).map((field) => ({
    label: field.label[0]!.toUpperCase() + field.label.slice(1),
    value: words(userinfo[field.name]),
  }));
  const shared = Array.isArray(userinfo[ONCHAIN_CLAIMS]) ? (userinfo[ONCHAIN_CLAIMS] as SharedClaim[]) : [];
  const elements = [userinfo[VERIFIED_CLAIMS] ?? []].flat() as VerifiedElement[];
  const verified = elements.map((element) => {
    const onchain = element.verification?.evidence?.find((evidence) => evidence.record?.type === ONCHAIN_RECORD_TYPE);
    return {
      issuer: onchain?.record?.source?.name ?? null,
      trustFramework: names.trustFramework(element.verification?.trust_framework ?? ''),
      time: element.verification?.time?.slice(0, 10) ?? null,
      fields: Object.entries(element.claims ?? {}).map(([name, value]) => {
        const label = isVerifiedClaimName(name) ? verifiedClaimLabel(name) : name.replaceAll('_', ' ');
        return { label: label[0]!.toUpperCase() + label.slice(1), value: words(value) };
      }),
    };
  });
  const claims = shared.map((claim) => ({
    topic: claim.topic_name ? names.topic(claim.topic_name) : `topic ${claim.topic}`,
    issuer: claim.issuer ? (names.issuer(claim.issuer) ?? null) : null,
    issuerAddress: claim.issuer ?? '',
    validity: claim.valid
      ? `valid${claim.expires_at ? ` until ${claim.expires_at.slice(0, 10)}` : ', no expiry'}`
      : (VALIDITY[claim.status ?? ''] ?? 'not valid'),
    // Verified data is summed up apart, as the website received it in verified_claims.
    data: Object.entries(claim.data ?? {})
      .filter(([key]) => key !== VERIFIED_CLAIMS)
      .map(([key, value]) => ({ key: key.replaceAll('_', ' '), value: words(value) })),
  }));
  const name = [userinfo.given_name, userinfo.family_name].filter((part) => typeof part === 'string').join(' ');
  return { name: name || null, subject, chainId, identity, fields, claims, claimsAsked: ONCHAIN_CLAIMS in userinfo, verified };
}
