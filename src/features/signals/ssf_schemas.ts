// The forms of the SSF routes (OpenID Shared Signals Framework 1.0): the transmitter
// configuration, stream configurations and statuses, and the bodies receivers send.
import { z } from 'zod';
import { HEADER_VALUE, HEADER_VALUE_PROBLEM } from '../../infra/outbound/header_value.js';
import { SSF_PUSH } from './ssf_events.js';

const streamId = z.string({ error: 'is required' }).min(1, 'is required').max(64).meta({ description: 'The stream, as its creation answered' });
const eventType = z.string().min(1).max(512);

/** What a receiver supplies (SSF 1.0 "Stream Configuration"); other members are ignored. */
const delivery = z.object({
  method: z.string({ error: 'is required' }).max(512),
  endpoint_url: z
    .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
    .max(2048)
    .optional(),
  /** Sent as the Authorization header of every push to endpoint_url; never shown back. Refused with a control character (a CR or LF would add headers). */
  authorization_header: z.string().min(1).max(4096).regex(HEADER_VALUE, HEADER_VALUE_PROBLEM).optional(),
});

const receiverSupplied = {
  delivery: delivery.optional(),
  events_requested: z.array(eventType).max(32).optional(),
  description: z.string().max(1024).optional(),
};

/** What Signet supplies: a receiver may send them back, and they must then match. */
const transmitterSupplied = {
  iss: z.string().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  events_supported: z.array(z.string()).optional(),
  events_delivered: z.array(z.string()).optional(),
  min_verification_interval: z.number().optional(),
};

export const createStreamBody = z.object(receiverSupplied);
export const updateStreamBody = z.object({ stream_id: streamId, ...receiverSupplied, ...transmitterSupplied });
export const streamQuery = z.object({ stream_id: streamId.optional() });
export const streamIdQuery = z.object({ stream_id: streamId });

export const STATUSES = ['enabled', 'paused', 'disabled'] as const;
export const statusBody = z.object({
  stream_id: streamId,
  status: z.enum(STATUSES, { error: 'must be enabled, paused or disabled' }),
  reason: z.string().max(256).optional(),
});
export const verifyBody = z.object({ stream_id: streamId, state: z.string().max(1024).optional() });

// Answers.
export const streamConfiguration = z
  .object({
    stream_id: z.string(),
    iss: z.string(),
    aud: z.string().meta({ description: 'The client_id of the receiver' }),
    delivery: z.object({ method: z.literal(SSF_PUSH), endpoint_url: z.string() }),
    events_supported: z.array(z.string()),
    events_requested: z.array(z.string()),
    events_delivered: z.array(z.string()),
    description: z.string().optional(),
    min_verification_interval: z.number().int(),
  })
  .meta({ id: 'SsfStreamConfiguration' });

export const streamStatus = z.object({ stream_id: z.string(), status: z.enum(STATUSES), reason: z.string().optional() }).meta({ id: 'SsfStreamStatus' });

export const transmitterConfiguration = z
  .object({
    spec_version: z.literal('1_0'),
    issuer: z.string(),
    jwks_uri: z.string(),
    delivery_methods_supported: z.array(z.string()),
    configuration_endpoint: z.string(),
    status_endpoint: z.string(),
    verification_endpoint: z.string(),
    authorization_schemes: z.array(z.object({ spec_urn: z.string() })),
    default_subjects: z.enum(['ALL', 'NONE']),
  })
  .meta({ id: 'SsfTransmitterConfiguration' });
