// Credentials the owner keeps in their own wallet (OpenID4VCI 1.0, SD-JWT VC): built in two
// halves around the engine. Before it: the issuance the engine's feature calls, the wallets'
// client, the token check of offers. After it: the routes, which make offers with the engine's
// models. Nothing is issued without an ES256 key (the one algorithm every wallet accepts).
import type Provider from 'oidc-provider';
import type { Config } from '../../config/config.js';
import type { Chains } from '../../domain/chains/chains.js';
import type { ClaimTopics } from '../../domain/claims/claim_topics.js';
import { createCredentialRecords } from '../../domain/credentials/credential_records.js';
import { createCredentialRevocation } from '../../domain/credentials/credential_revocation.js';
import { credentialFields, credentialTypes } from '../../domain/credentials/credential_types.js';
import { createIssuanceBounds } from '../../domain/credentials/issuance_bounds.js';
import { createProofNonces } from '../../domain/credentials/proof_nonces.js';
import { createSdJwtVcSigner } from '../../domain/credentials/sd_jwt_vc.js';
import { createStatusLists } from '../../domain/credentials/status_lists.js';
import type { AccessHistory } from '../../domain/history/access_history.js';
import type { AccountSessions } from '../../domain/owner_sessions/account_sessions.js';
import type { SessionCallers } from '../../domain/owner_sessions/session_callers.js';
import type { Watchlists } from '../../domain/watch/watchlist.js';
import type { RenderPage } from '../../http/pages.js';
import { algorithmOf, credentialKeyOf, signingKeysOf } from '../../infra/keys/signing_keys.js';
import type { ClientRecords } from '../../infra/store/client_records.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import { openid4vciFeature } from './credential_issuance.js';
import { createCredentialOffers } from './credential_offers.js';
import { credentialPages } from './credential_pages.js';
import { credentialRoutes } from './credential_routes.js';
import { useProofNonces } from './engine_proof_nonces.js';
import { offerTokenCheck } from './offer_token_check.js';
import { WALLET_CLIENT_ID, withWalletClient } from './wallet_client.js';

export type CredentialsDeps = {
  config: Config;
  store: Store;
  chains: Chains;
  topics: ClaimTopics;
  clientRecords: ClientRecords;
  watchlists: Watchlists;
  history: AccessHistory;
  sessionCallers: SessionCallers;
  sessions: AccountSessions;
  renderPage: RenderPage;
  demoWallet: boolean;
  nonceSecret: Buffer;
  /** Ends one of the engine's grants and everything issued under it (an erasure ends the offers' grants). */
  revokeGrant: (grantId: string) => Promise<void>;
  now: () => number;
};

export function createCredentialsFeature(deps: CredentialsDeps) {
  const { config, store, now } = deps;
  const jwks = signingKeysOf(config);
  const key = credentialKeyOf(jwks);
  const thresholds = [...new Set([18, 21, ...config.credentials.ageThresholds])].sort((a, b) => a - b);
  const verifiedTopics = deps.topics.verifiedTopics.flatMap((topic) => deps.topics.byNumber(topic)?.name ?? []);
  const types = credentialTypes(config.issuer, verifiedTopics);
  const records = createCredentialRecords(store, now);
  const statusLists = createStatusLists(store, now);
  const revocation = createCredentialRevocation({ records, statusLists });
  // A new nonce per request, spent once across processes (decision 68); the engine is handed them once it exists.
  const nonces = createProofNonces({ secret: deps.nonceSecret, store, now });
  // An offer's grant lives while its code waits and its token works, not a login grant's weeks.
  const offerGrantSeconds = config.credentials.offerSeconds + config.ttl.accessToken;
  const statusUri = (list: number) => `${config.issuer}/credentials/status/${list}`;
  // The engine's credential endpoint, named from the issuer: its tokens' audience in every process.
  const credentialEndpoint = `${config.issuer}/credential`;
  // The wallets' client signs nothing; its ID token algorithm is any the engine has a key for.
  const idTokenAlg = algorithmOf(jwks.keys[0]!) ?? 'RS256';
  const engine = key && {
    openid4vci: openid4vciFeature({
      issuer: config.issuer,
      credentialEndpoint,
      nonceSecret: deps.nonceSecret,
      nonces,
      bounds: createIssuanceBounds({ store, now, perIdentityPerDay: config.credentials.perIdentityPerDay }),
      types,
      thresholds,
      lifetimeDays: config.credentials.lifetimeDays,
      topics: deps.topics,
      chains: deps.chains,
      signer: createSdJwtVcSigner({ issuer: config.issuer, key }),
      statusLists,
      statusUri,
      records,
      watchlists: deps.watchlists,
      history: deps.history,
      now,
    }),
    scopes: types.map((type) => type.scope),
    audience: credentialEndpoint,
    walletClientId: WALLET_CLIENT_ID,
    offerGrantSeconds,
    offerSeconds: config.credentials.offerSeconds,
    clients: withWalletClient(deps.clientRecords, idTokenAlg),
  };
  return {
    /** What the engine is built with (createProvider's `credentials`); undefined without an ES256 key. */
    engine,
    /** The consent page's fields of the credentials a wallet may ask for in a login (none without a key). */
    fields: key ? credentialFields(types, thresholds) : [],
    revocation,
    /**
     * What an erasure does to credentials: each revoked (its status bit set) and its record
     * forgotten, and the engine's grants of the identity's offers ended with their tokens.
     */
    async eraseAll(identity: string) {
      const erased = await revocation.eraseAll(identity);
      const offerGrants = keys.credentialGrantsOf(identity);
      for (const grantId of await store.indexMembers(offerGrants)) await deps.revokeGrant(grantId);
      // The day's count names the identity: it goes with the rest.
      await store.delete(offerGrants, keys.credentialsOfDay(identity));
      return erased;
    },
    /** Once the engine exists: its token check of offers, and the routes. */
    withEngine(provider: Provider) {
      const pageDeps = { sessions: deps.sessions, renderPage: deps.renderPage, chains: deps.chains, demoWallet: deps.demoWallet, types };
      if (!key) return { routes: credentialPages(pageDeps) };
      useProofNonces(provider, nonces);
      provider.use(offerTokenCheck({ provider, store, offerSeconds: config.credentials.offerSeconds }));
      const offers = createCredentialOffers({
        provider,
        store,
        issuer: config.issuer,
        chains: deps.chains,
        types,
        offerSeconds: config.credentials.offerSeconds,
        grantSeconds: offerGrantSeconds,
        now,
      });
      return {
        routes: [
          ...credentialPages({ ...pageDeps, issuing: { offers, records, revocation } }),
          ...credentialRoutes({
            issuer: config.issuer,
            offers,
            types,
            thresholds,
            key,
            statusLists,
            statusUri,
            records,
            revocation,
            callers: deps.sessionCallers,
            now,
          }),
        ],
      };
    },
  };
}
