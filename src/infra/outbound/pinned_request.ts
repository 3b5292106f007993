// One outgoing HTTP request over node:http(s). With a pinned address the socket connects to that
// address (a custom lookup), while the Host header and TLS name checks keep the URL's host name.
// No redirect is followed here and no connection is reused (a pooled socket would skip the
// lookup that pins the address).
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './url_guard.js';

/**
 * Where the socket for an approved address really goes: the address itself, always, in Signet.
 * Tests stand a local server in for a public address with it (the internet as a test plays it);
 * the check has already approved the public address by then, and is not touched.
 */
export type DialAddress = (approved: ResolvedAddress) => ResolvedAddress;

export type PinnedRequest = {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** The address the check approved; none for a URL the operator configured (trusted). */
  pinned?: ResolvedAddress;
  dial?: DialAddress;
};

function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    // Node asks for every address (`all`) when it may try several families; answer with the one.
    if ((options as { all?: boolean }).all) (callback as (error: null, addresses: ResolvedAddress[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** The answer's head, its body still to read (or to destroy). */
export function requestPinned(url: URL, init: PinnedRequest): Promise<IncomingMessage> {
  const headers = init.body === undefined ? init.headers : { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) };
  const options: RequestOptions = {
    method: init.method,
    headers,
    agent: false,
    signal: init.signal,
    ...(init.pinned ? { lookup: pinnedLookup(init.dial ? init.dial(init.pinned) : init.pinned) } : {}),
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, options, resolve);
    request.on('error', reject);
    request.end(init.body);
  });
}

export type PostAnswer = { status: number; statusText: string };

/** A webhook's POST: only the status matters, the body is not read. */
export async function postPinned(
  url: string,
  init: { headers: Record<string, string>; body: string; signal: AbortSignal; pinned?: ResolvedAddress },
): Promise<PostAnswer> {
  const response = await requestPinned(new URL(url), { method: 'POST', ...init });
  // Dropping the socket frees it.
  response.destroy();
  return { status: response.statusCode ?? 0, statusText: response.statusMessage ?? '' };
}
