// Parses an untrusted JSON body (already read and bounded by body.ts) with a schema, once, at
// the edge; the error names the field.
import type { Context } from 'koa';
import type { z } from 'zod';
import { SignetError } from '../errors.js';

export function parseBody<S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> {
  // No body reads as {}; a JSON null is a body, and no object.
  const body = ctx.request.body === undefined ? {} : ctx.request.body;
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.');
  throw new SignetError('invalid_request', field ? `"${field}" ${issue.message}` : issue.message, { reason: 'invalid_body' });
}
