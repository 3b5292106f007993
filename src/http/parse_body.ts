// Parses an untrusted JSON body with a schema, once, at the edge; the error names the field.
import type { Context } from 'koa';
import type { z } from 'zod';
import { invalidRequest } from '../errors.js';

export function parseBody<S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> {
  const body = (ctx.request as unknown as { body?: unknown }).body ?? {};
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.');
  throw invalidRequest(field ? `"${field}" ${issue.message}` : issue.message);
}
