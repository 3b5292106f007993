// The engine's server challenge (its DPoP nonces), which oidc-provider ships without types.
declare module 'oidc-provider/lib/helpers/challenge.js' {
  export default class ServerChallenge {
    constructor(secret: Buffer, info: string);
    nextChallenge(): string;
    checkChallenge(challenge: string): boolean;
  }
}
