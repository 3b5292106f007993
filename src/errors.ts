// One error type for everything Signet refuses: a stable code, the HTTP status, a sentence
// safe to show, its stable `reason` (snake_case, what clients and tests match on; it gives the code),
// and the cause kept for the logs only (DESIGN §4). Reasons and their codes: src/reasons.ts.
import { REASONS, type Reason } from './reasons.js';

export type ErrorCode =
  | 'invalid_request'
  | 'invalid_token'
  | 'invalid_client'
  | 'access_denied'
  | 'insufficient_scope'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'expired'
  | 'invalid_signature'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'temporarily_unavailable'
  | 'server_error';

const statusOf: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_token: 401,
  invalid_client: 401,
  access_denied: 403,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  expired: 410,
  invalid_signature: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  temporarily_unavailable: 503,
  server_error: 500,
};

export const statusOfCode = (code: ErrorCode): number => statusOf[code];

export type ErrorBody = { error: ErrorCode; error_description: string; reason: Reason };

export type SignetErrorOptions = {
  cause?: unknown;
  /** Seconds after which trying again may succeed: sent as `Retry-After` (429, 503). */
  retryAfterSeconds?: number;
};

export class SignetError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly reason: Reason;
  readonly retryAfterSeconds?: number;

  /** A refusal by its stable reason: the catalog gives its error code and HTTP status. */
  constructor(reason: Reason, description: string, options?: SignetErrorOptions) {
    super(description, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SignetError';
    this.reason = reason;
    this.code = REASONS[reason].error;
    this.status = statusOf[this.code];
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  toJSON(): ErrorBody {
    return { error: this.code, error_description: this.message, reason: this.reason };
  }
}

/** Refuses with a stable reason (src/reasons.ts); every error Signet answers with is made here. */
export const refuse = (reason: Reason, description: string, options?: SignetErrorOptions) => new SignetError(reason, description, options);

/** A configuration value that is missing or wrong; the message names the setting. */
export class ConfigError extends Error {
  constructor(setting: string, problem: string) {
    super(`configuration: ${setting} ${problem}`);
    this.name = 'ConfigError';
  }
}
