// One time budget for all the chain reads of a request: a middleware opens it, and every
// RPC call made while the request runs aborts when it is spent (docs/decisions.md, 19: a 503 within a
// deadline, however many calls a step makes). Work that outlives its request runs outside it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Middleware } from 'koa';

type Budget = { expiresAt: number };

const current = new AsyncLocalStorage<Budget>();

/** Opens a budget of `budgetMs` for the chain calls of each request. */
export function chainDeadline(budgetMs: number): Middleware {
  return (_ctx, next) => current.run({ expiresAt: Date.now() + budgetMs }, next);
}

/** A signal that aborts when the running request's budget is spent (undefined outside a request). */
export function chainBudgetSignal(): AbortSignal | undefined {
  const budget = current.getStore();
  if (!budget) return undefined;
  const left = budget.expiresAt - Date.now();
  return left > 0 ? AbortSignal.timeout(left) : AbortSignal.abort(new DOMException('the chain budget of this request is spent', 'TimeoutError'));
}

/** Runs work that must not be cut by the request that started it (it has its own bounds). */
export function outsideRequestBudget<T>(work: () => T): T {
  return current.exit(work);
}
