// The one body-reading step of Signet's routes: the limits of each route class, and the
// middleware that reads a JSON or form body under them. A body is refused, with a stable
// reason, before any handler sees it: too large (413), compressed or of another type (415),
// not UTF-8, not JSON, too deep, strings too long, too many form fields (400).
import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { refuse } from '../base/errors.js';
import { measureJson } from './json_bounds.js';

declare module 'koa' {
  interface Request {
    /** The parsed body, set by jsonBody or formBody; undefined when the request had none. */
    body?: unknown;
  }
}

export type JsonLimits = { bytes: number; depth: number; stringLength: number };
export type FormLimits = { bytes: number; fields: number; stringLength: number };

const KiB = 1024;

/** Every route class and its limits: the only place they are written. */
export const BODY_LIMITS = {
  /** Account, access-grant, CIBA and API-key calls: a few short fields (signatures the longest). */
  api: { bytes: 16 * KiB, depth: 8, stringLength: 8 * KiB },
  /** The login interaction: the signed EIP-4361 text names every shared resource. */
  interaction: { bytes: 64 * KiB, depth: 8, stringLength: 32 * KiB },
  /** The admin API: a claim's off-chain data document (its own rules in claim_document.ts). */
  admin: { bytes: 64 * KiB, depth: 16, stringLength: 16 * KiB },
  /** The account pages' HTML forms. */
  form: { bytes: 16 * KiB, fields: 32, stringLength: 2 * KiB },
  /** The engine's endpoints (/token, /auth, /backchannel, …): oidc-provider's own cap. */
  engine: { bytes: 56 * KiB },
} as const satisfies {
  api: JsonLimits;
  interaction: JsonLimits;
  admin: JsonLimits;
  form: FormLimits;
  engine: { bytes: number };
};

const tooLarge = (limit: number) => refuse('body_too_large', `the request body is larger than ${limit} bytes`);

/** A body is present when the request is chunked or declares a non-zero length. */
export function hasBody(ctx: Context): boolean {
  return ctx.get('transfer-encoding') !== '' || (ctx.request.length ?? 0) > 0;
}

/**
 * Only identity bodies: Signet's bodies are small, no OAuth client compresses them, and
 * inflating would let a few kilobytes of gzip grow into megabytes before any limit applied.
 */
export function refuseContentEncoding(ctx: Context): void {
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return;
  throw refuse('content_encoding_unsupported', `Content-Encoding "${encoding.slice(0, 40)}" is not accepted: send the body uncompressed`);
}

/** Refuses a declared length over the limit before reading a byte of it. */
export function refuseDeclaredLength(ctx: Context, limit: number): void {
  if ((ctx.request.length ?? 0) > limit) throw tooLarge(limit);
}

/** Reads the raw bytes, at most `limit`, checking them against Content-Length. */
export async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  try {
    return await getRawBody(ctx.req, { length: ctx.request.length, limit });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') throw tooLarge(limit);
    if (type === 'request.size.invalid') {
      throw refuse('body_length_mismatch', 'the request body does not match its Content-Length', { cause: error });
    }
    if (type === 'request.aborted') throw refuse('request_aborted', 'the request was aborted', { cause: error });
    throw error;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Checks headers, reads at most `limit` bytes and decodes them as UTF-8; undefined if no body. */
async function readText(ctx: Context, limit: number, mediaType: string): Promise<string | undefined> {
  if (!hasBody(ctx)) return undefined;
  refuseContentEncoding(ctx);
  if (!ctx.is(mediaType)) {
    throw refuse('content_type_unsupported', `send the body as ${mediaType}`);
  }
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
    throw refuse('charset_unsupported', 'send the body in UTF-8');
  }
  refuseDeclaredLength(ctx, limit);
  const bytes = await readRawBody(ctx, limit);
  try {
    return utf8.decode(bytes);
  } catch (error) {
    throw refuse('invalid_utf8', 'the request body is not valid UTF-8', { cause: error });
  }
}

const stringTooLong = (limit: number) => refuse('string_too_long', `a string in the request body is longer than ${limit} characters`);

/** Parses an application/json body into ctx.request.body, within the limits. */
export function jsonBody(limits: JsonLimits): Middleware {
  return async (ctx, next) => {
    const text = await readText(ctx, limits.bytes, 'application/json');
    // An empty chunked body is no body; whitespace alone is a body, and not JSON.
    if (text !== undefined && text !== '') {
      let value: unknown;
      try {
        // V8's JSON.parse does not recurse on the stack: any depth parses, then is measured.
        value = JSON.parse(text);
      } catch (error) {
        throw refuse('invalid_json', 'the request body is not valid JSON', { cause: error });
      }
      const shape = measureJson(value, limits.depth);
      if (shape.depth > limits.depth) {
        throw refuse('json_too_deep', `the request body nests deeper than ${limits.depth} levels`);
      }
      if (shape.longestString > limits.stringLength) throw stringTooLong(limits.stringLength);
      ctx.request.body = value;
    }
    await next();
  };
}

/** Parses an application/x-www-form-urlencoded body into ctx.request.body (one string per name). */
export function formBody(limits: FormLimits): Middleware {
  return async (ctx, next) => {
    const text = await readText(ctx, limits.bytes, 'application/x-www-form-urlencoded');
    if (text !== undefined) {
      const entries = [...new URLSearchParams(text)];
      if (entries.length > limits.fields) {
        throw refuse('form_too_many_fields', `the form has more than ${limits.fields} fields`);
      }
      if (entries.some(([name, value]) => name.length > limits.stringLength || value.length > limits.stringLength)) {
        throw stringTooLong(limits.stringLength);
      }
      ctx.request.body = Object.fromEntries(entries);
    }
    await next();
  };
}
