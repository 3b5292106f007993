// A real browser for end-to-end tests: Debian's Chromium driven by playwright-core (never a
// downloaded browser), an EIP-1193 wallet injected into pages and backed by a viem local
// account in the test process, and a watch on console errors, page errors and CSP violations.
import { chromium, type Browser, type Page } from 'playwright-core';
import { hexToString, isHex, type LocalAccount } from 'viem';

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
      report?.(
        document.location.href,
        `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
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
};

/**
 * Defines `window.ethereum` before any page script runs: eth_requestAccounts, eth_accounts,
 * eth_chainId and personal_sign, the signature made in Node by the viem account.
 */
export async function injectWallet(page: Page, account: LocalAccount, chainId: number): Promise<InjectedWallet> {
  const signed: string[] = [];
  await page.exposeFunction('signetTestSign', async (message: string) => {
    const text = isHex(message) ? hexToString(message) : message;
    signed.push(text);
    return account.signMessage({ message: text });
  });
  await page.addInitScript(
    ({ address, chainIdHex }) => {
      const sign = (message: string) =>
        (window as unknown as { signetTestSign: (message: string) => Promise<string> }).signetTestSign(message);
      const refuse = (code: number, message: string) => Object.assign(new Error(message), { code });
      (window as unknown as { ethereum: unknown }).ethereum = {
        isSignetTestWallet: true,
        async request({ method, params }: { method: string; params?: unknown[] }) {
          switch (method) {
            case 'eth_requestAccounts':
            case 'eth_accounts':
              return [address];
            case 'eth_chainId':
              return chainIdHex;
            case 'personal_sign': {
              const [message, from] = (params ?? []) as [unknown, unknown];
              if (typeof message !== 'string') throw refuse(-32602, 'personal_sign needs the message as params[0]');
              if (typeof from !== 'string' || from.toLowerCase() !== address.toLowerCase()) {
                throw refuse(4100, `personal_sign asked for account ${String(from)}, the wallet holds ${address}`);
              }
              return sign(message);
            }
            default:
              throw refuse(4200, `the test wallet does not support ${method}`);
          }
        },
      };
    },
    { address: account.address, chainIdHex: `0x${chainId.toString(16)}` },
  );
  return { signed };
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
    const body = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Website</title><link rel="icon" href="data:,"></head><body><p>Back on the website.</p></body></html>';
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
