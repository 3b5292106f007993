// Every key Signet writes, in one place. All start with "signet:" so one Redis can be shared.
//
// Sharding (Redis Cluster): a key's hash slot comes from its hash tag, the text in "{…}", or
// from the whole key without one. Keys that one atomic step touches together carry the tag of
// the data's owner, so they live in one slot: a record and its consumed mark ({<Model>:<id>}),
// a wallet challenge and its used mark ({challenge:<nonce>}),
// a grant's indexes and tombstone ({grant:<id>}), an access grant and its status
// ({access-grant:<id>}), an API key and its revocation and last use ({api-key:<id>}), the
// webhook stream, retries and dead letters ({webhooks}), the registered clients' indexes
// ({clients:registered}). What cannot share a slot is written in
// steps (redis_store.ts): a record and the grant index that lists it (also when a consume cuts
// the record's life), a record and its uid or user-code lookup, the records a revoked grant
// deletes and those a token bound evicts (one DEL per slot). Every other key is
// read and written alone, so it needs no tag. Changing this layout needs no migration while no
// deployment holds data (the first deployment fixes it).
//
// What each key holds, whether it is personal, how long it lives and what deletes it:
// docs/data.md (a test fails when a key is written that its table does not cover). Every
// "set of …" below is an index (Store.addToIndex): a sorted set whose members leave when their
// time passes, and which expires with its latest member.
//
// signet:oidc:{<Model>:<id>}            engine model payload (JSON), TTL = the model's expiry
// signet:oidc:{<Model>:<id>}:consumed   epoch seconds when consumed (codes, refresh tokens); the record is then kept only the reuse window
// signet:oidc:{grant:<grantId>}:records set of the model keys issued under one grant (not its access tokens nor its code), each listed as long as its record lives
// signet:oidc:{grant:<grantId>}:revoked tombstone of a revoked grant: no record is written under it (1 h)
// signet:oidc:{grant:<grantId>}:access-tokens       set of the grant's live access tokens, at most tokenLimits.accessTokensPerGrant (the oldest go)
// signet:oidc:{grant:<grantId>}:used-refresh-tokens set of the grant's consumed refresh tokens kept for reuse detection, at most as many
// signet:oidc:client-credentials:<clientId>        set of a client's live client credentials tokens, at most tokenLimits.clientCredentialsPerClient
// signet:oidc:uid:<uid>               copy of the Session with that uid, or id of the Interaction with it
// signet:oidc:userCode:<code>         id of the DeviceCode with that user code
// signet:{challenge:<nonce>}          an issued, not yet used wallet challenge (JSON), TTL = the challenge's life
// signet:{challenge:<nonce>}:used     "used" or "burnt" (too many wrong signatures), a challenge's life from then (past the challenge's)
// signet:{challenge:<nonce>}:attempts the signatures checked against it, until the challenge would have expired
// signet:challenge-latest:<binding>   nonce of the latest challenge issued for an interaction, TTL = the challenge's life
// signet:consent:<grantId>            consent receipt: signed message and signature (JSON), TTL = the grant's life + retention.receiptDays
// signet:consents:<identity>          set of the grant ids of an identity's receipts
// signet:profile:<identity>           the owner's profile (JSON)
// signet:account-session:<id>         an owner's account session (JSON)
// signet:claim:<identity>:<claimId>   a claim Signet issued, with its off-chain data (JSON); TTL once revoked or seen gone
// signet:{webhooks}:stream            stream of webhook jobs (field job: { event, attempts } JSON), group "delivery"
// signet:{webhooks}:retry             sorted set of webhook jobs waiting for a retry, score = due epoch ms
// signet:{webhooks}:dead              hash of dead letters: event id -> { event, attempts, last_error, dead_at } JSON
// signet:{api-key:<id>}               a service's API key: sha256 of the secret and metadata (JSON), never rewritten
// signet:{api-key:<id>}:revoked       when and by which key it was revoked/replaced (JSON), written once
// signet:{api-key:<id>}:used          ISO time the key was last accepted, refreshed at most once a minute
// signet:api-keys:<serviceId>         set of the ids of a service's API keys (never expires)
// signet:{access-grant:<id>}          an access grant record, without its status (JSON); TTL unless active and persistent
// signet:{access-grant:<id>}:status   the grant's status, moved by compare-and-set, with the record's TTL
// signet:access-grants:identity:<a>   set of the grant ids of an identity
// signet:access-grants:service:<id>   set of the grant ids of a service
// signet:access-grants:on:<id>:<path> set of the grant ids of a service on one resource
// signet:grant-token:<sha256>         the grant id a bearer token of a grant reads
// signet:identity-creation:<wallet>   the deployment of a wallet's identity (JSON)
// signet:identity-creation-lock:<w>   held while a wallet's identity is being deployed
// signet:rate:<class>:<who>          a rate-limit counter (rate-limiter-flexible), TTL = the class's window
// signet:identity-wallets:<identity>  wallet addresses seen with keys on an identity
// signet:claim-request:<identity>:<t> an owner's request for a claim of topic t (JSON)
// signet:claim-requests               set of "<identity>:<topic>" of those requests
// signet:owner-webhook:<identity>     an owner's webhook URL and secret (JSON)
// signet:backchannel:<authReqId>      a CIBA request waiting for the owner (JSON)
// signet:backchannel-of:<identity>    set of the CIBA request ids of an identity
// signet:{history:<identity>}         sorted set of the identity's access history entries (JSON), score = epoch ms
// signet:{history:<identity>}:last    hash: grant id -> ISO time of its last release, written by earlier versions (erasure deletes it)
// signet:account-sessions:<identity>  set of the ids of the identity's open account sessions
// signet:erasure:<id>                 an owner's erasure job (JSON): identity, status, steps done
// signet:erasure-lease:<id>           held by the process running an erasure job, short TTL
// signet:erasures:open                set of the ids of erasure jobs not yet done
// signet:oidc:sessions-of:<sub>       set of the engine's Session records of one subject (an erasure ends them)
// signet:watch:identities             index of the identities with live grants, each listed until its latest grant's end; <identity>:<grantId> per lasting access grant, until revoked
// signet:watch:identities:<chainId>   the same, of another chain than the default one
// signet:watch:cursor                 the last block the chain watcher has fully handled (the default chain's)
// signet:watch:lease                  held by the one process that follows the chain, short TTL (the default chain's)
// signet:watch:cursor:<chainId>       the same, of another chain served (CHAINS)
// signet:watch:lease:<chainId>        the same, of another chain served
// signet:ssf:stream:<id>              an SSF stream: its client, delivery endpoint and events (JSON)
// signet:ssf:streams-of:<clientId>    index of a client's SSF streams
// signet:ssf:verified:<id>            a verification was just asked on the stream (min_verification_interval TTL)
// signet:claim-records:<identity>     set of the ids of the claims Signet issued to an identity (with a record)
// signet:client:<clientId>            a client's metadata (JSON): the engine's Client record, CLIENTS' or added at run time
// signet:clients                      set of the ids of every client
// signet:clients:configured           set of the ids the last start wrote from CLIENTS
// signet:{clients:registered}         set of the ids of the clients dynamic registration made, each until it expires unused or is removed
// signet:{clients:registered}:address:<a> the same, of those registered from one address (an IPv6 /64)
// signet:{clients:registered}:network:<n> the same, of those registered from one network (IPv4 /24, IPv6 /48)
// signet:registration-origin:<client> the address and network a registered client came from (JSON), as long as it lives
// signet:client-logins:<clientId>     set of the grant ids of a client's consent receipts (its login grants)
// signet:registration-token:<id>      an RFC 7592 registration access token (the engine's RegistrationAccessToken, JSON)
// signet:registration-tokens:<client> set of the keys of a client's registration access tokens
// signet:credential-offer:<id>        a credential offer (JSON) a wallet reads by its link, TTL = the offer's life
// signet:credential-grants:<identity> set of the engine's grants made for an identity's credential offers, each while it lives
// signet:credential:<id>              a credential Signet issued (JSON): whose, of which claim, its status slot and dates, TTL = its expiry
// signet:credentials:<identity>       set of the ids of an identity's credentials, each listed until its expiry
// signet:status-slot:<list>:<index>   the credential holding a slot of a status list, TTL = its expiry
// signet:status-revoked:<list>        set of the revoked slots of a status list, each listed until its credential's expiry
// signet:status-revision:<list>      a value changed by every revocation in a status list (a process's kept token is then out of date), 24 h
// signet:status-open-list             the number of the status list new slots are drawn in, 400 days from its last move
// signet:proof-nonce:<digest>         a credential proof's nonce (its SHA-256), spent once, until the nonce would have ended
// signet:credential-token:<digest>    an access token (its SHA-256) that received its credentials, until the token ends
// signet:credentials-day:<identity>   set of the credentials issued to an identity, each listed for 24 hours (the daily bound)
// signet:tx-code-attempts:<code hash> set of the wrong transaction codes tried on a credential offer, until the offer ends
// signet:provider-grant:<subject>:<claimId> a persistent grant Signet holds at an Information Provider for an owner's claim (JSON), until the provider says it ended or the owner's erasure
// signet:provider-grants:<subject>    set of the claim ids of those grants
// signet:provider-login:<uid>         a login's access requests at providers: grant ids and challenges, or why none (JSON), TTL = the challenge's life
// signet:provider-data:<grantId>      data fetched from providers for one website's grant, encrypted, with when each was checked (JSON), TTL = the grant's life

const PREFIX = 'signet:';

export const keys = {
  model: (model: string, id: string) => `${PREFIX}oidc:{${model}:${id}}`,
  consumed: (modelKey: string) => `${modelKey}:consumed`,
  grantIndex: (grantId: string) => `${PREFIX}oidc:{grant:${grantId}}:records`,
  revokedGrant: (grantId: string) => `${PREFIX}oidc:{grant:${grantId}}:revoked`,
  grantAccessTokens: (grantId: string) => `${PREFIX}oidc:{grant:${grantId}}:access-tokens`,
  grantUsedRefreshTokens: (grantId: string) => `${PREFIX}oidc:{grant:${grantId}}:used-refresh-tokens`,
  clientCredentialsOf: (clientId: string) => `${PREFIX}oidc:client-credentials:${clientId}`,
  uid: (uid: string) => `${PREFIX}oidc:uid:${uid}`,
  userCode: (userCode: string) => `${PREFIX}oidc:userCode:${userCode}`,
  challenge: (nonce: string) => `${PREFIX}{challenge:${nonce}}`,
  usedChallenge: (nonce: string) => `${PREFIX}{challenge:${nonce}}:used`,
  challengeAttempts: (nonce: string) => `${PREFIX}{challenge:${nonce}}:attempts`,
  latestChallenge: (binding: string) => `${PREFIX}challenge-latest:${binding}`,
  consent: (grantId: string) => `${PREFIX}consent:${grantId}`,
  consentsOf: (identity: string) => `${PREFIX}consents:${identity.toLowerCase()}`,
  profile: (identity: string) => `${PREFIX}profile:${identity.toLowerCase()}`,
  accountSession: (id: string) => `${PREFIX}account-session:${id}`,
  accessGrant: (id: string) => `${PREFIX}{access-grant:${id}}`,
  accessGrantStatus: (id: string) => `${PREFIX}{access-grant:${id}}:status`,
  accessGrantsOfIdentity: (identity: string) => `${PREFIX}access-grants:identity:${identity.toLowerCase()}`,
  accessGrantsOfService: (service: string) => `${PREFIX}access-grants:service:${service}`,
  accessGrantsOfServiceResource: (service: string, resource: string) => `${PREFIX}access-grants:on:${service}:${resource.toLowerCase()}`,
  grantToken: (hash: string) => `${PREFIX}grant-token:${hash}`,
  identityCreation: (wallet: string) => `${PREFIX}identity-creation:${wallet.toLowerCase()}`,
  identityCreationLock: (wallet: string) => `${PREFIX}identity-creation-lock:${wallet.toLowerCase()}`,
  rateLimitPrefix: (limitClass: string) => `${PREFIX}rate:${limitClass}`,
  identityWallets: (identity: string) => `${PREFIX}identity-wallets:${identity.toLowerCase()}`,
  claimRequest: (identity: string, topic: string) => `${PREFIX}claim-request:${identity.toLowerCase()}:${topic}`,
  claimRequests: () => `${PREFIX}claim-requests`,
  ownerWebhook: (identity: string) => `${PREFIX}owner-webhook:${identity.toLowerCase()}`,
  backchannelRequest: (id: string) => `${PREFIX}backchannel:${id}`,
  backchannelRequestsOf: (identity: string) => `${PREFIX}backchannel-of:${identity.toLowerCase()}`,
  webhookStream: `${PREFIX}{webhooks}:stream`,
  webhookRetries: `${PREFIX}{webhooks}:retry`,
  webhookDeadLetters: `${PREFIX}{webhooks}:dead`,
  claimRecord: (identity: string, claimId: string) => `${PREFIX}claim:${identity.toLowerCase()}:${claimId.toLowerCase()}`,
  apiKey: (id: string) => `${PREFIX}{api-key:${id}}`,
  apiKeyRevoked: (id: string) => `${PREFIX}{api-key:${id}}:revoked`,
  apiKeyUsed: (id: string) => `${PREFIX}{api-key:${id}}:used`,
  apiKeysOf: (serviceId: string) => `${PREFIX}api-keys:${serviceId}`,
  history: (identity: string) => `${PREFIX}{history:${identity.toLowerCase()}}`,
  historyLastRead: (identity: string) => `${PREFIX}{history:${identity.toLowerCase()}}:last`,
  accountSessionsOf: (identity: string) => `${PREFIX}account-sessions:${identity.toLowerCase()}`,
  erasure: (id: string) => `${PREFIX}erasure:${id}`,
  erasureLease: (id: string) => `${PREFIX}erasure-lease:${id}`,
  openErasures: () => `${PREFIX}erasures:open`,
  engineSessionsOf: (subject: string) => `${PREFIX}oidc:sessions-of:${subject.toLowerCase()}`,
  /** chainId: of another chain than the default one (each chain's watcher follows its own identities). */
  watchedIdentities: (chainId?: number) => (chainId === undefined ? `${PREFIX}watch:identities` : `${PREFIX}watch:identities:${chainId}`),
  /** chainId: of another chain than the default one (whose keys stay as they were with one chain). */
  watchCursor: (chainId?: number) => `${PREFIX}watch:cursor${chainId === undefined ? '' : `:${chainId}`}`,
  watchLease: (chainId?: number) => `${PREFIX}watch:lease${chainId === undefined ? '' : `:${chainId}`}`,
  ssfStream: (id: string) => `${PREFIX}ssf:stream:${id}`,
  ssfStreamsOf: (clientId: string) => `${PREFIX}ssf:streams-of:${clientId}`,
  ssfVerified: (id: string) => `${PREFIX}ssf:verified:${id}`,
  claimRecordsOf: (identity: string) => `${PREFIX}claim-records:${identity.toLowerCase()}`,
  client: (clientId: string) => `${PREFIX}client:${clientId}`,
  clients: () => `${PREFIX}clients`,
  /** The clients dynamic registration made, each listed until it expires unused or is removed (the cap counts them). */
  registeredClients: () => `${PREFIX}{clients:registered}`,
  /** The same, of those registered from one address (or IPv6 /64), in the cap's slot: one script admits a client into all three. */
  registeredFromAddress: (address: string) => `${PREFIX}{clients:registered}:address:${address}`,
  /** The same, of those registered from one network (IPv4 /24, IPv6 /48). */
  registeredFromNetwork: (network: string) => `${PREFIX}{clients:registered}:network:${network}`,
  /** Where a registered client came from (its address and network), so its deletion releases its places. */
  registrationOrigin: (clientId: string) => `${PREFIX}registration-origin:${clientId}`,
  configuredClients: () => `${PREFIX}clients:configured`,
  clientLogins: (clientId: string) => `${PREFIX}client-logins:${clientId}`,
  registrationToken: (id: string) => `${PREFIX}registration-token:${id}`,
  registrationTokensOf: (clientId: string) => `${PREFIX}registration-tokens:${clientId}`,
  credentialOffer: (id: string) => `${PREFIX}credential-offer:${id}`,
  credentialGrantsOf: (identity: string) => `${PREFIX}credential-grants:${identity.toLowerCase()}`,
  credential: (id: string) => `${PREFIX}credential:${id}`,
  credentialsOf: (identity: string) => `${PREFIX}credentials:${identity.toLowerCase()}`,
  statusSlot: (list: number, index: number) => `${PREFIX}status-slot:${list}:${index}`,
  revokedSlots: (list: number) => `${PREFIX}status-revoked:${list}`,
  statusRevision: (list: number) => `${PREFIX}status-revision:${list}`,
  statusOpenList: () => `${PREFIX}status-open-list`,
  proofNonce: (digest: string) => `${PREFIX}proof-nonce:${digest}`,
  credentialTokenSpent: (digest: string) => `${PREFIX}credential-token:${digest}`,
  credentialsOfDay: (identity: string) => `${PREFIX}credentials-day:${identity.toLowerCase()}`,
  txCodeAttempts: (codeHash: string) => `${PREFIX}tx-code-attempts:${codeHash}`,
  providerGrant: (subject: string, claimId: string) => `${PREFIX}provider-grant:${subject.toLowerCase()}:${claimId.toLowerCase()}`,
  providerGrantsOf: (subject: string) => `${PREFIX}provider-grants:${subject.toLowerCase()}`,
  providerLogin: (uid: string) => `${PREFIX}provider-login:${uid}`,
  providerData: (grantId: string) => `${PREFIX}provider-data:${grantId}`,
};
