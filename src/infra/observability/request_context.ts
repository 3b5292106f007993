// The request a piece of code runs for, carried through async calls (AsyncLocalStorage), so
// every log line written while serving a request names its id without passing it around, and
// every chain call made for it ends with its chain budget (src/infra/chain/chain_deadline.ts). One
// store holds both: each AsyncLocalStorage in use adds its own work to every promise made.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export type RequestContext = {
  request_id: string;
  /** When the request's chain budget is spent (epoch ms), once the chain deadline opened it. */
  chainBudgetEnd?: number;
};

export const requestContext = new AsyncLocalStorage<RequestContext>();

// An incoming X-Request-Id is kept when it is short and plain (a proxy's or a client's
// correlation id); anything else could forge or flood log lines, so a new id replaces it.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

export function requestIdFrom(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && SANE_REQUEST_ID.test(value) ? value : randomUUID();
}
