// Structured JSON logs (pino): one line per event, the request id on every line written while
// serving a request, and a last filter that blanks what must never reach a log (tokens,
// signatures, e-mail addresses, account addresses), whatever a message or an error carries.
// Where an operator must correlate an identity or a wallet, lines carry its keyed hash
// (log_hash.ts), never the address.
import pino, { type DestinationStream } from 'pino';
import { requestContext } from './request_context.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * The one logger every part is given: a line per call, with `detail` as its fields (an object),
 * its error (an Error) or a `detail` field (anything else).
 */
export type Logger = {
  error(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  debug(message: string, detail?: unknown): void;
  /** Lines with these fields added (a worker's number, a subsystem). */
  child(bindings: Record<string, unknown>): Logger;
};

/** Writes nothing: the logger of a part built without one (tests, tools). */
export const silentLogger: Logger = {
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
  child: () => silentLogger,
};

// What a secret or a personal value looks like in text: JWTs (tokens), Signet's grant tokens
// and API key secrets, long hex (signatures, calldata, keys), e-mail addresses, and 20-byte
// addresses (identities and wallets are personal data). Hashes (64 hex digits) stay readable.
// Addresses are blanked whoever they belong to: the contract addresses of Signet's own
// configuration (IdFactory, claim issuers) are blanked too, a price worth paying for a filter
// that needs no list of what is whose.
// Each with the text every match contains: a line without it (most lines) skips that pattern's scan.
const SECRETS: [hint: string, pattern: RegExp, replacement: string][] = [
  ['eyJ', /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, '[jwt]'],
  ['sgt_', /\bsgt_[A-Za-z0-9_-]{16,}/g, 'sgt_[token]'],
  ['sgk_', /\b(sgk_[A-Za-z0-9]{12})_[A-Za-z0-9_-]{43}/g, '$1_[secret]'],
  ['0x', /0x[0-9a-fA-F]{100,}/g, '0x[long hex]'],
  ['0x', /0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g, '0x[address]'],
  ['@', /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, '[email]'],
];

export function scrubSecrets(line: string): string {
  let out = line;
  for (const [hint, pattern, replacement] of SECRETS) if (out.includes(hint)) out = out.replace(pattern, replacement);
  return out;
}

/** An error as a log field: its kind, its one-line message and reason, and its cause's. */
function serializeError(error: unknown, depth = 0): Record<string, unknown> | string {
  if (!(error instanceof Error)) return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error));
  // viem's messages append whole request bodies; its shortMessage is the sentence.
  const message = (error as { shortMessage?: string }).shortMessage ?? error.message.split('\n')[0];
  const out: Record<string, unknown> = { type: error.name, message };
  const { reason, code } = error as { reason?: unknown; code?: unknown };
  if (typeof reason === 'string') out.reason = reason;
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  // Frames only: a stack starts with the whole message again.
  const frames = (error.stack ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at '));
  if (frames.length) out.stack = frames.slice(0, 5).join(' | ');
  if (error.cause !== undefined && depth < 3) out.cause = serializeError(error.cause, depth + 1);
  return out;
}

function adapt(log: pino.Logger): Logger {
  const at =
    (level: 'error' | 'warn' | 'info' | 'debug') =>
    (message: string, detail?: unknown): void => {
      if (detail === undefined || detail === '') log[level](message);
      else if (detail instanceof Error) log[level]({ err: serializeError(detail) }, message);
      else if (detail && typeof detail === 'object' && !Array.isArray(detail)) {
        // Most lines carry no error: their fields go as they are, without a copy.
        const { err } = detail as { err?: unknown };
        log[level](err === undefined ? detail : { ...detail, err: serializeError(err) }, message);
      } else log[level]({ detail }, message);
    };
  return {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    child: (bindings) => adapt(log.child(bindings)),
  };
}

// Standard output, written in blocks of 4 KiB or every quarter second, whichever comes first,
// off the request's path: a write per line (the access line of every request) was the largest
// cost of Signet's middleware on a userinfo (decision 56). On exit, pino writes what is held;
// a process killed outright (SIGKILL, out of memory) loses a quarter second of lines at most.
// A reader of standard output that stops reading costs 16 MiB of held lines at most: past that,
// lines are dropped rather than the memory grown.
const LOG_BLOCK_BYTES = 4096;
const LOG_FLUSH_MS = 250;
const LOG_HELD_MOST_BYTES = 16 * 1024 * 1024;

function bufferedStdout(): DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: LOG_BLOCK_BYTES, periodicFlush: LOG_FLUSH_MS, maxLength: LOG_HELD_MOST_BYTES });
}

export function createLogger(options: { level?: LogLevel; destination?: DestinationStream } = {}): Logger {
  const log = pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid, service: 'signet' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // A new object: pino merges each line's fields into what the mixin returns.
      mixin: () => {
        const context = requestContext.getStore();
        return context ? { request_id: context.request_id } : {};
      },
      // Errors are already turned into fields by serializeError; pino's own would redo it.
      serializers: { err: (value: unknown) => value },
      hooks: { streamWrite: scrubSecrets },
    },
    options.destination ?? bufferedStdout(),
  );
  return adapt(log);
}
