// The engine's OpenID4VCI feature (experimental in oidc-provider 9, pinned by its
// acknowledgement: decision 53) with Signet's half: what each credential holds. The engine
// checks the access token (DPoP-bound), the configuration asked for and the proofs (their
// signatures, audience and that Signet made their nonce); Signet then reads the proofs (keys,
// `iat`, one nonce), reads the verified data fresh from the chain, and only then spends what the
// request uses: the identity's credentials of the day, the nonce, the access token's one
// request. It issues one SD-JWT VC per proof, each with a status list slot of its own, its
// record for the owner's pages, the identity on the watchlist until it expires, and one entry
// in the owner's access history.
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { type Configuration, errors } from 'oidc-provider';
import { refuse } from '../../base/errors.js';
import type { ClaimTopics } from '../../domain/claims/claim_topics.js';
import { ageProofs } from '../../domain/credentials/age_proofs.js';
import type { CredentialRecords } from '../../domain/credentials/credential_records.js';
import type { IssuanceBounds } from '../../domain/credentials/issuance_bounds.js';
import { readProofs } from '../../domain/credentials/proof_checks.js';
import type { ProofNonces } from '../../domain/credentials/proof_nonces.js';
import { type CredentialType, configurationOf, VERIFIED_CREDENTIAL_CLAIMS } from '../../domain/credentials/credential_types.js';
import type { SdJwtVcSigner } from '../../domain/credentials/sd_jwt_vc.js';
import type { StatusLists } from '../../domain/credentials/status_lists.js';
import type { AccessHistory } from '../../domain/history/access_history.js';
import { parseSubject } from '../../domain/identity/subject.js';
import type { VerifiedSource, VerifiedSources } from '../../domain/verified_claims/verified_sources.js';
import type { ChainNaming } from '../../infra/chain/chains.js';
import type { Watchlists } from '../../domain/watch/watchlist.js';
import { clientAddress } from '../../http/client_address.js';

/** The engine's acknowledgement of its experimental OpenID4VCI draft, for the version installed (decision 53). */
export const OPENID4VCI_ACK = 'experimental-01';
const DAY_MS = 86_400_000;
/** The most credentials one request gets (one per proof). */
export const BATCH_SIZE = 10;

export type CredentialIssuanceDeps = {
  issuer: string;
  /** The audience of the tokens the credential endpoint takes (the engine's resource server for Signet). */
  credentialEndpoint: string;
  /** The engine's secret for its own nonces, which Signet's replace (engine_proof_nonces.ts); it still needs one to start. */
  nonceSecret: Buffer;
  nonces: ProofNonces;
  bounds: IssuanceBounds;
  types: readonly CredentialType[];
  thresholds: readonly number[];
  lifetimeDays: number;
  topics: ClaimTopics;
  /** Each chain's verified data. */
  chains: { get(chainId: number): (Pick<ChainNaming, 'identityKey'> & { verified?: VerifiedSources }) | undefined };
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

const spentToken = () =>
  refuse(
    'credential_token_spent',
    'this access token has received its credentials already: one request per token, up to 10 proofs; ask the owner for a new offer',
  );

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
    async issueCredential(ctx, { credentialConfigurationId, proofs, client, account, grant, accessToken }) {
      const type = byId.get(credentialConfigurationId)!;
      const subject = parseSubject(account.accountId);
      const on = subject && deps.chains.get(subject.chainId);
      if (!subject || !on?.verified) throw new errors.CredentialRequestDenied('this identity’s chain is not served');
      const jwts = (proofs as { jwt?: string[] } | undefined)?.jwt ?? [];
      // Every proof is read before anything is spent: one bad proof costs the others nothing.
      const read = readProofs(jwts, deps.now());
      if (!read.ok) throw new errors.InvalidProof(read.problem);
      const token = accessToken.jti;
      if (await deps.bounds.tokenSpent(token)) throw spentToken();
      // The chain first: an outage (503 chain_unavailable) spends nothing, and the wallet asks
      // again with the same proofs.
      const found = madeFrom(type, await on.verified.of(subject.identity), deps);
      if (!found) throw new errors.CredentialRequestDenied('the identity holds no verified data this credential is made from');
      const { source, made } = found;
      const now = deps.now();
      // Times are whole days (sd_jwt_vc.ts): a credential that would end today is not worth issuing.
      if (Math.floor(made.expiresAt / DAY_MS) <= Math.floor(now / DAY_MS)) {
        throw new errors.CredentialRequestDenied('the verified data this credential is made from ends today');
      }
      const identityKey = on.identityKey(subject.identity);
      const ids = read.holders.map(() => randomUUID());
      // Spent in this order, each given back if a later one refuses: the day's places, the
      // nonce (of two requests with one nonce, on any process, one goes on), the token.
      const reserved = await deps.bounds.reserve(identityKey, ids);
      if (!(await deps.nonces.spend(read.nonce))) {
        await reserved.release();
        throw new errors.InvalidNonce('jwt proof nonce was already used, retrieve a new c_nonce from the nonce endpoint');
      }
      // Marked for as long as the token lives (a day for one without an end, which the engine does not make).
      const tokenLife = typeof accessToken.exp === 'number' ? accessToken.exp - now / 1000 : DAY_MS / 1000;
      if (!(await deps.bounds.spendToken(token, tokenLife))) {
        await reserved.release();
        throw spentToken();
      }
      const credentials: { credential: string }[] = [];
      for (const [i, holder] of read.holders.entries()) {
        const id = ids[i]!;
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
