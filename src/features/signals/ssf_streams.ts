// The SSF streams clients create (docs/signals.md): each kept in Redis as JSON, listed in its
// client's index, until the client deletes it. What the client supplied (delivery, events
// requested, description, status) is stored; what Signet supplies (iss, aud, events_supported,
// events_delivered) is derived when the stream is read, so it follows Signet's own settings.
import { randomBytes } from 'node:crypto';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import { eventsSupported, type SSF_PUSH } from './ssf_events.js';

export type SsfStatus = 'enabled' | 'paused' | 'disabled';

export type SsfStream = {
  stream_id: string;
  client_id: string;
  /** Push (RFC 8935) to the receiver's URL, with the Authorization header it asked for. */
  delivery: { method: typeof SSF_PUSH; endpoint_url: string; authorization_header?: string };
  events_requested: string[];
  description?: string;
  status: SsfStatus;
  status_reason?: string;
  created_at: string;
  updated_at: string;
};

/** Streams a client may hold at once. */
export const MAX_STREAMS_PER_CLIENT = 10;

/** Seconds between two verification requests on one stream (`min_verification_interval`). */
export const MIN_VERIFICATION_INTERVAL = 10;

export const newStreamId = () => randomBytes(16).toString('hex');

/** The event types a stream gets: those it asked for that Signet sends, in Signet's order. */
export const eventsDelivered = (stream: Pick<SsfStream, 'events_requested'>, issuer: string) =>
  eventsSupported(issuer).filter((type) => stream.events_requested.includes(type));

export function createSsfStreams(store: Store) {
  const parse = (raw: string | undefined) => (raw ? (JSON.parse(raw) as SsfStream) : undefined);
  return {
    get: async (streamId: string) => parse(await store.get(keys.ssfStream(streamId))),
    /** A client's streams, oldest first. */
    async of(clientId: string): Promise<SsfStream[]> {
      const ids = await store.indexMembers(keys.ssfStreamsOf(clientId));
      if (ids.length === 0) return [];
      const streams = (await store.getMany(ids.map(keys.ssfStream))).map(parse);
      return streams
        .filter((stream): stream is SsfStream => stream?.client_id === clientId)
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.stream_id.localeCompare(b.stream_id));
    },
    /** Writes the stream, then lists it in its client's index (kept until removed). */
    async save(stream: SsfStream): Promise<void> {
      await store.set(keys.ssfStream(stream.stream_id), JSON.stringify(stream));
      await store.addToIndex(keys.ssfStreamsOf(stream.client_id), stream.stream_id, 0);
    },
    async remove(stream: SsfStream): Promise<void> {
      await store.delete(keys.ssfStream(stream.stream_id));
      await store.removeFromIndex(keys.ssfStreamsOf(stream.client_id), stream.stream_id);
    },
    /** True when no verification was asked on the stream within MIN_VERIFICATION_INTERVAL. */
    mayVerify: (streamId: string) => store.setIfAbsent(keys.ssfVerified(streamId), '1', MIN_VERIFICATION_INTERVAL),
  };
}

export type SsfStreams = ReturnType<typeof createSsfStreams>;
