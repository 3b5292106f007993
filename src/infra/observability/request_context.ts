// The request a piece of code runs for, carried through async calls, so every log line written
// while serving a request names its id without passing it around, and every chain call made
// for it ends with its chain budget (src/infra/chain/chain_deadline.ts).
//
// It rides on the engine's own AsyncLocalStorage, the one behind `Provider.ctx`, which holds the
// Koa context of the request the engine serves: Signet's outermost middleware enters that store
// with the same Koa context (the engine, mounted, gets that very object), and Signet's context is
// a field of it. Each AsyncLocalStorage in use adds its own work to every promise made, and a
// request makes hundreds: a second store of Signet's own was 3 % of userinfo's CPU (decision 56).
import { randomUUID } from 'node:crypto';
import engineRequests from 'oidc-provider/lib/helpers/als.js';

export type RequestContext = {
  request_id: string;
  /** When the request's chain budget is spent (epoch ms), once the chain deadline opened it. */
  chainBudgetEnd?: number;
};

const CONTEXT = Symbol('signet request context');

/** What the store holds: the request's Koa context (or, for work outside it, a bare holder), with Signet's context on it. */
type Holder = { [CONTEXT]?: RequestContext };

export const requestContext = {
  /**
   * Runs `work` as part of the request `context`. `holder`: the request's Koa context, which the
   * engine finds in the same store; without it (work apart from the engine's requests) a holder
   * of its own.
   */
  run<T>(context: RequestContext, work: () => T, holder: object = {}): T {
    (holder as Holder)[CONTEXT] = context;
    return engineRequests.run(holder, work);
  },
  /** The running request's context; undefined outside a request. */
  getStore(): RequestContext | undefined {
    return (engineRequests.getStore() as Holder | undefined)?.[CONTEXT];
  },
};

// An incoming X-Request-Id is kept when it is short and plain (a proxy's or a client's
// correlation id); anything else could forge or flood log lines, so a new id replaces it.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

export function requestIdFrom(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && SANE_REQUEST_ID.test(value) ? value : randomUUID();
}
