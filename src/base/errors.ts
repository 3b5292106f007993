// One error type for everything Signet refuses: a stable code, the HTTP status, a sentence
// safe to show, its stable `reason` (snake_case, what clients and tests match on; it gives the code),
// and the cause kept for the logs only (docs/decisions.md, 18). Reasons and their codes: src/base/reasons.ts.
import { type ErrorCode, statusOfCode } from './error_codes.js';
import { previousReasonSent, REASONS, REPLACED_REASONS, type Reason, type ReplacedBy, type ReplacedReason } from './reasons.js';

/** `previous_reason`: the old word `reason` replaced, while the transition lasts (docs/decisions.md, 49). */
export type ErrorBody = { error: ErrorCode; error_description: string; reason: Reason; previous_reason?: ReplacedReason };

export type SignetErrorOptions = {
  cause?: unknown;
  /** Seconds after which trying again may succeed: sent as `Retry-After` (429, 503). */
  retryAfterSeconds?: number;
  /** Response headers the refusal needs (WWW-Authenticate, DPoP-Nonce). */
  headers?: Record<string, string>;
  /** The old word this refusal was answered with before its reason replaced it (src/base/reasons.ts, REPLACED_REASONS). */
  previous?: ReplacedReason;
};

export class SignetError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly reason: Reason;
  readonly retryAfterSeconds?: number;
  readonly headers?: Record<string, string>;
  readonly previousReason?: ReplacedReason;

  /** A refusal by its stable reason: the catalog gives its error code and HTTP status. */
  constructor(reason: Reason, description: string, options?: SignetErrorOptions) {
    super(description, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SignetError';
    this.reason = reason;
    this.code = REASONS[reason].error;
    this.status = statusOfCode(this.code);
    this.retryAfterSeconds = options?.retryAfterSeconds;
    this.headers = options?.headers;
    if (options?.previous !== undefined) {
      if (REPLACED_REASONS[options.previous] !== reason)
        throw new Error(`${options.previous} was replaced by ${REPLACED_REASONS[options.previous]}, not ${reason}`);
      this.previousReason = options.previous;
    }
  }

  toJSON(): ErrorBody {
    const body: ErrorBody = { error: this.code, error_description: this.message, reason: this.reason };
    if (this.previousReason !== undefined && previousReasonSent(Date.now())) body.previous_reason = this.previousReason;
    return body;
  }
}

/**
 * Refuses with a stable reason (src/base/reasons.ts); every error Signet answers with is made here.
 * `previous` may only name an old word this reason replaced.
 */
export const refuse = <R extends Reason>(reason: R, description: string, options?: SignetErrorOptions & { previous?: ReplacedBy<R> }) =>
  new SignetError(reason, description, options);

/** A configuration value that is missing or wrong; the message names the setting. */
export class ConfigError extends Error {
  constructor(setting: string, problem: string) {
    super(`configuration: ${setting} ${problem}`);
    this.name = 'ConfigError';
  }
}
