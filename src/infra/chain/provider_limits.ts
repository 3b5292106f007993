// Recognises the limits an RPC provider answers with instead of data: an eth_getLogs that asks
// too wide a block range or matches too many logs (each provider words it its own way, some
// naming a range that would work), and rate limiting (HTTP 429, or a JSON-RPC error that says
// so). Reads what viem throws (the error and its causes: RpcRequestError, HttpRequestError,
// RpcError with code, details, data, status, headers) or a plain JSON-RPC error object.
// Anything else, an outage or a contract's own error, is not a limit. The answers these patterns
// are written against are listed with their sources in test/support/provider_errors.ts.
import { BaseError } from 'viem';

export type LogsRefusal = {
  kind: 'range' | 'results';
  /** A range the provider said would work, if it said one. */
  suggested?: { from: bigint; to: bigint };
  /** A block count the message names as the most allowed (e.g. 'exceed maximum block range: 5000' → 5000). */
  maxBlocks?: number;
};

/** Too many logs in the answer; checked first, since Alchemy's also mentions a block range. */
const TOO_MANY_RESULTS: readonly RegExp[] = [
  /log response size exceeded/i, // Alchemy
  /response size is larger than/i, // Alchemy (150MB)
  /query returned more than \d+ results/i, // Infura, Tenderly, zkSync Era
  /query exceeds max results/i, // reth: Base, LlamaRPC
  /too many logs/i, // Erigon
];

/** Too wide a block range. */
const RANGE_TOO_WIDE: readonly RegExp[] = [
  /up to an? [\d,.]+k? block range/i, // Alchemy
  /exceeds? (?:the )?max(?:imum)? block range/i, // geth, BNB dataseed, reth
  /block range exceeds server limit/i, // Erigon
  /block range limit exceeded/i, // Chainstack
  /block range is too wide/i, // Ankr (earlier)
  /blocks distance/i, // Ankr: 'maximum [from, to] blocks distance: 10000'
  /range too large/i, // Cloudflare
  /limited to an? [\d,.]+ (?:block )?range/i, // QuickNode, Polygon zkEVM
  /range \d+ (?:exceeds|is bigger than) (?:range )?limit/i, // Infura, Tenderly
];

/** Codes that only ever mean a block range refused. */
const RANGE_CODES = new Set([
  -32614, // QuickNode
  -32047, // Cloudflare
]);

/** The block count a range refusal names as its cap. */
const MAX_BLOCKS: readonly RegExp[] = [
  /up to an? ([\d,.]+k?) block range/i, // Alchemy
  /max(?:imum)? block range:? ([\d,]+)/i, // geth, BNB dataseed, reth
  /exceeds server limit, narrow your filter: ([\d,]+)/i, // Erigon
  /limited to an? ([\d,.]+) (?:block )?range/i, // QuickNode, Polygon zkEVM
  /max range: ([\d,]+)/i, // Cloudflare
  /blocks distance: ([\d,]+)/i, // Ankr
  /(?:exceeds|is bigger than) (?:range )?limit(?: of)? ([\d,]+)/i, // Infura, Tenderly
];

/** A range the provider says would work. */
const SUGGESTED_HEX_RANGE = /(?:should work|try with this block range):?\s*\[\s*(0x[0-9a-f]+)\s*,\s*(0x[0-9a-f]+)\s*\]/i; // Alchemy; Infura, Tenderly, zkSync Era
const SUGGESTED_DECIMAL_RANGE = /retry with the range (\d+)\s*-\s*(\d+)/i; // reth: Base

/** Rate limiting answered in a JSON-RPC error (some providers do it inside a 200). */
const RATE_LIMITED: readonly RegExp[] = [
  /rate limit/i, // Infura ('request rate limited'), Tenderly, Base ('over rate limit')
  /request rate exceeded/i, // Infura ('project ID request rate exceeded')
  /request count exceeded/i, // Infura (daily)
  /compute units per second/i, // Alchemy
  /requests per second/i, // QuickNode
  /request limit reached/i, // QuickNode (-32007)
  /credits limited to/i, // QuickNode (-32012)
  /too many requests/i, // MetaMask's Infura, plain HTTP 429 bodies
  /^limit exceeded\.?$/i, // BNB dataseed
];

/** A contract's own answer: never a provider limit, whatever its text says. */
const CONTRACT_ERROR = /revert/i;
const EXECUTION_REVERTED_CODE = 3;

/** What the error says across its layers. */
type Facts = { codes: number[]; texts: string[]; data: unknown[]; status?: number; headers?: unknown };

export function logsRefusalOf(error: unknown): LogsRefusal | undefined {
  const facts = factsOf(error);
  if (!facts || isContractError(facts)) return undefined;
  const text = facts.texts.join('\n');
  const kind = TOO_MANY_RESULTS.some((pattern) => pattern.test(text))
    ? 'results'
    : RANGE_TOO_WIDE.some((pattern) => pattern.test(text)) || facts.codes.some((code) => RANGE_CODES.has(code))
      ? 'range'
      : undefined;
  if (!kind) return undefined;
  const refusal: LogsRefusal = { kind };
  const suggested = suggestedRange(text);
  if (suggested) refusal.suggested = suggested;
  const maxBlocks = firstCount(text, MAX_BLOCKS);
  if (maxBlocks !== undefined) refusal.maxBlocks = maxBlocks;
  return refusal;
}

export function rateLimitOf(error: unknown, now: number = Date.now()): { retryAfterMs?: number } | undefined {
  const facts = factsOf(error);
  if (!facts || isContractError(facts)) return undefined;
  const limited = facts.status === 429 || facts.codes.includes(429) || facts.texts.some((text) => RATE_LIMITED.some((pattern) => pattern.test(text.trim())));
  if (!limited) return undefined;
  const retryAfterMs = retryAfterHeaderMs(facts.headers, now) ?? backoffMs(facts.data);
  return retryAfterMs === undefined ? {} : { retryAfterMs };
}

/** Walks the error and its causes, collecting codes, texts (not the request), data, status and headers. */
function factsOf(error: unknown): Facts | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const facts: Facts = { codes: [], texts: [], data: [] };
  const seen = new Set<unknown>();
  let layer: unknown = error;
  while (layer && typeof layer === 'object' && !seen.has(layer)) {
    seen.add(layer);
    const fields = layer as Record<string, unknown>;
    // A whole JSON-RPC answer: its error member says it all.
    if (fields.error && typeof fields.error === 'object' && !(layer instanceof Error)) {
      layer = fields.error;
      continue;
    }
    if (typeof fields.code === 'number') facts.codes.push(fields.code);
    if (typeof fields.status === 'number') facts.status ??= fields.status;
    if (fields.headers && facts.headers === undefined) facts.headers = fields.headers;
    // viem's message also quotes the request (and its URL); details is the answer's own text.
    if (layer instanceof BaseError) collectText(facts, layer.details);
    else collectText(facts, fields.message);
    if (fields.data !== undefined) {
      facts.data.push(fields.data);
      collectText(facts, typeof fields.data === 'string' ? fields.data : safeJson(fields.data));
    }
    if (typeof fields.details === 'string' && !(layer instanceof BaseError)) collectText(facts, fields.details);
    layer = fields.cause;
  }
  return facts;
}

/** Adds a text, and when it is a JSON-RPC error written out as JSON (viem's HttpRequestError details), what it holds. */
function collectText(facts: Facts, text: unknown): void {
  if (typeof text !== 'string' || text === '') return;
  facts.texts.push(text);
  if (!text.startsWith('{')) return;
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    if (typeof parsed.code === 'number') facts.codes.push(parsed.code);
    if (typeof parsed.message === 'string') facts.texts.push(parsed.message);
    if (parsed.data !== undefined) facts.data.push(parsed.data);
  } catch {
    // not JSON: the text alone
  }
}

function isContractError(facts: Facts): boolean {
  return facts.codes.includes(EXECUTION_REVERTED_CODE) || facts.texts.some((text) => CONTRACT_ERROR.test(text));
}

function suggestedRange(text: string): { from: bigint; to: bigint } | undefined {
  const match = SUGGESTED_HEX_RANGE.exec(text) ?? SUGGESTED_DECIMAL_RANGE.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  const from = BigInt(match[1]);
  const to = BigInt(match[2]);
  return from <= to ? { from, to } : undefined;
}

function firstCount(text: string, patterns: readonly RegExp[]): number | undefined {
  for (const pattern of patterns) {
    const written = pattern.exec(text)?.[1];
    if (written === undefined) continue;
    const thousands = /k$/i.test(written);
    const count = Number(written.replace(/[,.k]/gi, '')) * (thousands ? 1000 : 1);
    if (Number.isSafeInteger(count) && count > 0) return count;
  }
  return undefined;
}

/** Retry-After in seconds or as an HTTP date. */
function retryAfterHeaderMs(headers: unknown, now: number): number | undefined {
  const value = headerValue(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
  }
  return undefined;
}

/** Infura's data.backoff_seconds (or data.rate.backoff_seconds). */
function backoffMs(data: readonly unknown[]): number | undefined {
  for (const item of data) {
    if (!item || typeof item !== 'object') continue;
    const fields = item as { backoff_seconds?: unknown; rate?: { backoff_seconds?: unknown } };
    const seconds = fields.backoff_seconds ?? fields.rate?.backoff_seconds;
    if (typeof seconds === 'number' && seconds >= 0) return Math.round(seconds * 1000);
  }
  return undefined;
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
