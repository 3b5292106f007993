// OpenID CIBA (poll mode) requests waiting in the owner's inbox: a standard client asks the
// engine to reach the owner, Signet files the request here with the text to sign, and the
// owner approves (signs) or denies it from the account API.
import { randomBytes } from 'node:crypto';
import type { Address } from 'viem';
import { identityKeyOf } from '../../infra/chain/identity_key.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

export type BackchannelRequest = {
  id: string;
  identity: Address;
  /** The identity's chain, as records name it (absent: the default chain, as before several chains; src/infra/chain/chains.ts). */
  chain_id?: number;
  client_id: string;
  client_name: string;
  fields: string[];
  scope: string;
  binding_message: string | null;
  challenge: string;
  created_at: string;
  expires_at: string;
};

export function backchannelChallenge(request: Omit<BackchannelRequest, 'challenge'>, issuer: string, subject: string, labels: string[]): string {
  return [
    `Signet (${new URL(issuer).host}) login request`,
    '',
    `${request.client_name} asks you to sign in with your identity and share: ${labels.length ? labels.join(', ') : 'nothing but your identity'}.`,
    '',
    `Identity: ${subject}`,
    ...(request.binding_message ? [`Binding message: ${request.binding_message}`] : []),
    `Request: ${request.id}`,
    `Nonce: ${randomBytes(12).toString('base64url')}`,
    `Expires: ${request.expires_at}`,
  ].join('\n');
}

export function createBackchannelInbox(store: Store) {
  return {
    /** Files the request unless `atMost` others already wait for its identity: false then, and nothing written. */
    async file(request: BackchannelRequest, ttlSeconds: number, atMost: number): Promise<boolean> {
      const index = keys.backchannelRequestsOf(identityKeyOf(request.identity, request.chain_id));
      if (!(await store.addToIndexWithin(index, request.id, ttlSeconds, atMost))) return false;
      await store.set(keys.backchannelRequest(request.id), JSON.stringify(request), ttlSeconds);
      return true;
    },
    async find(id: string): Promise<BackchannelRequest | undefined> {
      const raw = await store.get(keys.backchannelRequest(id));
      return raw ? (JSON.parse(raw) as BackchannelRequest) : undefined;
    },
    /** Takes the request out of the inbox once: the first decision wins. */
    async take(id: string): Promise<BackchannelRequest | undefined> {
      const raw = await store.take(keys.backchannelRequest(id));
      if (!raw) return undefined;
      const request = JSON.parse(raw) as BackchannelRequest;
      // A decided request no longer counts against its identity's bound on waiting requests.
      await store.removeFromIndex(keys.backchannelRequestsOf(identityKeyOf(request.identity, request.chain_id)), id);
      return request;
    },
    /** The requests waiting for the identity's owner (`chainId`: of an identity on another chain than the default one). */
    async pendingFor(identity: Address, chainId?: number): Promise<BackchannelRequest[]> {
      const ids = await store.indexMembers(keys.backchannelRequestsOf(identityKeyOf(identity, chainId)));
      const found = await Promise.all(ids.map(async (id) => store.get(keys.backchannelRequest(id))));
      return found.filter((raw): raw is string => raw !== undefined).map((raw) => JSON.parse(raw) as BackchannelRequest);
    },
  };
}

export type BackchannelInbox = ReturnType<typeof createBackchannelInbox>;
