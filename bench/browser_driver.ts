// The browser's path of a login, request for request: what a person's browser sends when a
// website sends it to Signet (the authorization request, the consent page and the files it
// loads, the challenge and the signature the page's script posts, the redirects back to the
// website), and what the website's server then sends (the token exchange, a userinfo call).
// No real browser: the same HTTP requests public/interaction.js makes, read off the page's HTML.
// Each step can be metered: a meter's counts (JSON-RPC requests by method, say) are read
// before and after it, so at concurrency 1 each step's chain requests are exactly its own.
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { LocalAccount } from 'viem';
import { type BenchClient, Browser, type StepTimes, type Tokens } from './oidc_driver.js';

/** What a browser sends for a page it navigates to. */
const NAVIGATION = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** The page's request for another provider's text, made while the owner reads Signet's (not the owner's wait). */
export const PROVIDER_TEXT_STEP = 'provider text (owner reads)';

/** Counts that only grow (requests by method), read around each step. */
export type StepMeter = { counts(): Record<string, number> };

export type BrowserLoginOutcome = {
  tokens: Tokens;
  /** Wall time of the whole login, the driver's signing included (ms). */
  ms: number;
  times: StepTimes;
  /** HTTP requests sent to Signet, the page's files and the website's token and userinfo calls included. */
  requests: number;
  /** Per step, what the meter counted during it (only counts that moved). */
  metered: Record<string, Record<string, number>>;
};

const b64url = (buffer: Buffer) => buffer.toString('base64url');

const unescapeHtml = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The files the page loads (stylesheet, icon, scripts), in the order the HTML names them; a data: URL is no request. */
export function pageFiles(html: string): string[] {
  const files = [...html.matchAll(/<link\b[^>]*\bhref="([^"]+)"[^>]*>|<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g)].map((match) =>
    unescapeHtml(match[1] ?? match[2]!),
  );
  return [...new Set(files)].filter((file) => !file.startsWith('data:'));
}

/**
 * What interaction.js posts as `fields` when the wallet connects: the profile fields ticked
 * (all are, at first), every claim topic and every verified field asked for.
 */
export function pageFields(html: string): string[] {
  const ticked = [...html.matchAll(/<input\b[^>]*>/g)]
    .map((match) => match[0])
    .filter((tag) => /\bname="fields"/.test(tag) && /\schecked\b/.test(tag))
    .map((tag) => unescapeHtml(/\bvalue="([^"]*)"/.exec(tag)![1]!));
  const topics = [...html.matchAll(/class="claim-topic" data-scope="([^"]+)"/g)].map((match) => unescapeHtml(match[1]!));
  const verified = [...html.matchAll(/class="verified-field" data-field="([^"]+)"/g)].map((match) => unescapeHtml(match[1]!));
  return [...ticked, ...topics, ...verified];
}

function expectStatus(step: string, answer: { status: number; text: string }, status: number) {
  if (answer.status !== status) throw new Error(`${step} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
}

/**
 * One login as a person's browser makes it, the website's server doing its part. `wallet`
 * connects on the page and signs what Signet gives it; the page names no identity and no chain
 * (Signet finds the wallet's identity), as it does unless the person types one.
 */
export async function browserLogin(base: string, client: BenchClient, scope: string, wallet: LocalAccount, meter?: StepMeter): Promise<BrowserLoginOutcome> {
  const started = performance.now();
  const browser = new Browser(base);
  // The website's server: no cookies of the browser's.
  const website = new Browser(base);
  const times: StepTimes = {};
  const metered: Record<string, Record<string, number>> = {};
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const before = meter?.counts();
    const start = performance.now();
    try {
      return await work();
    } finally {
      times[name] = (times[name] ?? 0) + performance.now() - start;
      if (meter && before) {
        metered[name] ??= {};
        const into = metered[name];
        for (const [key, value] of Object.entries(meter.counts())) {
          const moved = value - (before[key] ?? 0);
          if (moved) into[key] = (into[key] ?? 0) + moved;
        }
      }
    }
  };

  // The website sends the browser to the authorization endpoint.
  const verifier = b64url(randomBytes(32));
  const state = b64url(randomBytes(12));
  const params = new URLSearchParams({
    client_id: client.client_id,
    response_type: 'code',
    scope,
    redirect_uri: client.redirect_uri,
    state,
    nonce: b64url(randomBytes(12)),
    code_challenge: b64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  });
  const authorized = await step('authorize', () => browser.send(`/auth?${params}`, { headers: NAVIGATION }));
  expectStatus('authorize', authorized, 303);
  const interactionUrl = authorized.location!;

  // The consent page, then the files it loads, if any.
  const page = await step('consent page', () => browser.send(interactionUrl, { headers: NAVIGATION }));
  expectStatus('consent page', page, 200);
  if (!page.text.includes('id="consent"')) throw new Error(`the consent page is not the consent page: ${page.text.slice(0, 300)}`);
  // It carries its scripts and stylesheet itself; any other file it names, a browser loads in parallel.
  const files = pageFiles(page.text);
  if (files.length) {
    await step('page files', () =>
      Promise.all(
        files.map(async (file) => {
          const answer = await browser.send(file, { headers: { accept: '*/*' } });
          expectStatus(`page file ${file}`, answer, 200);
        }),
      ),
    );
  }
  const uid = /data-uid="([^"]+)"/.exec(page.text)?.[1];
  if (!uid) throw new Error('the consent page names no interaction');
  const interaction = `/interaction/${unescapeHtml(uid)}`;

  // The wallet connects: the page asks for the text to sign (interaction.js, prepare()).
  const challenged = await step('challenge', () =>
    browser.send(`${interaction}/challenge`, { json: { address: wallet.address, fields: pageFields(page.text) } }),
  );
  expectStatus('challenge', challenged, 200);
  const answer = JSON.parse(challenged.text) as { challenge?: string; choose?: unknown; held_elsewhere?: { claim_id: string; second_signature: boolean }[] };
  if (!answer.challenge) throw new Error(`the challenge asked for a choice: ${challenged.text.slice(0, 300)}`);
  const message = answer.challenge;
  // A kept claim whose data another provider holds, the first time: the page asks for that
  // provider's text at once, while the owner reads Signet's (interaction.js, showHeld()).
  const held = (answer.held_elsewhere ?? []).filter((each) => each.second_signature);
  let providerTexts: { claim_id: string; challenge: string }[] = [];
  if (held.length) {
    const asked = await step(PROVIDER_TEXT_STEP, () => browser.send(`${interaction}/provider-challenges`, { json: {} }));
    expectStatus('provider challenges', asked, 200);
    const { challenges } = JSON.parse(asked.text) as { challenges: { claim_id: string; challenge?: string }[] };
    providerTexts = challenges.flatMap((each) => (each.challenge && held.some((one) => one.claim_id === each.claim_id) ? [{ claim_id: each.claim_id, challenge: each.challenge }] : []));
  }
  // The person presses Sign (their time is not counted); the wallet signs Signet's text, then each provider's.
  const signature = await step('wallet signs (driver)', () => wallet.signMessage({ message }));
  const providerSignatures: { claim_id: string; signature: string }[] = [];
  for (const each of providerTexts) {
    providerSignatures.push({ claim_id: each.claim_id, signature: await step('wallet signs (driver)', () => wallet.signMessage({ message: each.challenge })) });
  }
  const signed = await step('signature', () =>
    browser.send(`${interaction}/signature`, { json: { signature, message, ...(providerSignatures.length ? { provider_signatures: providerSignatures } : {}) } }),
  );
  expectStatus('signature', signed, 200);

  // window.location.assign(redirect_to): through the engine back to the website's redirect URI.
  let next = (JSON.parse(signed.text) as { redirect_to: string }).redirect_to;
  let callback: URL | undefined;
  for (let hop = 0; hop < 5 && !callback; hop++) {
    const resumed = await step('resume', () => browser.send(next, { headers: NAVIGATION }));
    expectStatus('resume', resumed, 303);
    next = resumed.location!;
    if (next.startsWith(client.redirect_uri)) callback = new URL(next);
  }
  if (!callback) throw new Error(`the redirects did not reach the website: ${next}`);
  const code = callback.searchParams.get('code');
  if (!code || callback.searchParams.get('state') !== state) throw new Error(`the website got no code for its state: ${callback.href}`);

  // The website's server: the code for tokens, then the person's claims.
  const token = await step('token', () =>
    website.send('/token', {
      form: { grant_type: 'authorization_code', code, redirect_uri: client.redirect_uri, code_verifier: verifier },
      headers: { authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}` },
    }),
  );
  expectStatus('token', token, 200);
  const tokens = JSON.parse(token.text) as Tokens;
  const info = await step('userinfo', () => website.send('/me', { headers: { authorization: `Bearer ${tokens.access_token}` } }));
  expectStatus('userinfo', info, 200);
  if (!(JSON.parse(info.text) as { sub?: string }).sub) throw new Error(`userinfo named no subject: ${info.text.slice(0, 300)}`);
  return { tokens, ms: performance.now() - started, times, requests: browser.requests + website.requests, metered };
}
