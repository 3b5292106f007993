// The engine's `fetch` (oidc-provider fetches a client's jwks_uri and sector_identifier_uri
// itself): every hop checked by the URL guard before anything connects, the socket pinned to the
// address the check approved, redirects followed by hand, hop by hop, each hop checked as the
// first. The engine's own timeout (its AbortSignal) and body limits (it reads the body) still
// hold. A URL the operator configured (CLIENTS) is trusted as a webhook URL of theirs is.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { type DialAddress, requestPinned } from './pinned_request.js';
import type { UrlGuard } from './url_guard.js';

export type GuardedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export type GuardedFetchDeps = {
  guard: UrlGuard;
  /** URLs the operator configured: reached without the check (each redirect hop from them is checked). */
  trusted?: (href: string) => boolean;
  /** Tests only: where the socket for an approved address goes (pinned_request.ts). */
  dial?: DialAddress;
};

/** Redirects a browser's fetch would follow; more than MAX_REDIRECTS of them end the fetch. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
/** Answers that carry no body (a Response refuses one for them). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** A request's headers as node:http takes them. */
function headersOf(init: HeadersInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(init).entries());
}

/** A request body as node:http sends it: what the engine sends (text, a form, bytes), nothing else. */
function bodyOf(body: BodyInit | null | undefined): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return body;
  throw new TypeError('the guarded fetch sends a string, a form or bytes as a body');
}

/** The node answer as a fetch Response, its body streamed (the engine reads it under its limits). */
function responseOf(message: IncomingMessage, method: string): Response {
  const status = message.statusCode ?? 0;
  try {
    const headers = new Headers();
    for (let i = 0; i + 1 < message.rawHeaders.length; i += 2) headers.append(message.rawHeaders[i]!, message.rawHeaders[i + 1]!);
    const empty = NULL_BODY.has(status) || method === 'HEAD';
    if (empty) message.destroy();
    const body = empty ? null : (Readable.toWeb(message) as ReadableStream<Uint8Array>);
    return new Response(body, { status, statusText: message.statusMessage ?? '', headers });
  } catch (error) {
    // A status a Response cannot carry (below 200, above 599) or a header it cannot hold.
    message.destroy();
    throw error;
  }
}

export function createGuardedFetch(deps: GuardedFetchDeps): GuardedFetch {
  return async (input, init = {}) => {
    if (input instanceof Request) throw new TypeError('the guarded fetch takes a URL and its init, not a Request');
    const signal = init.signal ?? undefined;
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = headersOf(init.headers);
    const body = bodyOf(init.body);
    const redirect = init.redirect ?? 'follow';
    // A body is never sent on to another URL: only bodiless requests follow redirects.
    const follows = redirect === 'follow' && body === undefined;
    let url = new URL(input);
    for (let hops = 0; ; hops++) {
      const pinned = deps.trusted?.(url.href) ? undefined : await deps.guard.check(url.href, { what: '', signal });
      const message = await requestPinned(url, { method, headers, body, signal, pinned, dial: deps.dial });
      const location = message.headers.location;
      if (!REDIRECTS.has(message.statusCode ?? 0) || location === undefined) return responseOf(message, method);
      if (redirect === 'error') {
        message.destroy();
        throw new TypeError(`${url.origin} answered a redirect, which this fetch may not follow`);
      }
      // "manual", or a request with a body: the caller gets the redirect itself.
      if (!follows) return responseOf(message, method);
      message.destroy();
      if (hops >= MAX_REDIRECTS) throw new TypeError(`more than ${MAX_REDIRECTS} redirects`);
      const next = new URL(location, url);
      // What was asked over TLS is not read in clear text.
      if (url.protocol === 'https:' && next.protocol !== 'https:') throw new TypeError('a redirect from https to another scheme is not followed');
      url = next;
    }
  };
}
