// One time budget for all the chain reads of a request: a middleware opens it, and every
// RPC call made while the request runs ends when it is spent, or at its own timeout if that comes
// first (docs/decisions.md, 19: a 503 within a deadline, however many calls a step makes). Work
// that outlives its request runs outside it, bounded by each call's timeout alone.
import type { Middleware } from 'koa';
import { requestContext } from '../observability/request_context.js';

/**
 * Opens a budget of `budgetMs` for the chain calls of each request, in the request context the
 * outermost middleware opened (src/infra/observability/request_observer.ts).
 */
export function chainDeadline(budgetMs: number): Middleware {
  return (_ctx, next) => {
    const context = requestContext.getStore();
    if (context) context.chainBudgetEnd = Date.now() + budgetMs;
    return next();
  };
}

/** When the running request's budget is spent (epoch ms; undefined outside a request). */
export function chainBudgetDeadline(): number | undefined {
  return requestContext.getStore()?.chainBudgetEnd;
}

/** Runs work that must not be cut by the request that started it (it has its own bounds); its log lines keep the request's id. */
export function outsideRequestBudget<T>(work: () => T): T {
  const context = requestContext.getStore();
  return context ? requestContext.run({ request_id: context.request_id }, work) : work();
}
