// Where the webhook queue delivers the signals: services named "bcl:<client_id>" post logout
// tokens to the client's backchannel_logout_uri (configured by the operator: trusted), and
// "ssf:<stream_id>" push SETs to the stream's endpoint_url (given by the client: checked for a
// public address at each attempt, as owners' webhooks are). Each body is signed at each attempt.
import type { Config } from '../config.js';
import type { ProtocolTarget, WebhookEvent } from '../notify/webhook_queue.js';
import type { SignalSigner, SetClaims } from './signal_signer.js';
import type { SsfStreams } from './ssf_streams.js';

export const BCL_PREFIX = 'bcl:';
export const SSF_PREFIX = 'ssf:';

export const bclService = (clientId: string) => `${BCL_PREFIX}${clientId}`;
export const ssfService = (streamId: string) => `${SSF_PREFIX}${streamId}`;

/** What a "bcl:" event holds: the logout token's claims but those of the moment it is signed. */
export type LogoutEventData = { sub: string; sid?: string };

/** What an "ssf:" event holds: the SET's claims but `iss`. */
export type SetEventData = SetClaims;

export function signalTargets(deps: { clients: Config['clients']; streams: SsfStreams; signer: SignalSigner }) {
  const logoutUris = new Map<string, string>();
  for (const client of deps.clients) if (client.backchannel_logout_uri) logoutUris.set(client.client_id, client.backchannel_logout_uri);

  const logoutTarget = (clientId: string): ProtocolTarget | undefined => {
    const url = logoutUris.get(clientId);
    if (!url) return undefined;
    return {
      url,
      trusted: true,
      async render(event: WebhookEvent) {
        const { sub, sid } = event.data as LogoutEventData;
        const token = await deps.signer.logoutToken({ aud: clientId, sub, sid, jti: event.id });
        return { contentType: 'application/x-www-form-urlencoded', body: new URLSearchParams({ logout_token: token }).toString() };
      },
      // Back-Channel Logout 1.0 §2.8: 200 OK, and 204 from frameworks that answer an empty body so.
      accepted: (status) => status === 200 || status === 204,
    };
  };

  const streamTarget = async (streamId: string): Promise<ProtocolTarget | undefined> => {
    const stream = await deps.streams.get(streamId);
    // A deleted, paused or disabled stream gets nothing (the event is dropped, logged).
    if (stream?.status !== 'enabled') return undefined;
    const { endpoint_url, authorization_header } = stream.delivery;
    return {
      url: endpoint_url,
      trusted: false,
      async render(event: WebhookEvent) {
        return {
          contentType: 'application/secevent+jwt',
          accept: 'application/json',
          authorization: authorization_header,
          body: await deps.signer.securityEvent(event.data as SetEventData),
        };
      },
      // RFC 8935 §2.2: a SET the receiver took is answered 202 Accepted.
      accepted: (status) => status === 202,
    };
  };

  /** The target of a signal's service name, or undefined when the name is not one. */
  return (service: string): ProtocolTarget | undefined | Promise<ProtocolTarget | undefined> => {
    if (service.startsWith(BCL_PREFIX)) return logoutTarget(service.slice(BCL_PREFIX.length));
    if (service.startsWith(SSF_PREFIX)) return streamTarget(service.slice(SSF_PREFIX.length));
    return undefined;
  };
}

export const isSignalService = (service: string) => service.startsWith(BCL_PREFIX) || service.startsWith(SSF_PREFIX);
