// Serves the few files in public/ (scripts and the stylesheet) from memory, at /static/.
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Middleware } from 'koa';

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

export function staticFiles(publicDir: string): Middleware {
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const name of readdirSync(publicDir)) {
    const type = TYPES[extname(name)];
    if (type) files.set(`/static/${name}`, { body: readFileSync(join(publicDir, name)), type });
  }
  return (ctx, next) => {
    const file = ctx.method === 'GET' ? files.get(ctx.path) : undefined;
    if (!file) return next();
    ctx.type = file.type;
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = file.body;
    return Promise.resolve();
  };
}
