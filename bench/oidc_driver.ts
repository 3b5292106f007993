// The load driver's scripted OIDC client: a cookie jar and the requests of a login, each
// step timed. It talks to the server's port directly; the issuer's https URLs are mapped
// onto it, with X-Forwarded-Proto telling the server it sits behind TLS.
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { LocalAccount } from 'viem';

export type BenchClient = { client_id: string; client_secret: string; redirect_uri: string };

export type StepTimes = Record<string, number>;

const b64url = (buffer: Buffer) => buffer.toString('base64url');

export class Browser {
  private readonly cookies = new Map<string, string>();
  requests = 0;
  constructor(private readonly base: string) {}

  /** The local URL for a path or an absolute URL of the issuer. */
  private local(url: string): string {
    const parsed = new URL(url, 'https://issuer.invalid');
    return `${this.base}${parsed.pathname}${parsed.search}`;
  }

  async send(url: string, init: { method?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { 'x-forwarded-proto': 'https', accept: 'application/json', ...init.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    this.requests++;
    const response = await fetch(this.local(url), { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    return { status: response.status, location: response.headers.get('location') ?? undefined, text };
  }
}

async function timed<T>(times: StepTimes, step: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    times[step] = (times[step] ?? 0) + performance.now() - start;
  }
}

function expectStatus(step: string, answer: { status: number; text: string }, status: number) {
  if (answer.status !== status) throw new Error(`${step} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
}

export type Tokens = { access_token: string; refresh_token?: string; id_token: string };

/** authorize → (the login's own steps) → resume → token; `interact` runs the login's steps from the interaction URL. */
async function codeFlow(
  base: string,
  client: BenchClient,
  scope: string,
  interact: (browser: Browser, interactionUrl: string, times: StepTimes) => Promise<string>,
): Promise<{ tokens: Tokens; times: StepTimes; requests: number }> {
  const browser = new Browser(base);
  const times: StepTimes = {};
  const verifier = b64url(randomBytes(32));
  const params = new URLSearchParams({
    client_id: client.client_id,
    response_type: 'code',
    scope,
    redirect_uri: client.redirect_uri,
    state: b64url(randomBytes(12)),
    nonce: b64url(randomBytes(12)),
    code_challenge: b64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  });
  const authorized = await timed(times, 'authorize', () => browser.send(`/auth?${params}`));
  expectStatus('authorize', authorized, 303);
  const resumeUrl = await interact(browser, authorized.location!, times);
  const resumed = await timed(times, 'resume', () => browser.send(resumeUrl));
  expectStatus('resume', resumed, 303);
  const code = new URL(resumed.location!).searchParams.get('code');
  if (!code) throw new Error(`resume gave no code: ${resumed.location}`);
  const token = await timed(times, 'token', () =>
    browser.send('/token', {
      form: { grant_type: 'authorization_code', code, redirect_uri: client.redirect_uri, code_verifier: verifier },
      headers: { authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}` },
    }),
  );
  expectStatus('token', token, 200);
  return { tokens: JSON.parse(token.text) as Tokens, times, requests: browser.requests };
}

/**
 * Signet's login: challenge, the wallet signs (in the driver, not counted as server time),
 * signature. Without `identity` as the consent page sends it (Signet finds the wallet's); with
 * it as a wallet SDK does.
 */
export function signetLogin(base: string, client: BenchClient, scope: string, wallet: LocalAccount, identity?: string) {
  return codeFlow(base, client, scope, async (browser, interactionUrl, times) => {
    const body = identity ? { address: wallet.address, identity } : { address: wallet.address };
    const challenged = await timed(times, 'challenge', () => browser.send(`${interactionUrl}/challenge`, { json: body }));
    expectStatus('challenge', challenged, 200);
    const message = (JSON.parse(challenged.text) as { challenge: string }).challenge;
    const signature = await timed(times, 'wallet signs (driver)', () => wallet.signMessage({ message }));
    const signed = await timed(times, 'signature', () => browser.send(`${interactionUrl}/signature`, { json: { signature, message } }));
    expectStatus('signature', signed, 200);
    return (JSON.parse(signed.text) as { redirect_to: string }).redirect_to;
  });
}

/** The engine floor's login: its interaction finishes at once for a fixed account. */
export function floorLogin(base: string, client: BenchClient, scope: string) {
  return codeFlow(base, client, scope, async (browser, interactionUrl, times) => {
    const finished = await timed(times, 'interaction', () => browser.send(interactionUrl));
    expectStatus('interaction', finished, 303);
    return finished.location!;
  });
}

export async function refresh(base: string, client: BenchClient, refreshToken: string): Promise<Tokens> {
  const answer = await new Browser(base).send('/token', {
    form: { grant_type: 'refresh_token', refresh_token: refreshToken },
    headers: { authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}` },
  });
  expectStatus('refresh', answer, 200);
  return JSON.parse(answer.text) as Tokens;
}

export async function userinfo(base: string, accessToken: string): Promise<void> {
  const answer = await new Browser(base).send('/me', { headers: { authorization: `Bearer ${accessToken}` } });
  expectStatus('userinfo', answer, 200);
}

/** A resource read with an access token (a claim resource of the identity that logged in). */
export async function resourceRead(base: string, path: string, accessToken: string): Promise<void> {
  const answer = await new Browser(base).send(path, { headers: { authorization: `Bearer ${accessToken}` } });
  expectStatus('resource read', answer, 200);
}
