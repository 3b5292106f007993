// Telling the websites (docs/signals.md): each ConsentSignal becomes, for each client it
// concerns, an OpenID Back-Channel Logout token (a login grant that ended, to a client with a
// backchannel_logout_uri) and Shared Signals SETs (to each enabled stream of the client that asked
// for the event type). Each is one job on the webhook queue, so it gets the queue's retries,
// per-receiver lanes, address checks and durability; the tokens are signed at delivery.
import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import type { Chains } from '../../domain/chains/chains.js';
import type { ClientRegistry } from '../../domain/clients/client_registry.js';
import type { ConsentSignal, Signals } from '../../domain/consent/consent_signal.js';
import { subjectOf } from '../../domain/identity/subject.js';
import type { WebhookEvent, WebhookQueue } from '../../domain/webhooks/webhook_queue.js';
import { bclService, type LogoutEventData, type SetEventData, ssfService } from './signal_targets.js';
import { ssfEventOf, subjectIdOf, VERIFICATION } from './ssf_events.js';
import { eventsDelivered, type SsfStream, type SsfStreams } from './ssf_streams.js';

export type SignalsDeps = {
  /** Signet's issuer: `iss` of every token, and the base of its own event types. */
  issuer: string;
  /** The chain a signal means: the one it names, else the default chain. */
  chains: Pick<Chains, 'idOf'>;
  /** The clients (CLIENTS' and those added at run time): who has a backchannel_logout_uri, and wants `sid`. */
  clients: Pick<ClientRegistry, 'find'>;
  /** Where each logout token and SET waits for delivery (durable once enqueue resolves). */
  queue: Pick<WebhookQueue, 'enqueue'>;
  streams: SsfStreams;
  /** The clients holding a live grant of an identity: who hears of a change of its wallets' keys. */
  clientsOf(identity: Address, chainId?: number): Promise<string[]>;
  now?: () => number;
};

export type SignalsService = Signals & {
  /** A logout token for one client's login session (the engine's RP-initiated logout sends through here). */
  logout(clientId: string, sub: string, sid: string | undefined): Promise<void>;
  /** SSF verification: a verification SET on the stream, echoing the receiver's state. */
  verify(stream: SsfStream, state?: string): Promise<void>;
};

export function createSignals(deps: SignalsDeps): SignalsService {
  const now = deps.now ?? Date.now;
  const job = (type: string, service: string, data: Record<string, unknown>, id = randomUUID()): WebhookEvent => ({
    id,
    type,
    service,
    created_at: new Date(now()).toISOString(),
    data,
  });

  const logout = async (clientId: string, sub: string, sid: string | undefined) => {
    const client = await deps.clients.find(clientId);
    if (!client?.backchannel_logout_uri) return;
    // `sid` only for a client that asked for it, as its ID tokens carry it only then.
    const data: LogoutEventData = { sub, ...(client.backchannel_logout_session_required && sid ? { sid } : {}) };
    await deps.queue.enqueue(job('backchannel_logout', bclService(clientId), data));
  };

  const securityEvent = (stream: SsfStream, type: string, claims: Omit<SetEventData, 'jti' | 'aud'>) => {
    const jti = randomUUID();
    const set: SetEventData = { jti, aud: stream.client_id, ...claims };
    return deps.queue.enqueue(job(type, ssfService(stream.stream_id), set, jti));
  };

  /** The chain of the signal's identity: the one it names, else the first. */
  const chainIdOf = (signal: ConsentSignal) => deps.chains.idOf(signal.chain_id);

  const concerned = async (signal: ConsentSignal): Promise<string[]> => {
    if (signal.type === 'grant_ended') return [signal.client_id];
    if (signal.type === 'claim_ended') return [...new Set(signal.client_ids)];
    return [...new Set(await deps.clientsOf(signal.identity, signal.chain_id))];
  };

  return {
    async emit(signal) {
      // Read everything first, then queue every job at once.
      const sends: (() => Promise<void>)[] = [];
      // The engine's own logout (RP-initiated) already sent its logout token through `logout`.
      if (signal.type === 'grant_ended' && signal.kind === 'login' && signal.reason !== 'signed_out') {
        sends.push(() => logout(signal.client_id, subjectOf(chainIdOf(signal), signal.identity), signal.sid));
      }
      const { type, body } = ssfEventOf(signal, deps.issuer);
      // One transaction id for every SET of this signal (SSF 1.0, "The txn claim").
      const txn = randomUUID();
      const iat = Math.floor(now() / 1000);
      const sub_id = subjectIdOf(deps.issuer, chainIdOf(signal), signal.identity);
      for (const clientId of await concerned(signal)) {
        for (const stream of await deps.streams.of(clientId)) {
          if (stream.status !== 'enabled' || !eventsDelivered(stream, deps.issuer).includes(type)) continue;
          sends.push(() => securityEvent(stream, type, { iat, txn, sub_id, events: { [type]: body } }));
        }
      }
      await Promise.all(sends.map((send) => send()));
    },
    logout,
    verify: (stream, state) =>
      securityEvent(stream, VERIFICATION, {
        iat: Math.floor(now() / 1000),
        // SSF 1.0, "Verification Event": the subject of a verification is the stream itself.
        sub_id: { format: 'opaque', id: stream.stream_id },
        events: { [VERIFICATION]: state === undefined ? {} : { state } },
      }),
  };
}
