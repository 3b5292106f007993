// An independent wallet and verifier for Signet's credentials: the wallet speaks OpenID4VCI
// through @openid4vc/openid4vci (its keys are ES256 JWKs made here, its JWTs signed with jose),
// the verifier checks SD-JWT VCs with the SD-JWT library and reads status lists as a verifier
// would, from Signet's published keys only.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { type CallbackContext, clientAuthenticationNone, HashAlgorithm, type Jwk, type JwtSigner } from '@openid4vc/oauth2';
import { Openid4vciClient } from '@openid4vc/openid4vci';
import { StatusList } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { calculateJwkThumbprint, compactVerify, decodeJwt, importJWK, type JWK, type JWTHeaderParameters, jwtVerify, SignJWT } from 'jose';

type Json = Record<string, unknown>;

export type WalletKey = { privateJwk: JWK; publicJwk: JWK };
export function walletKey(): WalletKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateJwk: privateKey.export({ format: 'jwk' }) as JWK, publicJwk: publicKey.export({ format: 'jwk' }) as JWK };
}

const NODE_HASH: Record<HashAlgorithm, string> = { [HashAlgorithm.Sha256]: 'sha256', [HashAlgorithm.Sha384]: 'sha384', [HashAlgorithm.Sha512]: 'sha512' };

/** The wallet's callbacks for the OpenID4VCI client: hashing, randomness, and JWTs signed with its own keys. */
export function callbacks(keys: WalletKey[]): Omit<CallbackContext, 'verifyJwt' | 'decryptJwe' | 'encryptJwe'> {
  return {
    fetch: globalThis.fetch,
    hash: (data, alg) => new Uint8Array(createHash(NODE_HASH[alg]).update(data).digest()),
    generateRandom: (n) => new Uint8Array(randomBytes(n)),
    signJwt: async (signer: JwtSigner, { header, payload }) => {
      if (signer.method !== 'jwk') throw new Error(`unsupported signer ${signer.method}`);
      const wanted = await calculateJwkThumbprint(signer.publicJwk as JWK);
      let key: WalletKey | undefined;
      for (const each of keys) if ((await calculateJwkThumbprint(each.publicJwk)) === wanted) key = each;
      const jwt = await new SignJWT(payload).setProtectedHeader(header as JWTHeaderParameters).sign(await importJWK(key!.privateJwk, signer.alg));
      return { jwt, signerJwk: signer.publicJwk };
    },
    // No client_id: the wallet knows none of Signet's, as OpenID4VCI allows.
    clientAuthentication: clientAuthenticationNone({ clientId: '' }),
  };
}

/** An independent wallet receiving an offered credential: the answer, and the same credential request again (its proof reused). */
export async function receive(offerUri: string, txCode: string) {
  const dpopKey = walletKey();
  const holderKey = walletKey();
  const client = new Openid4vciClient({ callbacks: callbacks([dpopKey, holderKey]) });
  const credentialOffer = await client.resolveCredentialOffer(offerUri);
  const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
  const credentialConfigurationId = credentialOffer.credential_configuration_ids[0]!;
  const { accessTokenResponse, dpop } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
    credentialOffer,
    issuerMetadata,
    txCode,
    dpop: { signer: { method: 'jwk', alg: 'ES256', publicJwk: dpopKey.publicJwk as Jwk } },
  });
  const { c_nonce } = await client.requestNonce({ issuerMetadata });
  const { jwt } = await client.createCredentialRequestJwtProof({
    issuerMetadata,
    credentialConfigurationId,
    nonce: c_nonce,
    signer: { method: 'jwk', alg: 'ES256', publicJwk: holderKey.publicJwk as Jwk },
  });
  const request = () =>
    client.retrieveCredentials({ issuerMetadata, accessToken: accessTokenResponse.access_token, credentialConfigurationId, proofs: { jwt: [jwt] }, dpop });
  const response = await request();
  return { response, again: request, accessTokenResponse, holderKey, issuerMetadata };
}

export const hasher = (data: string | ArrayBuffer, alg: string) => {
  expect(alg).toBe('sha-256');
  return new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );
};

/** The verifier: Signet's keys from its JWT VC issuer metadata, the status list fetched as the library does. */
export async function verifier(issuer: string) {
  const metadata = (await (await fetch(`${issuer}/.well-known/jwt-vc-issuer`)).json()) as { issuer: string; jwks: { keys: JWK[] } };
  expect(metadata.issuer).toBe(issuer);
  const issuerKey = await importJWK(metadata.jwks.keys[0]!, 'ES256');
  const verify = async (data: string, signature: string) =>
    compactVerify(`${data}.${signature}`, issuerKey, { algorithms: ['ES256'] }).then(
      () => true,
      () => false,
    );
  const kbVerifier = async (data: string, signature: string, payload: Json) => {
    const jwk = (payload.cnf as { jwk?: JWK } | undefined)?.jwk;
    if (!jwk) return false;
    return compactVerify(`${data}.${signature}`, await importJWK(jwk, 'ES256'), { algorithms: ['ES256'] }).then(
      () => true,
      () => false,
    );
  };
  return new SDJwtVcInstance({
    hasher,
    verifier: verify,
    kbVerifier: kbVerifier as never,
    statusListFetcher: async (uri: string) => {
      const response = await fetch(uri);
      expect(response.headers.get('content-type')).toBe('application/statuslist+jwt');
      return response.text();
    },
  });
}

export async function statusOf(issuer: string, credential: string): Promise<number> {
  const { status } = decodeJwt(credential.split('~')[0]!) as { status: { status_list: { idx: number; uri: string } } };
  const token = await (await fetch(status.status_list.uri)).text();
  const metadata = (await (await fetch(`${issuer}/.well-known/jwt-vc-issuer`)).json()) as { jwks: { keys: JWK[] } };
  const { payload } = await jwtVerify(token, await importJWK(metadata.jwks.keys[0]!, 'ES256'), {
    typ: 'statuslist+jwt',
    subject: status.status_list.uri,
    requiredClaims: ['iat', 'sub'],
  });
  const list = payload.status_list as { bits: 1; lst: string };
  return StatusList.decompressStatusList(list.lst, list.bits).getStatus(status.status_list.idx);
}

/**
 * A wallet registered as a client of Signet asking for a credential through the authorization
 * code flow (the scope `credential:<id>`, PKCE, DPoP): the URL the owner's browser opens, then
 * the redemption of the code the browser brings back.
 */
export async function authorizationCodeWallet(
  issuer: string,
  clientId: string,
  redirectUri: string,
  configurationId: string,
  options: { bearer?: boolean } = {},
) {
  const dpopKey = walletKey();
  const holderKey = walletKey();
  const client = new Openid4vciClient({ callbacks: { ...callbacks([dpopKey, holderKey]), clientAuthentication: clientAuthenticationNone({ clientId }) } });
  const issuerMetadata = await client.resolveIssuerMetadata(issuer);
  // A wallet-initiated request: the offer the wallet makes itself, for the authorization code grant.
  const credentialOffer = { credential_issuer: issuer, credential_configuration_ids: [configurationId], grants: { authorization_code: {} } };
  // A bearer wallet sends no DPoP proof: its tokens are bearer tokens.
  const dpop = options.bearer ? undefined : { signer: { method: 'jwk' as const, alg: 'ES256', publicJwk: dpopKey.publicJwk as Jwk } };
  const { authorizationRequestUrl, pkce } = await client.createAuthorizationRequestUrlFromOffer({
    credentialOffer,
    issuerMetadata,
    clientId,
    redirectUri,
    scope: `credential:${configurationId}`,
    dpop,
  });
  return {
    authorizationRequestUrl,
    async redeem(code: string) {
      const { accessTokenResponse, dpop: bound } = await client.retrieveAuthorizationCodeAccessTokenFromOffer({
        credentialOffer,
        issuerMetadata,
        authorizationCode: code,
        pkceCodeVerifier: pkce?.codeVerifier,
        redirectUri,
        dpop,
      });
      const { c_nonce } = await client.requestNonce({ issuerMetadata });
      const { jwt } = await client.createCredentialRequestJwtProof({
        issuerMetadata,
        credentialConfigurationId: configurationId,
        nonce: c_nonce,
        signer: { method: 'jwk', alg: 'ES256', publicJwk: holderKey.publicJwk as Jwk },
      });
      const issued = await client.retrieveCredentials({
        issuerMetadata,
        accessToken: accessTokenResponse.access_token,
        credentialConfigurationId: configurationId,
        proofs: { jwt: [jwt] },
        dpop: bound,
      });
      return { tokenType: accessTokenResponse.token_type, credential: (issued.credentialResponse.credentials as { credential: string }[])[0]!.credential };
    },
  };
}
