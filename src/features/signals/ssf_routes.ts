// Signet as an SSF 1.0 transmitter (docs/signals.md): its configuration at
// /.well-known/ssf-configuration, and the stream management API a client calls with its client
// credentials token (scope `ssf`): create, read, update, replace and delete its push streams,
// read and set their status, and ask for a verification event.
import type Provider from 'oidc-provider';
import { refuse } from '../../base/errors.js';
import type { Config } from '../../config/config.js';
import type { ClientRegistry } from '../../domain/clients/client_registry.js';
import type { DpopCheck } from '../../domain/dpop/dpop_proof.js';
import { anyone } from '../../http/authenticators.js';
import { type AnyRoute, route } from '../../http/route.js';
import type { UrlGuard } from '../../infra/outbound/url_guard.js';
import type { SignalsService } from './signals.js';
import { type SsfCaller, ssfClient } from './ssf_auth.js';
import { eventsSupported, SSF_PUSH } from './ssf_events.js';
import {
  createStreamBody,
  statusBody,
  streamConfiguration,
  streamIdQuery,
  streamQuery,
  streamStatus,
  transmitterConfiguration,
  updateStreamBody,
  verifyBody,
} from './ssf_schemas.js';
import { eventsDelivered, MAX_STREAMS_PER_CLIENT, MIN_VERIFICATION_INTERVAL, newStreamId, type SsfStream, type SsfStreams } from './ssf_streams.js';

const TAG = 'Shared Signals (SSF)';

export type SsfRoutesDeps = {
  config: Pick<Config, 'issuer'>;
  provider: Provider;
  /** Who may manage streams: a client allowed the client credentials grant, read at each call. */
  clients: Pick<ClientRegistry, 'find'>;
  streams: SsfStreams;
  signals: Pick<SignalsService, 'verify'>;
  /** The public-address check of a receiver's endpoint_url, as for owners' webhooks. */
  guard: UrlGuard;
  /** The DPoP check of a DPoP-bound token (src/domain/dpop/dpop_proof.ts). */
  checkDpop: DpopCheck;
  now: () => number;
};

type DeliveryInput = { method: string; endpoint_url?: string; authorization_header?: string };
type TransmitterSupplied = {
  iss?: string;
  aud?: string | string[];
  events_supported?: string[];
  events_delivered?: string[];
  min_verification_interval?: number;
};

/** The refusals of a route that takes a delivery (the endpoint check's among them). */
const DELIVERY_REFUSALS = ['ssf_delivery_unsupported', 'webhook_url_not_public', 'webhook_url_unresolvable', 'dns_unavailable'] as const;

export function ssfRoutes(deps: SsfRoutesDeps): AnyRoute[] {
  const { issuer } = deps.config;
  const auth = ssfClient(deps.provider, (clientId) => deps.clients.find(clientId), deps.checkDpop);
  const supported = eventsSupported(issuer);
  const at = () => new Date(deps.now()).toISOString();

  const configurationOf = (stream: SsfStream) => ({
    stream_id: stream.stream_id,
    iss: issuer,
    aud: stream.client_id,
    // The authorization_header the receiver gave is used, never shown back.
    delivery: { method: stream.delivery.method, endpoint_url: stream.delivery.endpoint_url },
    events_supported: supported,
    events_requested: stream.events_requested,
    events_delivered: eventsDelivered(stream, issuer),
    ...(stream.description !== undefined ? { description: stream.description } : {}),
    min_verification_interval: MIN_VERIFICATION_INTERVAL,
  });

  const statusOf = (stream: SsfStream) => ({
    stream_id: stream.stream_id,
    status: stream.status,
    ...(stream.status_reason !== undefined ? { reason: stream.status_reason } : {}),
  });

  /** The caller's own stream, or 404: another client's stream is as unknown as a missing one. */
  const owned = async (caller: SsfCaller, streamId: string): Promise<SsfStream> => {
    const stream = await deps.streams.get(streamId);
    if (!stream || stream.client_id !== caller.client_id) throw refuse('ssf_stream_not_found', `the client has no SSF stream ${streamId}`);
    return stream;
  };

  /** Push to a public endpoint: the only delivery Signet offers (no delivery means poll). */
  const pushDelivery = async (delivery: DeliveryInput | undefined): Promise<SsfStream['delivery']> => {
    if (delivery?.method !== SSF_PUSH) {
      throw refuse('ssf_delivery_unsupported', `Signet delivers by push only: send "delivery": { "method": "${SSF_PUSH}", "endpoint_url": … }`);
    }
    if (!delivery.endpoint_url) throw refuse('invalid_body', '"delivery.endpoint_url" is required for push delivery');
    await deps.guard.check(delivery.endpoint_url);
    return {
      method: SSF_PUSH,
      endpoint_url: delivery.endpoint_url,
      ...(delivery.authorization_header ? { authorization_header: delivery.authorization_header } : {}),
    };
  };

  /** A receiver may echo what Signet supplies; each one present must match (SSF 1.0, PATCH and PUT). */
  const checkTransmitterSupplied = (body: TransmitterSupplied, stream: SsfStream) => {
    const current = configurationOf(stream);
    const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((value) => b.includes(value));
    const aud = body.aud === undefined ? undefined : Array.isArray(body.aud) ? body.aud : [body.aud];
    const mismatched = [
      body.iss !== undefined && body.iss !== current.iss ? 'iss' : undefined,
      aud !== undefined && !sameSet(aud, [current.aud]) ? 'aud' : undefined,
      body.events_supported !== undefined && !sameSet(body.events_supported, current.events_supported) ? 'events_supported' : undefined,
      body.events_delivered !== undefined && !sameSet(body.events_delivered, current.events_delivered) ? 'events_delivered' : undefined,
      body.min_verification_interval !== undefined && body.min_verification_interval !== current.min_verification_interval
        ? 'min_verification_interval'
        : undefined,
    ].find(Boolean);
    if (mismatched) throw refuse('ssf_property_mismatch', `"${mismatched}" is Signet's to set, and differs from the stream's`);
  };

  return [
    route({
      method: 'get',
      path: '/.well-known/ssf-configuration',
      summary: 'The SSF transmitter configuration',
      tag: TAG,
      auth: anyone,
      cache: { publicMaxAgeSeconds: 300 },
      responses: { 200: { description: 'Signet as a Shared Signals transmitter', schema: transmitterConfiguration } },
      async handle() {
        return {
          body: {
            spec_version: '1_0',
            issuer,
            jwks_uri: `${issuer}/jwks`,
            delivery_methods_supported: [SSF_PUSH],
            configuration_endpoint: `${issuer}/ssf/streams`,
            status_endpoint: `${issuer}/ssf/status`,
            verification_endpoint: `${issuer}/ssf/verify`,
            authorization_schemes: [{ spec_urn: 'urn:ietf:rfc:6749' }],
            default_subjects: 'ALL',
          },
        };
      },
    }),

    route({
      method: 'post',
      path: '/ssf/streams',
      summary: 'Create a push stream of security events',
      tag: TAG,
      auth,
      body: createStreamBody,
      responses: { 201: { description: 'The stream configuration', schema: streamConfiguration } },
      refusals: [...DELIVERY_REFUSALS, 'ssf_stream_limit'],
      async handle({ caller, body }) {
        const delivery = await pushDelivery(body.delivery);
        if ((await deps.streams.of(caller.client_id)).length >= MAX_STREAMS_PER_CLIENT) {
          throw refuse('ssf_stream_limit', `a client may have ${MAX_STREAMS_PER_CLIENT} SSF streams: delete one first`);
        }
        const stream: SsfStream = {
          stream_id: newStreamId(),
          client_id: caller.client_id,
          delivery,
          events_requested: body.events_requested ?? [],
          ...(body.description !== undefined ? { description: body.description } : {}),
          status: 'enabled',
          created_at: at(),
          updated_at: at(),
        };
        await deps.streams.save(stream);
        return { status: 201, body: configurationOf(stream) };
      },
    }),

    route({
      method: 'get',
      path: '/ssf/streams',
      summary: "Read one of the client's streams, or all of them",
      tag: TAG,
      auth,
      query: streamQuery,
      responses: {
        200: {
          description: 'The stream configuration with stream_id; without it, every stream of the client (maybe none)',
          schema: streamConfiguration.or(streamConfiguration.array()),
        },
      },
      refusals: ['ssf_stream_not_found'],
      async handle({ caller, query }) {
        if (query.stream_id) return { body: configurationOf(await owned(caller, query.stream_id)) };
        return { body: (await deps.streams.of(caller.client_id)).map(configurationOf) };
      },
    }),

    route({
      method: 'patch',
      path: '/ssf/streams',
      summary: "Update a stream: the receiver's properties the body names",
      tag: TAG,
      auth,
      body: updateStreamBody,
      responses: { 200: { description: 'The whole updated configuration', schema: streamConfiguration } },
      refusals: ['ssf_stream_not_found', 'ssf_property_mismatch', ...DELIVERY_REFUSALS],
      async handle({ caller, body }) {
        const stream = await owned(caller, body.stream_id);
        checkTransmitterSupplied(body, stream);
        const updated: SsfStream = {
          ...stream,
          ...(body.delivery !== undefined ? { delivery: await pushDelivery(body.delivery) } : {}),
          ...(body.events_requested !== undefined ? { events_requested: body.events_requested } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          updated_at: at(),
        };
        await deps.streams.save(updated);
        return { body: configurationOf(updated) };
      },
    }),

    route({
      method: 'put',
      path: '/ssf/streams',
      summary: "Replace a stream's configuration: what the body leaves out is removed",
      tag: TAG,
      auth,
      body: updateStreamBody,
      responses: { 200: { description: 'The replaced configuration', schema: streamConfiguration } },
      refusals: ['ssf_stream_not_found', 'ssf_property_mismatch', ...DELIVERY_REFUSALS],
      async handle({ caller, body }) {
        const stream = await owned(caller, body.stream_id);
        checkTransmitterSupplied(body, stream);
        const { description: _dropped, ...kept } = stream;
        const replaced: SsfStream = {
          ...kept,
          delivery: await pushDelivery(body.delivery),
          events_requested: body.events_requested ?? [],
          ...(body.description !== undefined ? { description: body.description } : {}),
          updated_at: at(),
        };
        await deps.streams.save(replaced);
        return { body: configurationOf(replaced) };
      },
    }),

    route({
      method: 'delete',
      path: '/ssf/streams',
      summary: 'Delete a stream: nothing more is sent on it',
      tag: TAG,
      auth,
      query: streamIdQuery,
      responses: { 204: { description: 'Deleted' } },
      refusals: ['ssf_stream_not_found'],
      async handle({ caller, query }) {
        await deps.streams.remove(await owned(caller, query.stream_id));
        return { status: 204 };
      },
    }),

    route({
      method: 'get',
      path: '/ssf/status',
      summary: "Read a stream's status",
      tag: TAG,
      auth,
      query: streamIdQuery,
      responses: { 200: { description: 'The status', schema: streamStatus } },
      refusals: ['ssf_stream_not_found'],
      async handle({ caller, query }) {
        return { body: statusOf(await owned(caller, query.stream_id)) };
      },
    }),

    route({
      method: 'post',
      path: '/ssf/status',
      summary: "Set a stream's status: enabled, paused or disabled (neither of the last two holds events)",
      tag: TAG,
      auth,
      body: statusBody,
      responses: { 200: { description: 'The new status', schema: streamStatus } },
      refusals: ['ssf_stream_not_found'],
      async handle({ caller, body }) {
        const { status_reason: _old, ...stream } = await owned(caller, body.stream_id);
        const updated: SsfStream = { ...stream, status: body.status, ...(body.reason !== undefined ? { status_reason: body.reason } : {}), updated_at: at() };
        await deps.streams.save(updated);
        return { body: statusOf(updated) };
      },
    }),

    route({
      method: 'post',
      path: '/ssf/verify',
      summary: 'Ask for a verification event on a stream',
      tag: TAG,
      auth,
      body: verifyBody,
      responses: { 204: { description: 'Queued: the verification SET follows' } },
      refusals: ['ssf_stream_not_found', 'rate_limited'],
      async handle({ caller, body }) {
        const stream = await owned(caller, body.stream_id);
        if (!(await deps.streams.mayVerify(stream.stream_id))) {
          throw refuse('rate_limited', `one verification per ${MIN_VERIFICATION_INTERVAL} s on a stream`, { retryAfterSeconds: MIN_VERIFICATION_INTERVAL });
        }
        await deps.signals.verify(stream, body.state);
        return { status: 204 };
      },
    }),
  ];
}
