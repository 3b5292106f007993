// The forms of the owner's data API (access history, export, erasure), for the route table and
// /openapi.json. The export's form is the versioned document of docs/export.md.
import { z } from 'zod';
import { backchannelRequest } from '../../domain/backchannel/backchannel_request_schema.js';
import { DOORS } from '../../domain/history/access_history.js';
import { address, bytes32, dateTime, pageCursorField, pageLimitField, signatureBody } from '../../http/schemas.js';
import { accessGrant, loginGrant } from '../grants/grant_schemas.js';
import { ERASURE_STEPS } from './erasure_steps.js';

export const historyQuery = z.object({
  cursor: pageCursorField,
  limit: pageLimitField(200, 50),
  client_id: z.string().min(1).max(200).optional(),
});

export const historyEntry = z
  .object({
    id: z.string(),
    at: dateTime,
    client_id: z.string(),
    client_name: z.string(),
    grant_id: z.string().nullable(),
    door: z.enum(DOORS),
    fields: z.array(z.string()),
    claims: z.array(bytes32),
    client_address: z.string(),
    providers: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'Claims released with data another Information Provider holds: the provider, by claim id' }),
    outcome: z.enum(['released', 'refused']),
    reason: z.string().optional(),
  })
  .meta({ id: 'HistoryEntry', description: "One release of the owner's data, or one refused attempt by a service holding a grant" });

export const historyPage = z.object({ identity: address, entries: z.array(historyEntry), next_cursor: z.string().nullable() }).meta({ id: 'HistoryPage' });

/** Until when Signet keeps a record: an ISO time, or null while it is kept until an owner action. */
const keptUntil = dateTime.nullable();

export const EXPORT_FORMAT = 'signet-export';
export const EXPORT_VERSION = 1;

export const dataExport = z
  .object({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exported_at: dateTime,
    issuer: z.string(),
    identity: address,
    subject: z.string(),
    profile: z.record(z.string(), z.unknown()).nullable(),
    wallets: z.array(address),
    identity_creations: z.array(
      z.object({ wallet: address, status: z.string(), transaction: z.string().nullable(), identity: address.nullable(), started_at: dateTime }).loose(),
    ),
    account_sessions: z.array(z.object({ wallet: address, created_at: dateTime, current: z.boolean() })),
    claims: z.array(
      z.object({
        claim_id: bytes32,
        topic: z.number().int(),
        issuer: address,
        data: z.record(z.string(), z.unknown()),
        expires_at: dateTime.nullable(),
        salt: z.string(),
        hash: bytes32,
        uri: z.string(),
        issued_at: dateTime,
        revoked_at: dateTime.nullable(),
        kept_until: keptUntil,
      }),
    ),
    claim_requests: z.array(z.object({ topic: z.string(), requested_at: dateTime })),
    grants: z.array(
      z.union([
        accessGrant.extend({ kept_until: keptUntil }).meta({ id: 'ExportedAccessGrant' }),
        loginGrant.extend({ kept_until: keptUntil }).meta({ id: 'ExportedLoginGrant' }),
      ]),
    ),
    access_history: z.array(historyEntry),
    webhooks: z.array(z.object({ url: z.string() })),
    pending_logins: z.array(backchannelRequest),
    provider_grants: z
      .array(z.object({ provider: z.string(), claim_id: bytes32, grant_id: z.string(), resource: z.string(), granted_at: dateTime }))
      .meta({ description: "The grants Signet holds at other Information Providers to read your claims' data there (until you revoke them there, or erase)" }),
  })
  .meta({ id: 'DataExport', description: 'Everything Signet holds about one identity (docs/export.md)' });

export const erasureChallenge = z.object({ challenge: z.string(), expires_at: dateTime }).meta({ id: 'ErasureChallenge' });

export const erasureBody = signatureBody.extend({
  /** Also revoke on chain the claims Signet's own issuer gave the identity. */
  revoke_issued_claims: z.boolean({ error: 'must be true or false' }).default(false),
});

export const erasurePath = z.object({ id: z.string().min(1).max(64) });

export const erasureState = z
  .object({
    id: z.string(),
    status: z.enum(['pending', 'running', 'done']),
    steps: z.array(z.enum(ERASURE_STEPS)),
    steps_done: z.array(z.enum(ERASURE_STEPS)),
    requested_at: dateTime,
    started_at: dateTime.nullable(),
    finished_at: dateTime.nullable(),
  })
  .meta({ id: 'ErasureState', description: "An erasure job's state: nothing about the identity" });

export const erasureAccepted = z.object({ id: z.string(), status: z.enum(['pending', 'running', 'done']) }).meta({ id: 'ErasureAccepted' });
