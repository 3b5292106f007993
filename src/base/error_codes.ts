// The error codes Signet answers with (the `error` of every refusal) and the HTTP status each
// one carries. Which code a refusal has is its reason's (src/base/reasons.ts).
export type ErrorCode =
  | 'invalid_request'
  | 'invalid_token'
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce'
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
  | 'credential_request_denied'
  | 'temporarily_unavailable'
  | 'server_error';

const statusOf: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_token: 401,
  invalid_dpop_proof: 401,
  use_dpop_nonce: 401,
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
  credential_request_denied: 400,
  temporarily_unavailable: 503,
  server_error: 500,
};

export const statusOfCode = (code: ErrorCode): number => statusOf[code];
