// The HTTP client under viem's JSON-RPC transport: node:http(s) on keep-alive agents, with the
// part of fetch that transport uses (method, headers, body, signal; ok, status, headers.get,
// text). Node's fetch (undici) cost about 1.6 ms of CPU per login for two small RPC calls in
// the bench's profile (docs/performance.md), most of it in WHATWG streams and Request/Response
// objects that a JSON-RPC body of a few hundred bytes does not need. A call may also carry a
// deadline (chain_client.ts: its own timeout or the running request's chain budget, whichever
// ends first): one timer ends it, where composing signals per call cost about as much CPU as the
// call's own HTTP work.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** A larger answer is refused: no call Signet makes comes near it (viem's own default bound). */
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

// One connection pool per process and scheme: calls reuse warm sockets to the RPC node.
const agents = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 64 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 64 }),
};

/** The answer as viem's transport reads it. */
function responseOf(message: IncomingMessage, body: string): Response {
  const status = message.statusCode ?? 0;
  const response = {
    ok: status >= 200 && status < 300,
    status,
    statusText: message.statusMessage ?? '',
    headers: {
      get: (name: string) => {
        const value = message.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    body: null,
    text: async () => body,
    json: async () => JSON.parse(body) as unknown,
  };
  return response as unknown as Response;
}

function headersOf(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(headers);
  return headers as Record<string, string>;
}

/** Connection errors of a pooled socket that the RPC node (or its load balancer) had closed. */
const STALE_SOCKET_ERRORS = new Set(['ECONNRESET', 'EPIPE']);

/** What a call that outlived its deadline fails with: a timeout, as an aborted fetch's. */
const deadlinePassed = () => new DOMException('no answer from the chain before the call deadline (its timeout or the request chain budget)', 'TimeoutError');

type Attempt = { url: URL; init: RequestInit; pooled: boolean; deadline?: number };

function send({ url, init, pooled, deadline }: Attempt): Promise<Response> {
  return new Promise<Response>((resolveCall, rejectCall) => {
    const left = deadline === undefined ? undefined : deadline - Date.now();
    if (left !== undefined && left <= 0) return rejectCall(deadlinePassed());
    // Set once the request exists (building it can throw, and then there is nothing to end).
    let timer: NodeJS.Timeout | undefined;
    const resolve = (response: Response) => {
      clearTimeout(timer);
      resolveCall(response);
    };
    const reject = (error: unknown) => {
      clearTimeout(timer);
      rejectCall(error);
    };
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: init.method ?? 'GET',
        headers: headersOf(init.headers),
        // A retry goes out on a connection of its own, never on another pooled one.
        agent: pooled ? agents[url.protocol as keyof typeof agents] : false,
        signal: init.signal ?? undefined,
      },
      (message) => {
        const chunks: Buffer[] = [];
        let size = 0;
        message.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) message.destroy(new Error(`the RPC answer is over ${MAX_RESPONSE_BYTES} bytes`));
          else chunks.push(chunk);
        });
        message.on('end', () => resolve(responseOf(message, Buffer.concat(chunks).toString('utf8'))));
        message.on('error', reject);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive connection the other side closed just as it was reused: the request never
      // reached the node, so it is sent once more on a new connection (Node's documented
      // pattern for `reusedSocket`). Any other failure is the caller's to see.
      if (pooled && request.reusedSocket && STALE_SOCKET_ERRORS.has(error.code ?? '') && !init.signal?.aborted) {
        send({ url, init, pooled: false, deadline }).then(resolve, reject);
      } else {
        reject(error);
      }
    });
    if (left !== undefined) timer = setTimeout(() => request.destroy(deadlinePassed()), left);
    request.end(typeof init.body === 'string' ? init.body : undefined);
  });
}

/** fetch for JSON-RPC calls; `deadline` (epoch ms): the call fails with a TimeoutError then. */
export async function rpcFetch(input: string | URL | Request, init: RequestInit = {}, deadline?: number): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`no HTTP(S) URL: ${url.protocol}`);
  return send({ url, init, pooled: true, deadline });
}
