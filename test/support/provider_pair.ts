// Two Signet processes as two Information Providers, each with its own Redis, on one anvil with
// the real ONCHAINID contracts: B keeps a KYC issuer's claim data (Signet as claim issuer), with
// an HTTP proxy in front of it that tests count, cut, slow and tamper with (B's issuer is the
// proxy's URL, so every claim B issues names it); A lists B in INFORMATION_PROVIDERS with the
// API key B issued it. And what a test does with them: an owner holding such a claim, a login
// at A through the interaction's JSON routes with the owner's wallet signing A's text and B's.
import type { Hex, LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { ClientConfig } from '../../src/config/config.js';
import { claimIdOf } from '../../src/domain/claims/claim_reader.js';
import { KeyPurpose } from '../../src/infra/chain/contracts.js';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import type { Logger } from '../../src/infra/observability/logger.js';
import type { Metrics } from '../../src/infra/observability/metrics.js';
import type { DialAddress } from '../../src/infra/outbound/pinned_request.js';
import type { ResolveHost } from '../../src/infra/outbound/url_guard.js';
import { type HttpProxy, startHttpProxy } from './http_proxy.js';
import { exchangeCode, followToCallback, type LoginStart, requestChallenge, startLogin, submitSignature } from './login_driver.js';
import { ANALYTICS, type Harness, startSignet, WEBSITE } from './signet_harness.js';

export const PROVIDER_NAME = 'KYC Provider B';
export const KYC_TOPIC = 1;
const ADMIN_TOKEN = 'admin-token-for-the-provider-pair';
/** Signet A as a service of B: the client B issues A's API key to. */
const SIGNET_A: ClientConfig = { ...ANALYTICS, client_id: 'signet-a', client_name: 'Signet A' };
const kyc = { name: 'kyc', topic: KYC_TOPIC, description: 'Your identity was checked (KYC)' };

export type ProviderPair = {
  a: Harness;
  b: Harness;
  proxy: HttpProxy;
  /** The API key B issued to A. */
  apiKey: string;
  close(): Promise<void>;
};

export async function startProviderPair(
  options: {
    timeoutMs?: number;
    recheckSeconds?: number;
    logger?: Logger;
    metrics?: Metrics;
    deadlines?: 'production' | 'relaxed';
    /** More processes of A on its store (behind the same issuer). */
    peersOfA?: number;
    /** A's DNS and where its sockets for approved addresses go: the internet as a test plays it. */
    resolveHost?: ResolveHost;
    dialAddress?: DialAddress;
    /** false: neither checks its answers against /openapi.json (the bench, which times them). */
    checkContract?: boolean;
    /** The operator's name for B in other languages than English (PROVIDER_NAME). */
    providerNames?: Record<string, string>;
  } = {},
): Promise<ProviderPair> {
  const proxy = await startHttpProxy();
  let b: Harness | undefined;
  try {
    b = await startSignet({
      issuer: proxy.url,
      clients: [WEBSITE, SIGNET_A],
      checkContract: options.checkContract,
      configure: (chain) => ({
        adminToken: ADMIN_TOKEN,
        claims: { topics: [kyc], trustedIssuers: [{ address: chain.suite.claimIssuer, topics: ['kyc'] }] },
        claimIssuer: { address: chain.suite.claimIssuer, key: DEPLOYER_KEY },
      }),
    });
    proxy.target = `http://127.0.0.1:${(b.server.address() as { port: number }).port}`;
    const apiKey = (await b.signet.apiKeys.create('signet-a', 'Signet A reads claim data')).key;
    const a = await startSignet({
      chain: b.chain,
      logger: options.logger,
      metrics: options.metrics,
      deadlines: options.deadlines,
      peers: options.peersOfA,
      resolveHost: options.resolveHost,
      dialAddress: options.dialAddress,
      checkContract: options.checkContract,
      configure: (chain) => ({
        claims: { topics: [kyc], trustedIssuers: [{ address: chain.suite.claimIssuer, topics: ['kyc'] }] },
        informationProviders: [
          { name: options.providerNames ? { en: PROVIDER_NAME, ...options.providerNames } : PROVIDER_NAME, url: proxy.url, api_key: apiKey },
        ],
        ...(options.timeoutMs ? { providerTimeoutMs: options.timeoutMs } : {}),
        ...(options.recheckSeconds ? { providerRecheckSeconds: options.recheckSeconds } : {}),
      }),
    });
    const started = b;
    return {
      a,
      b,
      proxy,
      apiKey,
      close: async () => {
        await a.close();
        await started.close();
        await proxy.close();
      },
    };
  } catch (error) {
    await b?.close().catch(() => {});
    await proxy.close();
    throw error;
  }
}

let owners = 0;

/** A fresh owner whose identity holds a KYC claim B issued (its data kept at B, its uri under B). */
export async function ownerWithKyc(pair: ProviderPair, data: Record<string, unknown>) {
  const { a, b, proxy } = pair;
  const owner = privateKeyToAccount(generatePrivateKey());
  // Funded to add Signet B's key as a CLAIM key on its identity.
  await a.chain.client.request({ method: 'anvil_setBalance', params: [owner.address, '0x56BC75E2D63100000'] } as never);
  const identity = await a.chain.createIdentityFor(owner.address, `providers-${process.pid}-${++owners}`);
  await addKey(a.chain.as(owner), identity, a.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  const response = await fetch(`${b.issuer}/admin/claims`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ identity, topic: 'kyc', data }),
  });
  if (response.status !== 201) throw new Error(`B issued no claim: ${response.status} ${await response.text()}`);
  proxy.requests.length = 0;
  return { owner, identity, claimId: claimIdOf(a.chain.suite.claimIssuer, KYC_TOPIC) as Hex };
}

/** What A asked of B since the last reset, as "METHOD step". */
export const stepsAt = (proxy: HttpProxy) =>
  proxy.requests.map(({ method, path }) => {
    if (path.endsWith('/access-requests')) return `${method} access_request`;
    if (path.endsWith('/validations')) return `${method} validation`;
    if (path.includes('/claims/')) return `${method} read`;
    return `${method} ${path}`;
  });

/** Each step of a consent as the page makes it, to time or check one. */
export type ConsentSteps = { challenge?: () => void; providerChallenges?: () => void; signature?: () => void };

/** Through the consent routes as the page does: A's text, B's challenge when asked, both signed, then the code exchange. */
export async function consentAtA(login: LoginStart, owner: LocalAccount, options: { signProvider?: boolean; timed?: (step: string, ms: number) => void } = {}) {
  const timed = async <T>(step: string, work: () => Promise<T>) => {
    const started = performance.now();
    const done = await work();
    options.timed?.(step, performance.now() - started);
    return done;
  };
  const asked = await timed('challenge', () => requestChallenge(login, { address: owner.address }));
  if (asked.status !== 200) throw new Error(`challenge answered ${asked.status}: ${JSON.stringify(asked.json)}`);
  const message = asked.json.challenge as string;
  const held = (asked.json.held_elsewhere ?? []) as { claim_id: string; provider: string; second_signature: boolean }[];
  const providerSignatures: { claim_id: string; signature: string }[] = [];
  let providerChallenges: { claim_id: string; challenge?: string; data_status?: string }[] = [];
  if (held.some((each) => each.second_signature)) {
    const answer = await timed('provider-challenges', () => login.agent.postJson(`${login.interactionUrl}/provider-challenges`, {}));
    if (answer.status !== 200) throw new Error(`provider-challenges answered ${answer.status}`);
    providerChallenges = answer.json.challenges as typeof providerChallenges;
    if (options.signProvider !== false) {
      for (const each of providerChallenges.filter((one) => one.challenge)) {
        providerSignatures.push({ claim_id: each.claim_id, signature: await owner.signMessage({ message: each.challenge! }) });
      }
    }
  }
  const signature = await owner.signMessage({ message });
  const signed = await timed('signature', () =>
    submitSignature(login, { signature, message, ...(providerSignatures.length ? { provider_signatures: providerSignatures } : {}) }),
  );
  if (signed.status !== 200) throw new Error(`signature answered ${signed.status}: ${JSON.stringify(signed.json)}`);
  const tokens = await exchangeCode(login, await followToCallback(login, signed.json.redirect_to as string));
  return { asked: asked.json, message, held, providerChallenges, tokens };
}

/** A login at A asking for `claim:kyc`, through the consent. */
export async function kycLoginAtA(pair: ProviderPair, owner: LocalAccount, options: Parameters<typeof consentAtA>[2] = {}) {
  const login = await startLogin(pair.a.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  return { login, ...(await consentAtA(login, owner, options)) };
}

export const onchainClaimsOf = (claims: Record<string, unknown>) => claims.onchain_claims as Record<string, unknown>[];
