// Every key Signet writes, in one place. All start with "signet:" so one Redis can be shared.
//
// signet:oidc:<Model>:<id>            engine model payload (JSON), TTL = the model's expiry
// signet:oidc:<Model>:<id>:consumed   epoch seconds when consumed (codes, refresh tokens)
// signet:oidc:grant:<grantId>         set of the model keys issued under one grant
// signet:oidc:uid:<uid>               id of the Session or Interaction with that uid
// signet:oidc:userCode:<code>         id of the DeviceCode with that user code
// signet:challenge:<nonce>            an issued, not yet used wallet challenge (JSON)
// signet:challenge-used:<nonce>       marker of a burnt nonce, so a replay says so
// signet:challenge-latest:<binding>   nonce of the latest challenge issued for an interaction
// signet:consent:<grantId>            consent receipt: signed message and signature (JSON)
// signet:consents:<identity>          set of the grant ids of an identity's receipts
// signet:profile:<identity>           the owner's profile (JSON)
// signet:account-session:<id>         an owner's account session (JSON)
// signet:claim:<identity>:<claimId>   a claim Signet issued, with its off-chain data (JSON)

const PREFIX = 'signet:';

export const keys = {
  model: (model: string, id: string) => `${PREFIX}oidc:${model}:${id}`,
  consumed: (modelKey: string) => `${modelKey}:consumed`,
  grantIndex: (grantId: string) => `${PREFIX}oidc:grant:${grantId}`,
  uid: (uid: string) => `${PREFIX}oidc:uid:${uid}`,
  userCode: (userCode: string) => `${PREFIX}oidc:userCode:${userCode}`,
  challenge: (nonce: string) => `${PREFIX}challenge:${nonce}`,
  usedChallenge: (nonce: string) => `${PREFIX}challenge-used:${nonce}`,
  latestChallenge: (binding: string) => `${PREFIX}challenge-latest:${binding}`,
  consent: (grantId: string) => `${PREFIX}consent:${grantId}`,
  consentsOf: (identity: string) => `${PREFIX}consents:${identity.toLowerCase()}`,
  profile: (identity: string) => `${PREFIX}profile:${identity.toLowerCase()}`,
  accountSession: (id: string) => `${PREFIX}account-session:${id}`,
  claimRecord: (identity: string, claimId: string) => `${PREFIX}claim:${identity.toLowerCase()}:${claimId.toLowerCase()}`,
};
