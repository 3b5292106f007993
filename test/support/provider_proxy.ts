// An HTTP JSON-RPC proxy in front of the test anvil that behaves like a commercial RPC provider,
// switched at run time by the test: latency, eth_getLogs caps on block range and on results
// (refused with a chosen provider's real error, test/support/provider_errors.ts), rate limiting
// (429 with Retry-After), a failing gateway, a dead port, a silent one, and a chain without
// Multicall3. Its URL carries a fake API key in the path, as providers' do, so a test can check
// the key never leaks into logs or metrics.
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { MULTICALL3_ADDRESS } from '../../src/infra/chain/multicall3.js';
import { type ProviderAnswer, type ProviderName, providerError, providerErrorRow } from './provider_errors.js';
import { listenOn, stopListening as stopServer } from './server_listening.js';
import { sleepAtLeast } from './wait_until.js';

export type ProviderBehaviour = {
  /** Added before each answer (ms). */
  latencyMs: number;
  /** eth_getLogs asking more than this many blocks (toBlock - fromBlock + 1) is refused with `limitStyle`'s error; undefined: no cap. */
  maxLogBlocks?: number;
  /** eth_getLogs whose answer holds more than this many logs is refused with `limitStyle`'s result-size error. */
  maxLogResults?: number;
  /** Which provider's real error the caps (and rate limiting) answer with. */
  limitStyle: ProviderName;
  /** Every request answers this HTTP status (500, 502, 503) with a short body; undefined: none. */
  failStatus?: number;
  /** 'dead': the port refuses connections; 'silent': connections accepted, never answered; 'up': normal. */
  state: 'up' | 'dead' | 'silent';
  /** eth_getCode at Multicall3's address and eth_call to it answer "0x", as on a chain without the contract. */
  hideMulticall3: boolean;
};

export type ProviderAnswered = 'forwarded' | 'limited' | 'rate_limited' | 'failed' | 'silent' | 'multicall_hidden';
export type ProviderRequest = { method: string; params: unknown; at: number; answered: ProviderAnswered };

export type ProviderProxy = {
  /** http://127.0.0.1:<port>/v2/<FAKE_API_KEY> */
  url: string;
  port: number;
  /** 'dead' stops listening (connections refused) and cuts open ones; 'up' listens again on the same port. */
  set(change: Partial<ProviderBehaviour>): Promise<void>;
  /** The next `count` HTTP requests answer 429 with `Retry-After: retryAfterSeconds`. */
  rateLimitNext(count: number, retryAfterSeconds: number): void;
  /** Requests received per JSON-RPC method (each member of a batch), since start or the last reset. */
  counts(): Record<string, number>;
  /** Every request received, in order. */
  log(): ReadonlyArray<ProviderRequest>;
  /** Clears counts and log. */
  reset(): void;
  close(): Promise<void>;
};

/** The API key in the proxy's URL: a test checks it never shows up where it should not. */
export const FAKE_API_KEY = 'sk_test_SECRETKEY123';

type RpcCall = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown };
type RpcAnswer = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: unknown };
/** One member of a request, and how it was answered (or is to be, once forwarded). */
type Member = { call: RpcCall; method: string; answer?: RpcAnswer; answered: ProviderAnswered };

const DEFAULTS: ProviderBehaviour = { latencyMs: 0, limitStyle: 'alchemy', state: 'up', hideMulticall3: false };
/** Where the style has no rate-limit answer on record: the bare HTTP meaning. */
const GENERIC_RATE_LIMIT = { code: 429, message: 'Too Many Requests' };
const FAILURE_TEXT: Record<number, string> = { 500: 'internal server error', 502: 'bad gateway', 503: 'service unavailable', 504: 'gateway timeout' };

export async function startProviderProxy(upstreamUrl: string, options: Partial<ProviderBehaviour> = {}): Promise<ProviderProxy> {
  const upstream = new URL(upstreamUrl);
  const upstreamAgent = new Agent({ keepAlive: true });
  let behaviour: ProviderBehaviour = checked({ ...DEFAULTS, ...options });
  let rateLimited = { remaining: 0, retryAfterSeconds: 0 };
  let counts: Record<string, number> = {};
  let received: ProviderRequest[] = [];
  const sockets = new Set<Socket>();
  /** Sockets whose request is being held unanswered (state 'silent'). */
  const held = new Set<Socket>();

  const server: Server = createServer((request, response) => {
    void handle(request, response).catch(() => response.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      held.delete(socket);
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const parsed = parseJson(body);
    const batch = Array.isArray(parsed);
    const members: Member[] = (batch ? parsed : [parsed]).map((call: unknown) => {
      const rpc = (call && typeof call === 'object' ? call : {}) as RpcCall;
      return { call: rpc, method: typeof rpc.method === 'string' ? rpc.method : '(unreadable)', answered: 'forwarded' };
    });
    const record = () => {
      const at = Date.now();
      for (const member of members) {
        counts[member.method] = (counts[member.method] ?? 0) + 1;
        received.push({ method: member.method, params: member.call.params, at, answered: member.answered });
      }
    };

    if (behaviour.state === 'silent') {
      for (const member of members) member.answered = 'silent';
      record();
      held.add(request.socket);
      return;
    }
    await sleepAtLeast(behaviour.latencyMs);

    if (behaviour.failStatus !== undefined) {
      for (const member of members) member.answered = 'failed';
      record();
      const status = behaviour.failStatus;
      return send(response, status, FAILURE_TEXT[status] ?? 'upstream failed', 'text/plain');
    }
    if (rateLimited.remaining > 0) {
      rateLimited.remaining--;
      for (const member of members) member.answered = 'rate_limited';
      record();
      const error = rateLimitBody(behaviour.limitStyle);
      const first = members[0]?.call;
      return send(response, 429, JSON.stringify({ jsonrpc: '2.0', id: first?.id ?? null, error }), 'application/json', {
        'retry-after': String(rateLimited.retryAfterSeconds),
      });
    }

    let status = 200;
    try {
      for (const member of members) status = Math.max(status, (await answerLocally(member)) ?? 200);
      const toForward = members.filter((member) => !member.answer);
      if (toForward.length > 0) {
        // A single request goes upstream as it came; a batch goes as the members still unanswered.
        const answers = await forward(batch ? JSON.stringify(toForward.map((member) => member.call)) : body);
        const list = (Array.isArray(answers) ? answers : [answers]) as RpcAnswer[];
        toForward.forEach((member, index) => {
          member.answer = list.find((answer) => answer && answer.id === member.call.id && member.call.id !== undefined) ?? list[index];
        });
        for (const member of toForward) status = Math.max(status, (await capResults(member)) ?? 200);
      }
    } catch {
      for (const member of members) member.answered = 'failed';
      record();
      return send(response, 502, 'bad gateway', 'text/plain');
    }
    record();
    // A refusal that providers answer with an error status (Alchemy 400, QuickNode 413) keeps it
    // for a single request; a batch stays a 200 holding each member's answer.
    const answers = members.map((member) => member.answer);
    send(response, batch ? 200 : status, JSON.stringify(batch ? answers : answers[0]), 'application/json');
  }

  /** Answers what the proxy answers itself (hidden Multicall3, a block range over the cap); the HTTP status it wants. */
  async function answerLocally(member: Member): Promise<number | undefined> {
    const { call } = member;
    if (behaviour.hideMulticall3 && hitsMulticall3(call)) {
      member.answer = { jsonrpc: '2.0', id: call.id, result: '0x' };
      member.answered = 'multicall_hidden';
      return undefined;
    }
    return capRange(member);
  }

  /** The block range cap; block tags are resolved against the chain's head. */
  async function capRange(member: Member): Promise<number | undefined> {
    if (member.method !== 'eth_getLogs' || behaviour.maxLogBlocks === undefined) return undefined;
    const filter = firstParam(member.call);
    if (!filter || filter.blockHash !== undefined) return undefined;
    const from = await blockOf(filter.fromBlock);
    const to = await blockOf(filter.toBlock);
    const max = behaviour.maxLogBlocks;
    if (to - from + 1n <= BigInt(max)) return undefined;
    return refuse(member, 'range', { from, to, max, suggestTo: from + BigInt(max) - 1n });
  }

  /** The result cap, on the answer upstream gave. */
  async function capResults(member: Member): Promise<number | undefined> {
    const logs = member.answer?.result;
    if (member.method !== 'eth_getLogs' || behaviour.maxLogResults === undefined || !Array.isArray(logs)) return undefined;
    const max = behaviour.maxLogResults;
    if (logs.length <= max) return undefined;
    const filter = firstParam(member.call);
    const from = await blockOf(filter?.fromBlock);
    const to = await blockOf(filter?.toBlock);
    // The widest range from `from` whose logs stay within the cap: up to the block before the first log past it.
    const firstPast = BigInt((logs[max] as { blockNumber: string }).blockNumber);
    return refuse(member, 'results', { from, to, max, suggestTo: firstPast > from ? firstPast - 1n : from });
  }

  function refuse(member: Member, kind: 'range' | 'results', context: Parameters<typeof providerError>[2]): number {
    const { httpStatus, body }: ProviderAnswer = providerError(behaviour.limitStyle, kind, context);
    member.answer = { jsonrpc: '2.0', id: member.call.id, error: body };
    member.answered = 'limited';
    return httpStatus;
  }

  async function blockOf(tag: unknown): Promise<bigint> {
    if (typeof tag === 'string' && /^0x[0-9a-f]+$/i.test(tag)) return BigInt(tag);
    if (tag === 'earliest') return 0n;
    if (tag === 'safe' || tag === 'finalized') {
      const block = (await upstreamCall('eth_getBlockByNumber', [tag, false])) as { number?: string } | null;
      return BigInt(block?.number ?? '0x0');
    }
    // latest, pending, or left out (which means latest)
    return BigInt((await upstreamCall('eth_blockNumber', [])) as string);
  }

  async function upstreamCall(method: string, params: unknown[]): Promise<unknown> {
    const answer = (await forward(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))) as RpcAnswer;
    if (answer.error) throw new Error(`upstream ${method} failed: ${JSON.stringify(answer.error)}`);
    return answer.result;
  }

  function forward(body: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        {
          agent: upstreamAgent,
          host: upstream.hostname,
          port: upstream.port,
          path: `${upstream.pathname}${upstream.search}`,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (incoming) => {
          readBody(incoming).then((text) => {
            const answer = parseJson(text);
            if (answer === undefined) reject(new Error(`upstream answered ${incoming.statusCode} with no JSON`));
            else resolve(answer);
          }, reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  function rateLimitBody(style: ProviderName): unknown {
    const row = providerErrorRow(style, 'rate_limit');
    return row ? providerError(style, 'rate_limit', { from: 0n, to: 0n, max: 0 }).body : GENERIC_RATE_LIMIT;
  }

  const listen = (port: number) => listenOn(server, port);
  const stopListening = () => stopServer(server);
  const cut = (which: Iterable<Socket>) => {
    for (const socket of [...which]) socket.destroy();
  };

  await listen(0);
  const { port } = server.address() as { port: number };

  return {
    url: `http://127.0.0.1:${port}/v2/${FAKE_API_KEY}`,
    port,
    async set(change) {
      const before = behaviour.state;
      behaviour = checked({ ...behaviour, ...change });
      const after = behaviour.state;
      // Requests held by a silent proxy are cut when it speaks again or dies.
      if (before === 'silent' && after !== 'silent') cut(held);
      if (after === 'dead' && before !== 'dead') {
        const closed = stopListening();
        cut(sockets);
        await closed;
        // Lets a client in this process see its cut connections closed before it asks again.
        await new Promise((done) => setImmediate(done));
      } else if (after !== 'dead' && !server.listening) {
        await listen(port);
      }
    },
    rateLimitNext(count, retryAfterSeconds) {
      rateLimited = { remaining: count, retryAfterSeconds };
    },
    counts: () => ({ ...counts }),
    log: () => [...received],
    reset() {
      counts = {};
      received = [];
    },
    async close() {
      const closed = stopListening();
      cut(sockets);
      await closed;
      upstreamAgent.destroy();
    },
  };
}

/** A cap needs the style's error of that kind on record. */
function checked(behaviour: ProviderBehaviour): ProviderBehaviour {
  const { limitStyle, maxLogBlocks, maxLogResults } = behaviour;
  if (maxLogBlocks !== undefined && !providerErrorRow(limitStyle, 'range')) throw new Error(`no block range error of ${limitStyle} on record`);
  if (maxLogResults !== undefined && !providerErrorRow(limitStyle, 'results')) throw new Error(`no result-size error of ${limitStyle} on record`);
  return behaviour;
}

function hitsMulticall3(call: RpcCall): boolean {
  const params = Array.isArray(call.params) ? call.params : [];
  const multicall = MULTICALL3_ADDRESS.toLowerCase();
  if (call.method === 'eth_getCode') return typeof params[0] === 'string' && params[0].toLowerCase() === multicall;
  if (call.method === 'eth_call') {
    const to = (params[0] as { to?: unknown } | undefined)?.to;
    return typeof to === 'string' && to.toLowerCase() === multicall;
  }
  return false;
}

function firstParam(call: RpcCall): Record<string, unknown> | undefined {
  const first = Array.isArray(call.params) ? call.params[0] : undefined;
  return first && typeof first === 'object' ? (first as Record<string, unknown>) : undefined;
}

function readBody(stream: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function send(response: ServerResponse, status: number, body: string, contentType: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers });
  response.end(body);
}
