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

/** When the running request's budget is spent (epoch ms; undefined outside a request). */
export function chainBudgetDeadline(): number | undefined {
  return current.getStore()?.expiresAt;
}

/** Runs work that must not be cut by the request that started it (it has its own bounds). */
export function outsideRequestBudget<T>(work: () => T): T {
  return current.exit(work);
}
