// The demo relying party at /demo: a website with a "Log in with identity" button that uses
// a standard OIDC client (openid-client) against Signet, then shows what it received: a
// summary in words, the raw ID token claims and userinfo folded below. With the embedded
// chain it also serves the built-in demo wallet.
import Router from '@koa/router';
import * as oidc from 'openid-client';
import { createWalletClient, type Hex, hexToString, http, isHex, type LocalAccount, numberToHex } from 'viem';
import { chainDefinition } from '../chain/chain_client.js';
import { invalidRequest } from '../errors.js';
import { BODY_LIMITS, jsonBody } from '../http/body.js';
import type { RenderPage } from '../http/pages.js';
import type { DisplayNames } from '../claims/display_names.js';
import { summarizeLogin } from './login_summary.js';

export type DemoRouterDeps = {
  issuer: string;
  client: { client_id: string; client_secret: string };
  renderPage: RenderPage;
  /** The demo wallet's key, when the demo runs its own chain. */
  wallet?: LocalAccount;
  /** The demo chain, where the demo wallet sends its transactions. */
  rpcUrl?: string;
  chainId: number;
  /** What the demo website asks for. */
  scope: string;
  /** Issuer and topic names for the login summary. */
  names: DisplayNames;
};

const FLOW_COOKIE = 'signet_demo_flow';

export function createDemoRouter(deps: DemoRouterDeps): Router {
  const router = new Router({ prefix: '/demo' });
  const redirectUri = `${deps.issuer}/demo/callback`;
  let discovered: Promise<oidc.Configuration> | undefined;
  // Discovery waits for the first use: the server is not listening while routes are built.
  const configuration = () => {
    discovered ??= oidc
      .discovery(new URL(deps.issuer), deps.client.client_id, deps.client.client_secret, undefined, {
        execute: deps.issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : [],
      })
      .catch((error) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  router.get('/', async (ctx) => {
    deps.renderPage(ctx, 'demo', { title: 'Demo website', result: undefined, error: ctx.query.error });
  });

  router.get('/login', async (ctx) => {
    const config = await configuration();
    const verifier = oidc.randomPKCECodeVerifier();
    const flow = { verifier, state: oidc.randomState(), nonce: oidc.randomNonce() };
    ctx.cookies.set(FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'), {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      maxAge: 10 * 60 * 1000,
    });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: deps.scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    ctx.redirect(url.href);
  });

  router.get('/callback', async (ctx) => {
    const raw = ctx.cookies.get(FLOW_COOKIE, { signed: true });
    if (!raw) throw invalidRequest('the demo login cookie is missing: start again from /demo');
    const flow = JSON.parse(Buffer.from(raw, 'base64url').toString()) as { verifier: string; state: string; nonce: string };
    ctx.cookies.set(FLOW_COOKIE, null, { signed: true });
    const config = await configuration();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, new URL(ctx.originalUrl, deps.issuer), {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
      });
    } catch (error) {
      const reason = (error as { error_description?: string; message: string }).error_description ?? (error as Error).message;
      deps.renderPage(ctx, 'demo', { title: 'Demo website', result: undefined, error: reason });
      return;
    }
    const claims = tokens.claims()!;
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    const logout = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: `${deps.issuer}/demo`,
    });
    deps.renderPage(ctx, 'demo', {
      title: 'Demo website',
      error: undefined,
      result: {
        summary: summarizeLogin(userinfo as Record<string, unknown>, deps.names),
        claims: JSON.stringify(claims, null, 2),
        userinfo: JSON.stringify(userinfo, null, 2),
        scope: tokens.scope,
        refresh: Boolean(tokens.refresh_token),
        logout: logout.href,
      },
    });
  });

  if (deps.wallet) {
    const wallet = deps.wallet;
    router.post('/wallet', jsonBody(BODY_LIMITS.interaction), async (ctx) => {
      const { method, params } = (ctx.request.body ?? {}) as { method?: string; params?: unknown[] };
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          ctx.body = { result: [wallet.address] };
          return;
        case 'eth_chainId':
          ctx.body = { result: numberToHex(deps.chainId) };
          return;
        case 'eth_sendTransaction': {
          const [tx] = (params ?? []) as { to?: Hex; data?: Hex }[];
          if (!tx?.to || !deps.rpcUrl) throw invalidRequest('"params" must hold a transaction with "to"');
          const sender = createWalletClient({ account: wallet, chain: chainDefinition(deps.chainId, deps.rpcUrl), transport: http(deps.rpcUrl) });
          ctx.body = { result: await sender.sendTransaction({ to: tx.to, data: tx.data, account: wallet, chain: sender.chain }) };
          return;
        }
        case 'personal_sign': {
          const [message] = params ?? [];
          if (typeof message !== 'string') throw invalidRequest('"params" must start with the message to sign');
          // Wallets receive personal_sign text either as UTF-8 or hex-encoded.
          const text = isHex(message) ? hexToString(message) : message;
          ctx.body = { result: await wallet.signMessage({ message: text }) };
          return;
        }
        default:
          throw invalidRequest(`the demo wallet does not support "${String(method)}"`);
      }
    });
  }

  return router;
}

