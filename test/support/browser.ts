// A real browser for end-to-end tests: Debian's Chromium driven by playwright-core (never a
// downloaded browser), an EIP-1193 wallet injected into pages and backed by a viem local
// account in the test process, and a watch on console errors, page errors and CSP violations.
import { type Browser, chromium, type Page } from 'playwright-core';
import { type Address, type Hex, hexToString, isAddress, isHex, type LocalAccount } from 'viem';
import type { TestChain } from './test_chain.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Launches headless Chromium with a fresh temporary profile (playwright's default). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/**
 * A fresh browser (and temporary profile) for each test of the file, launched and closed by the
 * hooks this registers: Chromium remembers things per browser, such as a favicon that failed to
 * load, so a shared one would make a test's console depend on the tests before it. Gives the
 * running test's browser.
 */
export function browserForEachTest(): () => Browser {
  let browser: Browser | undefined;
  beforeEach(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });
  return () => {
    if (!browser) throw new Error('no browser outside a test');
    return browser;
  };
}

export type PageProblems = {
  /** Every problem seen so far, each with the URL of the page it happened on. */
  all: { url: string; kind: 'console' | 'pageerror' | 'csp'; text: string }[];
  /** The problems seen on pages whose URL starts with the given prefix. */
  on(prefix: string): string[];
};

/**
 * Records console errors, uncaught page errors and CSP violations (from the document's
 * `securitypolicyviolation` events, so they are caught even if the console stays quiet).
 * Call before the first navigation.
 */
export async function watchProblems(page: Page): Promise<PageProblems> {
  const all: PageProblems['all'] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const source = message.location().url;
    all.push({ url: page.url(), kind: 'console', text: source ? `${message.text()} [${source}]` : message.text() });
  });
  page.on('pageerror', (error) => all.push({ url: page.url(), kind: 'pageerror', text: String(error) }));
  await page.exposeFunction('signetTestCspViolation', (url: string, text: string) => {
    all.push({ url, kind: 'csp', text });
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { signetTestCspViolation?: (url: string, text: string) => void }).signetTestCspViolation;
      report?.(document.location.href, `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  return {
    all,
    on: (prefix) => all.filter((problem) => problem.url.startsWith(prefix)).map((problem) => `${problem.kind}: ${problem.text}`),
  };
}

export type InjectedWallet = {
  /** The texts the page asked the wallet to sign, in order. */
  signed: string[];
  /** The transactions the page asked the wallet to send, in order, with their hashes. */
  sent: { from: Address; to: Address; data: Hex; hash: Hex }[];
  /** The account the wallet holds now. */
  readonly account: LocalAccount;
  /** Holds another account from now on: the page sees it on its next request. */
  use(account: LocalAccount): void;
  /** The chains the page asked the wallet to switch to (wallet_switchEthereumChain), in order. */
  switches: number[];
  /** Every method the page called, in order. */
  calls: string[];
};

export type InjectWalletOptions = {
  /**
   * The chain eth_sendTransaction sends to, from the held account (the test chain's
   * `as(account)` wallet client). Without it the wallet refuses eth_sendTransaction.
   */
  chain?: Pick<TestChain, 'as'>;
  /** Announce the wallet by EIP-6963 under this name (several wallets can then be injected). */
  announce?: { name: string; rdns: string };
  /** Also define `window.ethereum` (default true; the last wallet injected wins it). */
  windowEthereum?: boolean;
  /** The chain the wallet starts on (default: `chainId`); wallet_switchEthereumChain moves it. */
  startChainId?: number;
};

let injectedWallets = 0;

type WalletAnswer = { result: unknown } | { error: { code: number; message: string } };

/**
 * Defines `window.ethereum` (and, if asked, an EIP-6963 announcement) before any page script
 * runs: eth_requestAccounts, eth_accounts, eth_chainId, wallet_switchEthereumChain,
 * personal_sign and (given a chain) eth_sendTransaction. Every request is
 * answered in Node: signatures by the viem account, transactions sent with a viem wallet
 * client for it, so the wallet can switch accounts while the page stays open.
 */
export async function injectWallet(page: Page, account: LocalAccount, chainId: number, options: InjectWalletOptions = {}): Promise<InjectedWallet> {
  let current = account;
  let onChain = options.startChainId ?? chainId;
  const signed: string[] = [];
  const sent: InjectedWallet['sent'] = [];
  const switches: number[] = [];
  const calls: string[] = [];
  const refuse = (code: number, message: string): WalletAnswer => ({ error: { code, message } });
  const holds = (from: unknown) => typeof from === 'string' && from.toLowerCase() === current.address.toLowerCase();

  const answer = async (method: string, params: unknown[]): Promise<WalletAnswer> => {
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { result: [current.address] };
      case 'eth_chainId':
        return { result: `0x${onChain.toString(16)}` };
      case 'wallet_switchEthereumChain': {
        const asked = Number.parseInt(String((params[0] as { chainId?: unknown } | undefined)?.chainId), 16);
        // The wallet knows only its starting chain and the test chain (4902: unknown chain).
        if (asked !== chainId && asked !== options.startChainId) return refuse(4902, `unrecognized chain id ${asked}`);
        switches.push(asked);
        onChain = asked;
        return { result: null };
      }
      case 'personal_sign': {
        const [message, from] = params;
        if (typeof message !== 'string') return refuse(-32602, 'personal_sign needs the message as params[0]');
        if (!holds(from)) return refuse(4100, `personal_sign asked for account ${String(from)}, the wallet holds ${current.address}`);
        const text = isHex(message) ? hexToString(message) : message;
        signed.push(text);
        return { result: await current.signMessage({ message: text }) };
      }
      case 'eth_sendTransaction': {
        if (!options.chain) return refuse(4200, 'the test wallet was given no chain to send transactions to');
        const tx = params[0] as { from?: unknown; to?: unknown; data?: unknown } | undefined;
        if (!tx || !isAddress(String(tx.to)) || (tx.data !== undefined && !isHex(tx.data))) {
          return refuse(-32602, 'eth_sendTransaction needs { from, to, data } as params[0]');
        }
        if (!holds(tx.from)) return refuse(4100, `eth_sendTransaction asked for account ${String(tx.from)}, the wallet holds ${current.address}`);
        if (onChain !== chainId) return refuse(4901, `the wallet is on chain ${onChain}, not the test chain ${chainId}`);
        const { wallet } = options.chain.as(current);
        const to = tx.to as Address;
        const data = (tx.data ?? '0x') as Hex;
        const hash = await wallet.sendTransaction({ to, data, account: current, chain: wallet.chain });
        sent.push({ from: current.address, to, data, hash });
        return { result: hash };
      }
      default:
        return refuse(4200, `the test wallet does not support ${method}`);
    }
  };

  const bridge = `signetTestWallet${injectedWallets++}`;
  await page.exposeFunction(bridge, async (method: string, params: unknown[]) => {
    calls.push(method);
    try {
      return await answer(method, params);
    } catch (error) {
      return refuse(-32603, error instanceof Error ? error.message : String(error));
    }
  });
  await page.addInitScript(
    ({ bridge, announce, windowEthereum }) => {
      const ask = (window as unknown as Record<string, (method: string, params: unknown[]) => Promise<WalletAnswer>>)[bridge]!;
      const provider = {
        isSignetTestWallet: true,
        async request({ method, params }: { method: string; params?: unknown[] }) {
          const answer = await ask(method, params ?? []);
          if ('error' in answer) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
          return answer.result;
        },
      };
      if (windowEthereum) (window as unknown as { ethereum: unknown }).ethereum = provider;
      if (announce) {
        // EIP-6963: announce now, and again whenever a page asks.
        const info = Object.freeze({
          uuid: crypto.randomUUID(),
          name: announce.name,
          rdns: announce.rdns,
          icon: 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E',
        });
        const detail = Object.freeze({ info, provider });
        const send = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
        window.addEventListener('eip6963:requestProvider', send);
        send();
      }
    },
    { bridge, announce: options.announce, windowEthereum: options.windowEthereum ?? true },
  );
  return {
    signed,
    sent,
    switches,
    calls,
    get account() {
      return current;
    },
    use(next) {
      current = next;
    },
  };
}

/**
 * Answers every request to a relying party's origin (not a real server) with a small page,
 * and records the documents the browser was sent there.
 *
 * This uses Chromium's Fetch domain directly rather than page.route(): Signet sends the
 * browser to the website with an HTTP redirect (303 from the engine's /auth/:uid), and
 * playwright's route handlers are only called for the first URL of a redirect chain, so a
 * page.route('https://website.example/**') handler never sees the callback and Chromium
 * fails with ERR_NAME_NOT_RESOLVED. Fetch interception pauses every request matching the
 * pattern, redirected ones included. Do not combine with page.route() on the same page.
 */
export async function fakeWebsite(page: Page, origin: string): Promise<{ visits: URL[] }> {
  const visits: URL[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Fetch.requestPaused', (event) => {
    if (event.resourceType === 'Document') visits.push(new URL(event.request.url));
    const body =
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Website</title><link rel="icon" href="data:,"></head><body><p>Back on the website.</p></body></html>';
    cdp
      .send('Fetch.fulfillRequest', {
        requestId: event.requestId,
        responseCode: 200,
        responseHeaders: [{ name: 'Content-Type', value: 'text/html; charset=utf-8' }],
        body: Buffer.from(body).toString('base64'),
      })
      .catch(() => {}); // the page may already be gone
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: `${origin}/*`, requestStage: 'Request' }] });
  return { visits };
}
