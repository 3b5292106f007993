// The demo relying party at /demo: a website with a "Log in with identity" button that uses
// a standard OIDC client (openid-client) against Signet, then shows what it received: a
// summary in words, the raw ID token claims and userinfo folded below. With the embedded
// chain it also serves the built-in demo wallet (a JSON-RPC route, documented).
import * as oidc from 'openid-client';
import { createWalletClient, type Hex, hexToString, http, isHex, type LocalAccount, numberToHex } from 'viem';
import { z } from 'zod';
import { refuse } from '../base/errors.js';
import type { DisplayNames } from '../domain/claims/display_names.js';
import { anyone } from '../http/authenticators.js';
import type { RenderPage } from '../http/pages.js';
import { type AnyRoute, route } from '../http/route.js';
import { address } from '../http/schemas.js';
import { chainDefinition } from '../infra/chain/chain_client.js';
import { summarizeLogin } from './login_summary.js';

export type DemoRoutesDeps = {
  issuer: string;
  /** The demo website's client (client "demo" of the client registry), read when a login starts. */
  client: () => Promise<{ client_id: string; client_secret: string } | undefined>;
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
const TAG = 'Demo';
const TITLE = 'Demo website';

/** An EIP-1193 request, as public/demo_wallet.js sends it. */
const walletRequest = z.object({
  method: z.string({ error: 'must name a JSON-RPC method' }),
  params: z.array(z.unknown(), { error: 'must be a list' }).optional(),
});
const walletAnswer = z.object({
  result: z.union([z.array(address), z.string()]).meta({ description: 'The accounts, the chain id, a transaction hash or a signature' }),
});
const demoPageQuery = z.object({ error: z.string().max(2000).optional() });

async function answerOfWallet(deps: DemoRoutesDeps & { wallet: LocalAccount }, method: string, params: unknown[]): Promise<unknown> {
  const { wallet } = deps;
  switch (method) {
    case 'eth_requestAccounts':
    case 'eth_accounts':
      return [wallet.address];
    case 'eth_chainId':
      return numberToHex(deps.chainId);
    case 'eth_sendTransaction': {
      const [tx] = params as { to?: Hex; data?: Hex }[];
      if (!tx?.to || !deps.rpcUrl) throw refuse('demo_wallet_params_invalid', '"params" must hold a transaction with "to"');
      const sender = createWalletClient({ account: wallet, chain: chainDefinition(deps.chainId, deps.rpcUrl), transport: http(deps.rpcUrl) });
      return sender.sendTransaction({ to: tx.to, data: tx.data, account: wallet, chain: sender.chain });
    }
    case 'personal_sign': {
      const [message] = params;
      if (typeof message !== 'string') throw refuse('demo_wallet_params_invalid', '"params" must start with the message to sign');
      // Wallets receive personal_sign text either as UTF-8 or hex-encoded.
      return wallet.signMessage({ message: isHex(message) ? hexToString(message) : message });
    }
    default:
      throw refuse('demo_wallet_method_unsupported', `the demo wallet does not support "${method}"`);
  }
}

export function demoRoutes(deps: DemoRoutesDeps): AnyRoute[] {
  const redirectUri = `${deps.issuer}/demo/callback`;
  let discovered: Promise<oidc.Configuration> | undefined;
  // Discovery waits for the first use: the server is not listening while routes are built.
  const discover = async () => {
    const client = await deps.client();
    if (!client) throw refuse('client_not_found', 'the demo website has no client: add client "demo" to CLIENTS', { previous: 'demo_client_missing' });
    return oidc.discovery(new URL(deps.issuer), client.client_id, client.client_secret, undefined, {
      execute: deps.issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : [],
    });
  };
  const configuration = () => {
    discovered ??= discover().catch((error) => {
      discovered = undefined;
      throw error;
    });
    return discovered;
  };

  const page = { tag: TAG, auth: anyone, undocumented: true } as const;
  const routes: AnyRoute[] = [
    route({
      ...page,
      method: 'get',
      path: '/demo',
      summary: "The demo website's page",
      query: demoPageQuery,
      responses: { 200: { description: 'An HTML page' } },
      async handle({ ctx, query }) {
        deps.renderPage(ctx, 'demo', { title: TITLE, result: undefined, error: query.error });
        return {};
      },
    }),

    route({
      ...page,
      method: 'get',
      path: '/demo/login',
      summary: 'Starts a login at Signet (authorization code with PKCE)',
      responses: { 302: { description: 'To Signet' } },
      refusals: ['client_not_found'],
      async handle({ ctx }) {
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
        return {};
      },
    }),

    route({
      ...page,
      method: 'get',
      path: '/demo/callback',
      summary: 'Where Signet sends the browser back: the code is exchanged and the result shown',
      responses: { 200: { description: 'An HTML page' } },
      refusals: ['demo_login_missing', 'client_not_found'],
      async handle({ ctx }) {
        const raw = ctx.cookies.get(FLOW_COOKIE, { signed: true });
        if (!raw) throw refuse('demo_login_missing', 'the demo login cookie is missing: start again from /demo');
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
          deps.renderPage(ctx, 'demo', { title: TITLE, result: undefined, error: reason });
          return {};
        }
        const claims = tokens.claims()!;
        const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        const logout = oidc.buildEndSessionUrl(config, {
          id_token_hint: tokens.id_token!,
          post_logout_redirect_uri: `${deps.issuer}/demo`,
        });
        deps.renderPage(ctx, 'demo', {
          title: TITLE,
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
        return {};
      },
    }),
  ];

  const wallet = deps.wallet;
  if (wallet) {
    routes.push(
      route({
        method: 'post',
        path: '/demo/wallet',
        summary: "The embedded demo's built-in wallet (EIP-1193 requests; its key stays on the server)",
        tag: TAG,
        auth: anyone,
        body: walletRequest,
        bodyLimit: 'interaction',
        responses: { 200: { description: "The wallet's answer", schema: walletAnswer } },
        refusals: ['demo_wallet_method_unsupported', 'demo_wallet_params_invalid'],
        async handle({ body }) {
          return { body: { result: await answerOfWallet({ ...deps, wallet }, body.method, body.params ?? []) } };
        },
      }),
    );
  }
  return routes;
}
