// Where the webhook queue delivers the signals: services named "bcl:<client_id>" post logout
// tokens to the client's backchannel_logout_uri (read from the client registry at each attempt;
// trusted when the operator configured it in CLIENTS, else checked for a public address as
// owners' webhooks are), and "ssf:<stream_id>" push SETs to the stream's endpoint_url (given by
// the client: checked the same way). Each body is signed at each attempt.
import type { ClientRegistry } from '../../domain/clients/client_registry.js';
import type { ProtocolTarget, WebhookEvent } from '../../domain/webhooks/webhook_queue.js';
import type { SetClaims, SignalSigner } from './signal_signer.js';
import type { SsfStreams } from './ssf_streams.js';

export const BCL_PREFIX = 'bcl:';
export const SSF_PREFIX = 'ssf:';

export const bclService = (clientId: string) => `${BCL_PREFIX}${clientId}`;
export const ssfService = (streamId: string) => `${SSF_PREFIX}${streamId}`;

/** What a "bcl:" event holds: the logout token's claims but those of the moment it is signed. */
export type LogoutEventData = { sub: string; sid?: string };

/** What an "ssf:" event holds: the SET's claims but `iss`. */
export type SetEventData = SetClaims;

export function signalTargets(deps: { clients: Pick<ClientRegistry, 'find' | 'isConfigured'>; streams: SsfStreams; signer: SignalSigner }) {
  const logoutTarget = async (clientId: string): Promise<ProtocolTarget | undefined> => {
    const url = (await deps.clients.find(clientId))?.backchannel_logout_uri;
    // A client deleted, or without the URI by now, gets nothing (the event is dropped, logged).
    if (typeof url !== 'string') return undefined;
    return {
      url,
      trusted: deps.clients.isConfigured(clientId),
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
