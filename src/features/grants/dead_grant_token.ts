// The answer to a grant's bearer token once the grant is no longer active: 401 invalid_token,
// the reason naming why (revoked, used for its one read, or otherwise ended), wherever the token
// is presented (RFC 6750 §3.1; docs/decisions.md, 59). Each carries, as previous_reason, the word
// 1.0.0 answered the same read with, while that transition lasts.
import { refuse, type SignetError } from '../../base/errors.js';
import type { GrantStatus } from './access_grant.js';

/** `status`: the grant's, or undefined when its record is gone. */
export function deadGrantToken(grant: { status?: GrantStatus; revoked_at?: string }): SignetError {
  if (grant.status === 'revoked') {
    const when = grant.revoked_at ? ` at ${grant.revoked_at}` : '';
    return refuse('token_revoked', `the access grant of this token was revoked${when}`, { previous: 'grant_revoked' });
  }
  if (grant.status === 'used') return refuse('token_used', 'the access grant of this token was used for its one read', { previous: 'grant_used' });
  return refuse('token_invalid', `the access grant of this token is ${grant.status ?? 'gone'}`, { previous: 'grant_not_usable' });
}
