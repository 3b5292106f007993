// Reads a shared resource for whoever asks: the public part for anyone; the private part for
// an OIDC access token whose login kept it (with its DPoP proof when the token is DPoP-bound),
// a grant's bearer token (an immediate grant serves exactly one read), or a service's X-API-Key
// holding an active persistent grant for it. At an address that is no identity, a credential
// the caller holds answers as the public read does: 404 identity_not_found, not "not covered".
import type Provider from 'oidc-provider';
import { refuse, SignetError } from '../../base/errors.js';
import type { Reason } from '../../base/reasons.js';
import type { ConsentReceipts } from '../../domain/consent/consent_receipts.js';
import type { DpopCheck, DpopPresentation } from '../../domain/dpop/dpop_proof.js';
import type { AccessHistory, Door } from '../../domain/history/access_history.js';
import { subjectOf } from '../../domain/identity/subject.js';
import type { HeldElsewhere } from '../../domain/providers/held_elsewhere.js';
import type { Chains } from '../../domain/chains/chains.js';
import { identityKeyOf } from '../../infra/chain/identity_key.js';
import type { ServiceAuth } from '../services/service_caller.js';
import type { AccessGrantStore } from './access_grant_store.js';
import type { AccessGrants } from './access_grants.js';
import { deadGrantToken } from './dead_grant_token.js';
import type { GrantResources, ResourceRef } from './grant_resource.js';

export type ResourceReaderDeps = {
  provider: Provider;
  /** The chain a resource names (none: the default chain). */
  chains: Pick<Chains, 'idOf'>;
  receipts: ConsentReceipts;
  grants: AccessGrantStore;
  accessGrants: AccessGrants;
  resources: GrantResources;
  services: ServiceAuth;
  /** Where each release (and each refusal of a grant's holder) is recorded for the owner. */
  history?: AccessHistory;
  /** Claim data other Information Providers hold, kept for a login's grant: released at the claim's resource as Signet's own. */
  heldElsewhere?: HeldElsewhere;
  /** The DPoP check of a login's access token, and whether its client must use server nonces. */
  checkDpop: DpopCheck;
  requiresDpopNonce: (clientId: string) => Promise<boolean>;
};

/** Who is reading, once the credential names them: the service and the grant it reads under. */
type Reader = { client_id: string; grant_id: string | null; door: Door };

const GRANT_TOKEN_PREFIX = 'sgt_';

/** What a read presents (checked in form by the route's caller step): an access token, an API key, or nothing. */
export type GrantCredential = { token?: DpopPresentation; apiKey?: string };

const insufficient = (what: string) => refuse('token_scope_insufficient', what);
const tokenInvalid = () => refuse('token_invalid', 'the access token is invalid, expired or revoked');

/**
 * A valid credential that covers nothing at this resource. Only then is the address asked about:
 * no grant is ever made for an address that is no identity, so a credential that covers the
 * resource needs no such check, and one that is not valid is refused for itself first.
 */
const NOT_COVERED: ReadonlySet<Reason> = new Set<Reason>(['token_scope_insufficient', 'grant_missing']);

/** The grant is of the resource's identity, on the resource's chain. */
const sameIdentity = (grant: { identity: string; chain_id?: number }, ref: ResourceRef) => grant.identity === ref.identity && grant.chain_id === ref.chainId;

/** Whose history a read goes to: another chain's identity is its own owner's, never the default chain's at that address. */
const historyOf = (ref: ResourceRef) => identityKeyOf(ref.identity, ref.chainId);

export function createResourceReader(deps: ResourceReaderDeps) {
  /**
   * A grant's bearer token: the grant must be active and for this very resource. A dead token
   * (unknown or expired, its grant revoked, used or gone) is refused as such wherever it is
   * presented, before what it covers is asked (RFC 6750 §3.1; docs/decisions.md, 59).
   */
  const readWithGrantToken = async (ref: ResourceRef, token: string, reader: (who: Reader) => void) => {
    const grantId = await deps.grants.tokenGrant(token);
    if (!grantId) throw tokenInvalid();
    const grant = await deps.accessGrants.current(grantId).catch((error: unknown) => {
      // The grant ended and its record is gone while the token lived on: the token is dead.
      if (error instanceof SignetError && error.reason === 'grant_not_found') throw tokenInvalid();
      throw error;
    });
    if (sameIdentity(grant, ref)) reader({ client_id: grant.service, grant_id: grant.id, door: 'access_grant' });
    if (grant.status !== 'active') throw deadGrantToken(grant);
    if (grant.resource !== ref.path) throw insufficient('the access grant of this token is for another resource');
    if (grant.kind === 'immediate') await deps.accessGrants.use(grant);
    // A service reading under a grant checks a claim's data against its onchain hash: it gets the salt.
    return deps.resources.privatePart(ref, grant.fields, { proof: true });
  };

  /** An OIDC access token: what the owner kept at login, for their own identity. */
  const readWithLoginToken = async (ref: ResourceRef, presented: DpopPresentation, reader: (who: Reader) => void) => {
    const accessToken = await deps.provider.AccessToken.find(presented.token);
    if (!accessToken?.grantId || !accessToken.clientId) throw tokenInvalid();
    const jkt = accessToken.jkt as string | undefined;
    await deps.checkDpop(
      { jkt, clientId: accessToken.clientId, requireNonce: Boolean(jkt) && (await deps.requiresDpopNonce(accessToken.clientId)) },
      presented,
    );
    const receipt = await deps.receipts.find(accessToken.grantId);
    const own = receipt && accessToken.accountId === subjectOf(deps.chains.idOf(ref.chainId), ref.identity) && sameIdentity(receipt, ref);
    if (!own) throw insufficient(`the grant of this access token does not cover this ${ref.kind}`);
    reader({ client_id: accessToken.clientId!, grant_id: accessToken.grantId, door: ref.kind === 'claim' ? 'claim_resource' : 'profile_resource' });
    if (ref.kind === 'claim') {
      if (!receipt.claims.some((kept) => kept.toLowerCase() === ref.claimId)) throw insufficient('the grant of this access token does not cover this claim');
      try {
        return await deps.resources.privatePart(ref, ['data']);
      } catch (error) {
        // Data another provider holds: from the copy kept for this grant, as the tokens release it.
        if (!(deps.heldElsewhere && error instanceof SignetError && error.reason === 'claim_data_missing')) throw error;
        const view = await deps.resources.claimAsShared(ref);
        const subject = subjectOf(deps.chains.idOf(ref.chainId), ref.identity);
        if (!deps.heldElsewhere.providers.of(view.uri)) throw error;
        const { views } = await deps.heldElsewhere.release(accessToken.grantId, subject, ref.identity, [view]);
        return { identity: ref.identity, ...views[0] };
      }
    }
    const fields = receipt.fields.filter((name) => !name.startsWith('claim:'));
    if (fields.length === 0) throw insufficient('the grant of this access token does not cover this profile');
    return deps.resources.privatePart(ref, fields);
  };

  /** A service's API key: the union of its active persistent grants on this resource. */
  const readWithApiKey = async (ref: ResourceRef, key: string, reader: (who: Reader) => void) => {
    const { service } = await deps.services.authenticate(key);
    const grants = await deps.accessGrants.currentOf(await deps.grants.listIdsOn(service, ref.path));
    const fields = new Set<string>();
    const used: string[] = [];
    for (const grant of grants) {
      if (grant.kind === 'persistent' && grant.status === 'active') {
        used.push(grant.id);
        for (const field of grant.fields) fields.add(field);
      }
    }
    // Only a service that holds (or held) a grant of this identity is the owner's business.
    if (grants.some((grant) => sameIdentity(grant, ref))) reader({ client_id: service, grant_id: used[0] ?? null, door: 'access_grant' });
    if (fields.size === 0) throw deps.accessGrants.accessDeniedFor(service);
    return deps.resources.privatePart(ref, [...fields], { proof: true });
  };

  /** What a private part holds, as the history names it: profile field names, or the claim's id. */
  const released = (ref: ResourceRef, body: Record<string, unknown>) => {
    if (ref.kind !== 'claim') return { fields: (body.fields as string[] | undefined) ?? [], claims: [] };
    // A claim whose provider gave no data released nothing; one whose data another provider holds names it.
    if (body.data === undefined) return { fields: [], claims: [] };
    const provider = typeof body.uri === 'string' ? deps.heldElsewhere?.providers.of(body.uri) : undefined;
    return { fields: [], claims: [ref.claimId], ...(provider ? { providers: { [ref.claimId]: provider.name } } : {}) };
  };

  return async function read(ref: ResourceRef, { token, apiKey }: GrantCredential, from = 'unknown'): Promise<Record<string, unknown>> {
    if (!token && !apiKey) return deps.resources.publicPart(ref);
    let who: Reader | undefined;
    const reader = (found: Reader) => {
      who = found;
    };
    try {
      let body: Record<string, unknown>;
      if (token?.token.startsWith(GRANT_TOKEN_PREFIX)) {
        // A grant's token is a bearer token of Signet's own, never DPoP-bound.
        if (token.scheme !== 'Bearer')
          throw refuse('token_not_dpop_bound', 'an access grant token is a bearer token: send it as "Authorization: Bearer <token>"');
        body = await readWithGrantToken(ref, token.token, reader);
      } else if (token) body = await readWithLoginToken(ref, token, reader);
      else body = await readWithApiKey(ref, apiKey!, reader);
      if (who) deps.history?.record(historyOf(ref), { ...who, ...released(ref, body), client_address: from });
      return body;
    } catch (error) {
      // A refusal of a service that holds a grant of this identity is the owner's to see; an outage is not a refusal.
      if (who && error instanceof SignetError && error.status < 500) {
        deps.history?.record(historyOf(ref), { ...who, fields: [], claims: [], client_address: from, outcome: 'refused', reason: error.reason });
      }
      // No identity here is one answer whoever asks (an outage while asking is 503, never 404).
      if (error instanceof SignetError && NOT_COVERED.has(error.reason)) await deps.resources.assertIdentity(ref);
      throw error;
    }
  };
}

export type ResourceReader = ReturnType<typeof createResourceReader>;
