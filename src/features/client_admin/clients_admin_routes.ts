// The admin API of clients added at run time, under /admin/clients: create, list, read, replace,
// delete, as route declarations. A client is checked by the engine (its own client validation)
// and by Signet's rules (client_rules.ts) before it is stored, and is in force in every process
// within a second (decision 22). CLIENTS' clients are read-only here (decision 23); deleting a
// client ends what it held (decision 24). No answer is cached (the route default): they carry
// secrets.
import { randomBytes } from 'node:crypto';
import { refuse } from '../../base/errors.js';
import type { Reason } from '../../base/reasons.js';
import { clientSizeProblem, needsSecret } from '../../config/client_metadata.js';
import type { ClientRegistry } from '../../domain/clients/client_registry.js';
import type { RemoveClient } from '../../domain/clients/client_removal.js';
import type { ClientRules } from '../../domain/clients/client_rules.js';
import { engineRecordOf } from '../../domain/clients/client_seeding.js';
import type { ValidateWithEngine } from '../../domain/clients/engine_validation.js';
import { adminToken } from '../../http/authenticators.js';
import { type AnyRoute, route } from '../../http/route.js';
import type { ClientRecord, ClientRecords } from '../../infra/store/client_records.js';
import * as forms from './client_admin_schemas.js';

export type ClientsAdminDeps = {
  issuer: string;
  adminToken?: string;
  records: ClientRecords;
  registry: Pick<ClientRegistry, 'isConfigured'>;
  validate: ValidateWithEngine;
  rules: ClientRules;
  remove: RemoveClient;
};

const TAG = 'Admin: clients';

/** A new client's id and secret: 128 and 256 random bits, url-safe. */
const newClientId = () => randomBytes(16).toString('base64url');
const newClientSecret = () => randomBytes(32).toString('base64url');

/** The refusals of a route that stores a client: its checks, and a resolver that fails while its URLs are checked. */
const STORE_REFUSALS: Reason[] = ['client_metadata_invalid', 'dns_unavailable'];

export function clientsAdminRoutes(deps: ClientsAdminDeps): AnyRoute[] {
  // The token is checked first: without it nobody learns which clients exist.
  const auth = adminToken(deps.adminToken);
  const answer = (record: ClientRecord) => ({ ...record, configured: deps.registry.isConfigured(record.client_id) });

  const existing = async (clientId: string): Promise<ClientRecord> => {
    const record = await deps.records.find(clientId);
    if (!record) throw refuse('client_not_found', `no client "${clientId}" is registered`);
    return record;
  };
  /** CLIENTS' clients: the next start would write them back, so the API leaves them alone. */
  const changeable = async (clientId: string): Promise<ClientRecord> => {
    const record = await existing(clientId);
    if (deps.registry.isConfigured(clientId)) {
      throw refuse('client_configured', `client "${clientId}" is listed in CLIENTS: edit CLIENTS and restart Signet to change or remove it`);
    }
    return record;
  };

  /** The engine's checks, then Signet's: the first problem is the answer. */
  const checked = async (body: forms.ClientBody, clientId: string, secret: string | undefined): Promise<ClientRecord> => {
    const client_secret = body.client_secret ?? (needsSecret(body) ? (secret ?? newClientSecret()) : undefined);
    const metadata = { ...body, client_id: clientId, ...(client_secret ? { client_secret } : {}) };
    const record = engineRecordOf(metadata);
    const verdict = await deps.validate(record);
    if (verdict) throw refuse('client_metadata_invalid', verdict.description);
    const broken = clientSizeProblem(record) ?? (await deps.rules(metadata));
    if (broken) throw refuse('client_metadata_invalid', `${broken.field} ${broken.problem}`);
    return record;
  };

  /** The client_id a cursor starts after; a cursor this API did not give is refused. */
  const clientCursorOf = (cursor: string | undefined) => {
    if (cursor === undefined) return undefined;
    const clientId = Buffer.from(cursor, 'base64url').toString('utf8');
    if (!clientId || Buffer.from(clientId).toString('base64url') !== cursor) throw refuse('invalid_query', '"cursor" is not one this API gave');
    return clientId;
  };

  return [
    route({
      method: 'post',
      path: '/admin/clients',
      summary: 'Add a client (a website or a service); it can log owners in at once, in every process',
      tag: TAG,
      auth,
      body: forms.clientBody,
      bodyLimit: 'admin',
      responses: {
        201: {
          description: 'The client as stored, with its client_secret (made by Signet when none was given)',
          schema: forms.storedClient,
          headers: { Location: 'The client: {issuer}/admin/clients/{client_id}' },
        },
      },
      refusals: [...STORE_REFUSALS, 'client_id_taken'],
      async handle({ body }) {
        const clientId = body.client_id ?? newClientId();
        const taken = () => refuse('client_id_taken', `a client "${clientId}" already exists: replace it with PUT, or choose another id`);
        // A CLIENTS id is taken whatever the body holds (its name is reserved too, which would say less).
        if (deps.registry.isConfigured(clientId)) throw taken();
        const record = await checked(body, clientId, undefined);
        if (!(await deps.records.create(record))) throw taken();
        return { status: 201, headers: { Location: `${deps.issuer}/admin/clients/${encodeURIComponent(clientId)}` }, body: answer(record) };
      },
    }),

    route({
      method: 'get',
      path: '/admin/clients',
      summary: "The clients, CLIENTS' and those added at run time, by client_id, a page at a time",
      tag: TAG,
      auth,
      query: forms.clientListQuery,
      responses: { 200: { description: 'A page of the clients', schema: forms.clientList } },
      refusals: ['invalid_query'],
      async handle({ query }) {
        const { records, next } = await deps.records.page(clientCursorOf(query.cursor), query.limit);
        return { body: { clients: records.map(answer), next_cursor: next === undefined ? null : Buffer.from(next).toString('base64url') } };
      },
    }),

    route({
      method: 'get',
      path: '/admin/clients/{clientId}',
      summary: 'One client',
      tag: TAG,
      auth,
      params: forms.clientPath,
      responses: { 200: { description: 'The client as stored', schema: forms.storedClient } },
      refusals: ['client_not_found'],
      async handle({ params }) {
        return { body: answer(await existing(params.clientId)) };
      },
    }),

    route({
      method: 'put',
      path: '/admin/clients/{clientId}',
      summary: "Replace a client's metadata (a client_secret left out is kept); in force in every process within a second",
      tag: TAG,
      auth,
      params: forms.clientPath,
      body: forms.clientBody,
      bodyLimit: 'admin',
      responses: { 200: { description: 'The client as now stored', schema: forms.storedClient } },
      refusals: ['client_not_found', 'client_configured', ...STORE_REFUSALS],
      async handle({ params, body }) {
        const current = await changeable(params.clientId);
        if (body.client_id !== undefined && body.client_id !== params.clientId) {
          throw refuse('client_metadata_invalid', `client_id "${body.client_id}" differs from the path's "${params.clientId}": a client's id never changes`);
        }
        const record = await checked(body, params.clientId, typeof current.client_secret === 'string' ? current.client_secret : undefined);
        await deps.records.save(record);
        return { body: answer(record) };
      },
    }),

    route({
      method: 'delete',
      path: '/admin/clients/{clientId}',
      summary: 'Delete a client: its login grants and tokens, access grants, API keys, SSF streams and webhook end with it',
      tag: TAG,
      auth,
      params: forms.clientPath,
      responses: { 204: { description: 'Deleted; every token it held is refused from now on' } },
      refusals: ['client_not_found', 'client_configured'],
      async handle({ params }) {
        await changeable(params.clientId);
        await deps.remove(params.clientId);
        return { status: 204 };
      },
    }),
  ];
}
