// Signet as the client of another Information Provider's access-grant protocol: the access
// request on a claim's resource, the validation with the owner's signature, the read with the
// API key that provider issued to this Signet. Every request goes through the one outbound
// guard (the provider's configured origin is trusted, as the operator's; any other URL is checked
// before anything connects), under the caller's deadline, and every answer is read up to
// MAX_ANSWER_BYTES. A read's redirect is followed only within the provider's origin (the API key
// is the provider's alone); any other is refused, never connected to. An answer about another identity,
// another claim or another resource is refused, never taken for the one asked.
import type { Address, Hex } from 'viem';
import { BYTES32_PATTERN } from '../../base/hex_text.js';
import { bodyUpTo } from '../../infra/outbound/bounded_body.js';
import type { GuardedFetch } from '../../infra/outbound/guarded_fetch.js';
import { hashClaimDocument } from '../claims/claim_document.js';
import { isObject } from '../fields/verified_claims_request.js';
import type { InformationProvider } from './information_providers.js';
import { ProviderFault } from './provider_fault.js';

/** The largest answer read from a provider: a claim's data is at most 16 KiB as canonical JSON (CLAIM_DATA_LIMITS). */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** What one request is about: a provider, the claim's resource there, the owner's identity and the claim. */
export type HeldClaim = { provider: InformationProvider; resource: string; identity: Address; claimId: Hex; dataHash: Hex };

export type PendingAccess = { grantId: string; challenge: string };

/** What each request did, for the metrics: the provider's name, the step and how it ended (never data or the key). */
export type ProviderRequestEvent = { provider: string; step: 'access_request' | 'validation' | 'read' | 'revocation'; outcome: string };

export type ProviderClient = {
  /** POST <resource>/access-requests: a pending persistent grant and the challenge the owner signs. */
  requestAccess(claim: HeldClaim, signal: AbortSignal): Promise<PendingAccess>;
  /** POST /access-grants/<id>/validations with the owner's signature: the grant is active. */
  validate(claim: HeldClaim, grantId: string, signature: string, wallet: Address, signal: AbortSignal): Promise<void>;
  /** GET <resource> with the API key: the claim's data, checked against the onchain hash. */
  read(claim: HeldClaim, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** POST /access-grants/<id>/revocations with the API key: Signet gives its grant up (the owner's erasure). */
  revoke(provider: InformationProvider, grantId: string, signal: AbortSignal): Promise<void>;
};

type Answer = { status: number; json: unknown };

const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
const GRANT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;

/** The body, read until MAX_ANSWER_BYTES and no further. */
async function boundedText(response: Response): Promise<string> {
  const bytes = await bodyUpTo(response, MAX_ANSWER_BYTES);
  if (!bytes) throw new ProviderFault('provider_answer_invalid', `the provider's answer is larger than ${MAX_ANSWER_BYTES} bytes`);
  return Buffer.from(bytes).toString('utf8');
}

/** The provider's reason of a refusal (its `reason` member), if it gave one. */
const reasonOf = (answer: Answer) => (isObject(answer.json) && typeof answer.json.reason === 'string' ? answer.json.reason : undefined);

/** Refusals that say the grant Signet holds (or asked for) does not stand. */
const GRANT_GONE = new Set([
  'grant_missing',
  'grant_not_active',
  'grant_not_found',
  'grant_expired',
  'grant_not_pending',
  'signature_invalid',
  'wallet_not_linked',
]);

function refusalOf(answer: Answer, what: string): ProviderFault {
  if (answer.status >= 500 || answer.status === 429) return new ProviderFault('provider_unavailable', `the provider answered ${answer.status} to ${what}`);
  const reason = reasonOf(answer);
  if (reason && GRANT_GONE.has(reason)) return new ProviderFault('provider_grant_missing', `the provider refused ${what}: ${reason}`);
  return new ProviderFault('provider_answer_invalid', `the provider answered ${answer.status} to ${what}`);
}

/** Whether the answered document hashes, with its salt, to the claim's onchain data hash (docs/integration.md). */
export function matchesOnchainHash(body: Record<string, unknown>, dataHash: Hex): boolean {
  const { data, salt, expires_at: expiresAt, chain_id: chainId } = body;
  if (!isObject(data) || typeof salt !== 'string' || !BYTES32_PATTERN.test(salt)) return false;
  if (expiresAt !== null && typeof expiresAt !== 'string') return false;
  if (chainId !== undefined && typeof chainId !== 'number') return false;
  const document = { data, expires_at: expiresAt, ...(chainId === undefined ? {} : { chain_id: chainId }) };
  try {
    return hashClaimDocument(document, salt as Hex).toLowerCase() === dataHash.toLowerCase();
  } catch {
    return false; // nested past what the canonical form writes
  }
}

export function createProviderClient(deps: { fetch: GuardedFetch; onRequest?: (event: ProviderRequestEvent) => void }): ProviderClient {
  /**
   * One request through the guarded fetch, following a read's redirects by hand within the
   * provider's origin only: the API key goes to the provider and nowhere else, so a redirect to
   * another origin (whatever the address check would say of it) is not followed.
   */
  const fetchWithinOrigin = async (provider: InformationProvider, url: string, init: RequestInit): Promise<Response> => {
    const origin = new URL(provider.url).origin;
    let next = url;
    for (let hops = 0; ; hops++) {
      const response = await deps.fetch(next, { ...init, redirect: 'manual' });
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || !location) return response;
      await response.body?.cancel().catch(() => {});
      const target = URL.parse(location, next);
      if (init.method !== 'GET' || hops >= MAX_REDIRECTS || target?.origin !== origin) {
        throw new ProviderFault('provider_unavailable', 'the provider redirected elsewhere than its own origin, or too often: not followed');
      }
      next = target.href;
    }
  };

  const call = async (
    claim: Pick<HeldClaim, 'provider'>,
    step: ProviderRequestEvent['step'],
    url: string,
    init: { method: string; body?: unknown; signal: AbortSignal },
  ): Promise<Answer> => {
    let outcome = 'failed';
    try {
      const response = await fetchWithinOrigin(claim.provider, url, {
        method: init.method,
        headers: {
          accept: 'application/json',
          'x-api-key': claim.provider.apiKey,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: init.signal,
      });
      outcome = String(response.status);
      const text = await boundedText(response);
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        outcome = 'garbage';
        throw new ProviderFault('provider_answer_invalid', `the provider's answer to the ${step.replace('_', ' ')} is not JSON`);
      }
      return { status: response.status, json };
    } catch (error) {
      if (error instanceof ProviderFault) {
        if (outcome === 'failed') outcome = 'redirect_refused';
        else if (outcome !== 'garbage') outcome = 'too_large';
        throw error;
      }
      outcome = init.signal.aborted ? 'timeout' : 'failed';
      // Down, cut, past the deadline, or a redirect the guard refuses: the provider is not there for us.
      throw new ProviderFault('provider_unavailable', `the provider could not be read (${step}): ${(error as Error).message}`);
    } finally {
      deps.onRequest?.({ provider: claim.provider.name, step, outcome });
    }
  };

  return {
    async requestAccess(claim, signal) {
      const answer = await call(claim, 'access_request', `${claim.resource}/access-requests`, {
        method: 'POST',
        body: { kind: 'persistent', fields: ['data'] },
        signal,
      });
      if (answer.status !== 201) throw refusalOf(answer, 'the access request');
      const body = answer.json;
      if (!isObject(body) || typeof body.id !== 'string' || !GRANT_ID.test(body.id) || typeof body.challenge !== 'string') {
        throw new ProviderFault('provider_answer_invalid', 'the access request answered no grant id and challenge');
      }
      // The owner signs what names this very resource, nothing else.
      if (!body.challenge.toLowerCase().includes(`resource: ${claim.resource.toLowerCase()}`) || body.challenge.length > 4096) {
        throw new ProviderFault('provider_answer_invalid', "the provider's challenge does not name the claim's resource");
      }
      return { grantId: body.id, challenge: body.challenge };
    },

    async validate(claim, grantId, signature, wallet, signal) {
      const answer = await call(claim, 'validation', `${claim.provider.url}/access-grants/${grantId}/validations`, {
        method: 'POST',
        body: { signature, address: wallet },
        signal,
      });
      if (answer.status !== 200) throw refusalOf(answer, 'the validation');
      const grant = isObject(answer.json) && isObject(answer.json.grant) ? answer.json.grant : undefined;
      const resource = grant && typeof grant.resource === 'string' ? `${claim.provider.url}${grant.resource}` : '';
      if (grant?.status !== 'active' || !same(grant.identity, claim.identity) || !same(resource, claim.resource)) {
        throw new ProviderFault('provider_answer_invalid', 'the validation answered a grant of another identity or resource');
      }
    },

    async revoke(provider, grantId, signal) {
      if (!GRANT_ID.test(grantId)) return;
      const answer = await call({ provider }, 'revocation', `${provider.url}/access-grants/${grantId}/revocations`, { method: 'POST', body: {}, signal });
      // Revoked now, or already ended there (revoked, or gone): either way Signet holds it no more.
      if (answer.status === 200 || (answer.status >= 400 && answer.status < 500 && answer.status !== 429)) return;
      throw refusalOf(answer, 'the revocation');
    },

    async read(claim, signal) {
      const answer = await call(claim, 'read', claim.resource, { method: 'GET', signal });
      if (answer.status !== 200) throw refusalOf(answer, 'the read');
      const body = answer.json;
      if (!isObject(body) || !same(body.identity, claim.identity) || !same(body.claim_id, claim.claimId) || !isObject(body.data)) {
        throw new ProviderFault('provider_answer_invalid', 'the provider answered another identity, another claim, or no data');
      }
      if (!matchesOnchainHash(body, claim.dataHash)) {
        throw new ProviderFault('data_mismatch', "the provider's data does not hash to the claim's onchain data hash");
      }
      return body.data;
    },
  };
}
