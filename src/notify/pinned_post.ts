// One webhook POST over node:http(s). With a pinned address the socket connects to that address
// (a custom lookup), while the Host header and TLS name checks keep the URL's host name. No
// redirect is followed, no connection is reused, and the answer's body is not read.
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './webhook_url_guard.js';

export type PostAnswer = { status: number; statusText: string };

function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    // Node asks for every address (`all`) when it may try several families; answer with the one.
    if ((options as { all?: boolean }).all) (callback as (error: null, addresses: ResolvedAddress[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export function postPinned(
  url: string,
  init: { headers: Record<string, string>; body: string; signal: AbortSignal; pinned?: ResolvedAddress },
): Promise<PostAnswer> {
  const target = new URL(url);
  const options: RequestOptions = {
    method: 'POST',
    headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
    // A fresh connection each time: a pooled socket would skip the lookup that pins the address.
    agent: false,
    signal: init.signal,
    ...(init.pinned ? { lookup: pinnedLookup(init.pinned) } : {}),
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(target, options, (response) => {
      resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '' });
      // Only the status matters; dropping the socket frees it.
      response.destroy();
    });
    request.on('error', reject);
    request.end(init.body);
  });
}
