// A port: the one place where this layer calls up into a feature on the hot path. The OIDC
// adapter (oidc_adapter.ts) finds a code's or token's record, and the reads the account's
// claims and checks make next should leave with the record's Grant, in the same MGET
// (docs/decisions.md, 57: one Redis command less on userinfo, a token, a refresh). Which reads
// those are only the account model knows, and a store may not import a feature: so the store
// declares what it needs here, features/oidc/account.ts fills it (its `readAccountAhead`), and
// features/oidc/provider.ts passes it to the adapter under the same name.
import type { ReadToSend } from './read_ahead.js';

/** What the adapter knows of a code or token the moment it finds its record. */
export type FoundAccountRecord = { model: string; accountId: string; grantId?: string; scope?: string };

/**
 * The reads to send with the record's Grant: the owner's profile and, where it will be read,
 * the grant's consent receipt. None when the account is not one Signet serves.
 */
export type ReadAccountAhead = (record: FoundAccountRecord) => readonly ReadToSend[];
