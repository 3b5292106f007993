// The Shared Signals events Signet transmits (docs/signals.md): two CAEP 1.0 event types, one
// of Signet's own for claims, and SSF's verification event; and what each ConsentSignal says in
// them. The subject is the identity's CAIP-10 subject, as `sub` of its ID tokens, in an
// `iss_sub` subject identifier (RFC 9493).
import type { Address } from 'viem';
import type { ConsentSignal, GrantEndReason } from '../../domain/consent/consent_signal.js';
import { subjectOf } from '../../domain/identity/subject.js';

export const SSF_PUSH = 'urn:ietf:rfc:8935';

export const SESSION_REVOKED = 'https://schemas.openid.net/secevent/caep/event-type/session-revoked';
export const CREDENTIAL_CHANGE = 'https://schemas.openid.net/secevent/caep/event-type/credential-change';
export const VERIFICATION = 'https://schemas.openid.net/secevent/ssf/event-type/verification';
/** Signet's own event type: no CAEP type says "a claim you were given no longer stands". */
export const claimEndedEvent = (issuer: string) => `${issuer}/event-types/claim-ended`;

/** Every event type a stream may ask for, in the order streams list them. */
export const eventsSupported = (issuer: string) => [SESSION_REVOKED, CREDENTIAL_CHANGE, claimEndedEvent(issuer)];

/** The SSF subject of an identity: Signet as `iss`, its ID tokens' `sub`. */
export const subjectIdOf = (issuer: string, chainId: number, identity: Address) => ({
  format: 'iss_sub',
  iss: issuer,
  sub: subjectOf(chainId, identity),
});

/** CAEP's initiating_entity and an administrative sentence for each way a grant ends. */
const GRANT_END: Record<GrantEndReason, { initiating_entity: string; en: string }> = {
  key_removed: { initiating_entity: 'policy', en: 'The wallet that signed the consent no longer holds a key on the identity.' },
  owner_revoked: { initiating_entity: 'user', en: 'The owner revoked the grant.' },
  erasure: { initiating_entity: 'user', en: 'The owner erased their data at Signet.' },
  signed_out: { initiating_entity: 'user', en: 'The owner signed out.' },
  client_deleted: { initiating_entity: 'admin', en: 'The operator deleted the client.' },
};

/** CAEP's change_type for each change of a wallet's key on the identity. */
const KEY_CHANGE = { removed: 'delete', added: 'create', purpose_changed: 'update' } as const;

/** The event type and its members (the SET's `events` value) that a signal means. */
export function ssfEventOf(signal: ConsentSignal, issuer: string): { type: string; body: Record<string, unknown> } {
  const event_timestamp = Math.floor(signal.at / 1000);
  switch (signal.type) {
    case 'grant_ended': {
      const { initiating_entity, en } = GRANT_END[signal.reason];
      return {
        type: SESSION_REVOKED,
        body: {
          event_timestamp,
          initiating_entity,
          reason_admin: { en },
          // Signet's own members (SSF 1.0, "Additional fields": receivers ignore what they do not understand).
          grant_id: signal.grant_id,
          grant_kind: signal.kind,
          reason: signal.reason,
        },
      };
    }
    case 'credential_changed':
      return {
        type: CREDENTIAL_CHANGE,
        body: {
          // The wallet (an app) that holds a key on the identity.
          credential_type: 'app',
          change_type: KEY_CHANGE[signal.change],
          event_timestamp,
          initiating_entity: 'user',
          wallet_key: signal.wallet_key,
        },
      };
    case 'claim_ended':
      return {
        type: claimEndedEvent(issuer),
        body: {
          event_timestamp,
          claim_id: signal.claim_id,
          topic: signal.topic,
          claim_issuer: signal.issuer,
          change: signal.change,
        },
      };
  }
}
