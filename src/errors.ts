// One error type for everything Signet refuses: a stable code, the HTTP status, a sentence
// safe to show, and the cause kept for the logs only (DESIGN §4).

export type ErrorCode =
  | 'invalid_request'
  | 'invalid_token'
  | 'invalid_client'
  | 'access_denied'
  | 'insufficient_scope'
  | 'not_found'
  | 'conflict'
  | 'expired'
  | 'invalid_signature'
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
  conflict: 409,
  expired: 410,
  invalid_signature: 422,
  rate_limited: 429,
  temporarily_unavailable: 503,
  server_error: 500,
};

export class SignetError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, description: string, options?: { cause?: unknown }) {
    super(description, options);
    this.name = 'SignetError';
    this.code = code;
    this.status = statusOf[code];
  }

  toJSON(): { error: ErrorCode; error_description: string } {
    return { error: this.code, error_description: this.message };
  }
}

export const invalidRequest = (description: string, cause?: unknown) =>
  new SignetError('invalid_request', description, { cause });
export const accessDenied = (description: string, cause?: unknown) =>
  new SignetError('access_denied', description, { cause });
export const notFound = (description: string) => new SignetError('not_found', description);
export const conflict = (description: string) => new SignetError('conflict', description);
export const expired = (description: string) => new SignetError('expired', description);
export const invalidSignature = (description: string, cause?: unknown) =>
  new SignetError('invalid_signature', description, { cause });
export const unavailable = (description: string, cause?: unknown) =>
  new SignetError('temporarily_unavailable', description, { cause });

/** A configuration value that is missing or wrong; the message names the setting. */
export class ConfigError extends Error {
  constructor(setting: string, problem: string) {
    super(`configuration: ${setting} ${problem}`);
    this.name = 'ConfigError';
  }
}
