// Drives the login as a relying party (openid-client) and a wallet (a viem local account)
// would, through the interaction's JSON routes.
import * as oidc from 'openid-client';
import type { LocalAccount } from 'viem';
import type { ClientConfig } from '../../src/config/config.js';
import { UserAgent } from './user_agent.js';

export type LoginStart = {
  agent: UserAgent;
  config: oidc.Configuration;
  uid: string;
  interactionUrl: string;
  verifier: string;
  state: string;
  nonce: string;
};

export async function discover(issuer: string, client: Pick<ClientConfig, 'client_id' | 'client_secret'>): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(issuer), client.client_id, client.client_secret, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
}

/**
 * A valid authorization request for `client` (scope openid, a fixed PKCE S256 challenge) that is
 * sent without following it: each one starts a login (an Interaction in the store).
 */
export function authorizationUrl(issuer: string, client: ClientConfig): URL {
  const url = new URL(`${issuer}/auth`);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: client.redirect_uris[0]!,
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }).toString();
  return url;
}

/**
 * The relying party's side of a login: an authorization URL for `client` (its first redirect URI)
 * with PKCE S256, state and nonce, and what its callback is checked against. `extra`: more
 * parameters (ui_locales...).
 */
export async function authorizationRequest(
  issuer: string,
  client: Pick<ClientConfig, 'client_id' | 'client_secret' | 'redirect_uris'>,
  params: { scope?: string; claims?: unknown; extra?: Record<string, string> } = {},
) {
  const config = await discover(issuer, client);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: client.redirect_uris[0]!,
    scope: params.scope ?? 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...(params.claims ? { claims: JSON.stringify(params.claims) } : {}),
    ...params.extra,
  });
  return { config, url, verifier, state, nonce };
}

/** Sends the browser to the authorization endpoint and lands on the interaction. */
export async function startLogin(issuer: string, client: ClientConfig, params: { scope?: string; claims?: unknown } = {}): Promise<LoginStart> {
  const { config, url, verifier, state, nonce } = await authorizationRequest(issuer, client, params);
  const agent = new UserAgent();
  const response = await agent.fetch(url);
  const location = response.headers.get('location');
  if (response.status !== 303 || !location) throw new Error(`authorize answered ${response.status}: ${await response.text()}`);
  const interactionUrl = new URL(location, issuer).href;
  const uid = interactionUrl.split('/').pop()!;
  return { agent, config, uid, interactionUrl, verifier, state, nonce };
}

export async function requestChallenge(login: LoginStart, body: Record<string, unknown>) {
  return login.agent.postJson(`${login.interactionUrl}/challenge`, body);
}

/** Asks for the challenge and signs it with the wallet; returns the text and signature. */
export async function signChallenge(login: LoginStart, wallet: LocalAccount, body: Record<string, unknown> = {}) {
  const answer = await requestChallenge(login, { address: wallet.address, ...body });
  if (answer.status !== 200) throw new Error(`challenge answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  const message = answer.json.challenge as string;
  return { message, signature: await wallet.signMessage({ message }), answer: answer.json };
}

export async function submitSignature(
  login: LoginStart,
  body: { signature: string; message?: string; provider_signatures?: { claim_id: string; signature: string }[] },
) {
  return login.agent.postJson(`${login.interactionUrl}/signature`, body);
}

/** Follows redirect_to back through the engine to the client's redirect URI. */
export async function followToCallback(login: LoginStart, redirectTo: string): Promise<URL> {
  let next = new URL(redirectTo, login.config.serverMetadata().issuer);
  for (let hops = 0; hops < 5; hops++) {
    const response = await login.agent.fetch(next);
    const location = response.headers.get('location');
    if (!location) throw new Error(`expected a redirect from ${next.href}, got ${response.status}: ${await response.text()}`);
    next = new URL(location, next);
    if (!next.href.startsWith(login.config.serverMetadata().issuer)) return next;
  }
  throw new Error('too many redirects');
}

/** The whole happy path: challenge, signature, redirect, code exchange. */
export async function logIn(login: LoginStart, wallet: LocalAccount, body: Record<string, unknown> = {}) {
  const signed = await signChallenge(login, wallet, body);
  const answer = await submitSignature(login, { signature: signed.signature, message: signed.message });
  if (answer.status !== 200) throw new Error(`signature answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  const callback = await followToCallback(login, answer.json.redirect_to as string);
  return { tokens: await exchangeCode(login, callback), callback, signed };
}

/** The code exchange at the client's callback, checked against the login's PKCE verifier, state and nonce. */
export function exchangeCode(login: LoginStart, callback: URL) {
  return oidc.authorizationCodeGrant(login.config, callback, {
    pkceCodeVerifier: login.verifier,
    expectedState: login.state,
    expectedNonce: login.nonce,
  });
}
