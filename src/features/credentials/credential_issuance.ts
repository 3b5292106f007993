// The engine's OpenID4VCI feature (experimental in oidc-provider 9, pinned by its
// acknowledgement: decision 53) with Signet's half: what each credential holds. The engine
// checks the access token (DPoP-bound), the configuration asked for and the proofs (their
// signatures, audience and nonce window); Signet then uses each proof's nonce once across
// processes, reads the verified data fresh from the chain, and issues one SD-JWT VC per proof,
// each with a status list slot of its own, its record for the owner's pages, the identity on
// the watchlist until it expires, and one entry in the owner's access history.
import { createHash, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, type JWK } from 'jose';
import type { Context } from 'koa';
import { type Configuration, errors } from 'oidc-provider';
import type { ClaimTopics } from '../../domain/claims/claim_topics.js';
import { ageProofs } from '../../domain/credentials/age_proofs.js';
import type { CredentialRecords } from '../../domain/credentials/credential_records.js';
import { type CredentialType, configurationOf, VERIFIED_CREDENTIAL_CLAIMS } from '../../domain/credentials/credential_types.js';
import type { HolderJwk, SdJwtVcSigner } from '../../domain/credentials/sd_jwt_vc.js';
import type { StatusLists } from '../../domain/credentials/status_lists.js';
import type { AccessHistory } from '../../domain/history/access_history.js';
import { parseSubject } from '../../domain/identity/subject.js';
import type { VerifiedSource, VerifiedSources } from '../../domain/verified_claims/verified_sources.js';
import type { Watchlists } from '../../domain/watch/watchlist.js';
import { clientAddress } from '../../http/client_address.js';
import type { OnChains } from '../../infra/chain/chains.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

/** The engine's acknowledgement of its experimental OpenID4VCI draft, for the version installed (decision 53). */
export const OPENID4VCI_ACK = 'experimental-01';
/** How long a proof's nonce is remembered as used: longer than the engine accepts one (a few minutes). */
const USED_NONCE_SECONDS = 600;
const DAY_MS = 86_400_000;
/** The most credentials one request gets (one per proof). */
export const BATCH_SIZE = 10;

export type CredentialIssuanceDeps = {
  store: Store;
  issuer: string;
  /** The audience of the tokens the credential endpoint takes (the engine's resource server for Signet). */
  credentialEndpoint: string;
  nonceSecret: Buffer;
  types: readonly CredentialType[];
  thresholds: readonly number[];
  lifetimeDays: number;
  topics: ClaimTopics;
  onChain: Pick<OnChains<{ verified?: VerifiedSources }>, 'get'>;
  signer: SdJwtVcSigner;
  statusLists: StatusLists;
  statusUri: (list: number) => string;
  records: CredentialRecords;
  watchlists: Watchlists;
  history: AccessHistory;
  now: () => number;
};

type Openid4vci = NonNullable<NonNullable<Configuration['features']>['openid4vci']>;
type Made = { claims: Record<string, unknown>; disclosed: { top: string[]; members: Record<string, string[]> }; fields: string[]; expiresAt: number };

/** The verified source a type is made from, and what it then holds; undefined: nothing to make it from. */
function madeFrom(type: CredentialType, sources: VerifiedSource[], deps: CredentialIssuanceDeps): { source: VerifiedSource; made: Made } | undefined {
  const now = deps.now();
  const lifeEnd = (source: VerifiedSource) =>
    Math.min(now + deps.lifetimeDays * DAY_MS, source.claim.expires_at ? Date.parse(source.claim.expires_at) : Number.POSITIVE_INFINITY);
  if (type.kind === 'age') {
    for (const source of sources) {
      const birthdate = source.element.claims.birthdate;
      const proofs = typeof birthdate === 'string' ? ageProofs(birthdate, now, deps.thresholds) : undefined;
      if (!proofs) continue;
      const thresholds = Object.keys(proofs.ageEqualOrOver);
      return {
        source,
        made: {
          claims: { age_equal_or_over: proofs.ageEqualOrOver },
          disclosed: { top: [], members: { age_equal_or_over: thresholds } },
          fields: thresholds.map((threshold) => `age_equal_or_over.${threshold}`),
          expiresAt: Math.min(lifeEnd(source), proofs.changesAt ?? Number.POSITIVE_INFINITY),
        },
      };
    }
    return undefined;
  }
  const topic = deps.topics.byName(type.topic);
  const source = sources.find((each) => topic && each.claim.topic === topic.topic);
  if (!source) return undefined;
  const held = VERIFIED_CREDENTIAL_CLAIMS.filter((name) => source.element.claims[name] !== undefined);
  if (!held.length) return undefined;
  return {
    source,
    made: {
      claims: Object.fromEntries(held.map((name) => [name, source.element.claims[name]])),
      disclosed: { top: [...held], members: {} },
      fields: [...held],
      expiresAt: lifeEnd(source),
    },
  };
}

export function openid4vciFeature(deps: CredentialIssuanceDeps): Openid4vci {
  const byId = new Map(deps.types.map((type) => [type.id, type]));
  // The engine's nonces are not random: one value serves every wallet within a time window. So
  // what is used once is the nonce with the key that signed the proof: a proof cannot be
  // replayed, and no wallet can spend another's nonce.
  const nonceOnce = async (proof: string) => {
    const { nonce } = decodeJwt(proof);
    const thumbprint = await calculateJwkThumbprint(decodeProtectedHeader(proof).jwk as JWK);
    const hashed = createHash('sha256')
      .update(`${String(nonce)}.${thumbprint}`)
      .digest('base64url');
    if (!(await deps.store.setIfAbsent(keys.proofNonce(hashed), '1', USED_NONCE_SECONDS))) {
      throw new errors.InvalidNonce('jwt proof nonce was already used, retrieve a new c_nonce from the nonce endpoint');
    }
  };
  return {
    enabled: true,
    ack: OPENID4VCI_ACK,
    nonceSecret: deps.nonceSecret,
    preAuthorizedCodeGrant: true,
    credentialEndpointExpectedAudience: () => deps.credentialEndpoint,
    // Several proofs in one request get as many credentials, one per key: a wallet presents
    // each once, so no two verifiers see the same credential (OpenID4VCI's batch issuance).
    metadata: { display: [{ name: 'Signet', locale: 'en' }], batch_credential_issuance: { batch_size: BATCH_SIZE } },
    // Credentials go to a wallet that proves its key at every call: a bearer token, which a
    // copy of it would serve as well, is refused whoever the client is.
    credentialConfigurationPolicy(_ctx, { accessToken }) {
      if (!accessToken.jkt) throw new errors.InvalidToken('the credential endpoint takes DPoP-bound access tokens only');
      return true;
    },
    credentialConfigurationsSupported: Object.fromEntries(deps.types.map((type) => [type.id, configurationOf(type, deps.thresholds)])),
    async issueCredential(ctx, { credentialConfigurationId, proofs, client, account, grant }) {
      const type = byId.get(credentialConfigurationId)!;
      const subject = parseSubject(account.accountId);
      const on = subject && deps.onChain.get(subject.chainId);
      if (!subject || !on?.verified) throw new errors.CredentialRequestDenied('this identity’s chain is not served');
      const jwts = (proofs as { jwt?: string[] } | undefined)?.jwt ?? [];
      // The chain first: an outage (503 chain_unavailable) spends no nonce, and the wallet
      // asks again with the same proof.
      const found = madeFrom(type, await on.verified.of(subject.identity), deps);
      if (!found) throw new errors.CredentialRequestDenied('the identity holds no verified data this credential is made from');
      const { source, made } = found;
      const now = deps.now();
      // Times are whole days (sd_jwt_vc.ts): a credential that would end today is not worth issuing.
      if (Math.floor(made.expiresAt / DAY_MS) <= Math.floor(now / DAY_MS)) {
        throw new errors.CredentialRequestDenied('the verified data this credential is made from ends today');
      }
      for (const proof of jwts) await nonceOnce(proof);
      const identityKey = on.chain.identityKey(subject.identity);
      const credentials: { credential: string }[] = [];
      for (const proof of jwts) {
        const holder = decodeProtectedHeader(proof).jwk as HolderJwk;
        const id = randomUUID();
        const slot = await deps.statusLists.take(id, made.expiresAt);
        const credential = await deps.signer.issue({
          vct: type.vct,
          holder,
          issuedAt: now,
          expiresAt: made.expiresAt,
          status: { uri: deps.statusUri(slot.list), slot },
          claims: made.claims,
          disclosed: made.disclosed,
        });
        await deps.records.save({
          id,
          identity: identityKey,
          configuration: type.id,
          claim_id: source.claim.claim_id,
          client_id: client.clientId,
          status: slot,
          issued_at: new Date(now).toISOString(),
          expires_at: new Date(made.expiresAt).toISOString(),
        });
        credentials.push({ credential });
      }
      // The watcher now follows the identity: a change of the claim on chain ends these credentials.
      await deps.watchlists(subject.chainId).watch(subject.identity, made.expiresAt);
      deps.history.record(identityKey, {
        client_id: client.clientId,
        grant_id: grant.jti,
        door: 'credential',
        fields: made.fields,
        claims: [source.claim.claim_id],
        client_address: clientAddress(ctx as unknown as Context),
      });
      return { credentials };
    },
  } as Openid4vci;
}
