// The `sid` a website knows a login by: the engine keeps it in the login session's record, per
// client, beside the grant it issued. Found through the sessions indexed by subject.
import type { Address } from 'viem';
import type { Chains } from '../../domain/chains/chains.js';
import { subjectOf } from '../../domain/identity/subject.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

type SessionRecord = { authorizations?: Record<string, { sid?: string; grantId?: string }> };

export function createLoginSessionSid(store: Store, chains: Pick<Chains, 'idOf'>) {
  /** `onChain`: the identity's chain as its receipt names it (none: the default chain). */
  return async function sidOf(identity: Address, clientId: string, grantId: string, onChain?: number): Promise<string | undefined> {
    const sessions = await store.indexMembers(keys.engineSessionsOf(subjectOf(chains.idOf(onChain), identity)));
    if (!sessions.length) return undefined;
    for (const raw of await store.getMany(sessions)) {
      if (!raw) continue;
      const authorization = (JSON.parse(raw) as SessionRecord).authorizations?.[clientId];
      if (authorization?.grantId === grantId && authorization.sid) return authorization.sid;
    }
    return undefined;
  };
}

export type LoginSessionSid = ReturnType<typeof createLoginSessionSid>;
