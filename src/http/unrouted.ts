// Requests no route answered (404) or answered with a wrong method (405) get Signet's error
// shape too, instead of Koa's plain text. Checked by the error handler once the request is
// through (src/http/error_handler.ts), which answers the refusal: no layer of its own.
import type { Context } from 'koa';
import { refuse } from '../base/errors.js';

export function answerUnrouted(ctx: Context): void {
  // respond === false: a handler wrote the raw response itself.
  if (ctx.body != null || ctx.respond === false) return;
  if (ctx.status === 404) throw refuse('route_not_found', `nothing at ${ctx.method} ${ctx.path}`);
  if (ctx.status === 405) {
    ctx.body = {
      error: 'method_not_allowed',
      error_description: `${ctx.method} is not allowed on ${ctx.path} (allowed: ${ctx.response.get('Allow') || 'none'})`,
      reason: 'method_not_allowed',
    };
  }
}
