// Serves the few files in public/ (scripts and the stylesheet) from memory, at /static/ (read once: public_files.ts).
import { extname } from 'node:path';
import type { Middleware } from 'koa';
import { publicFiles } from './public_files.js';

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

export function staticFiles(publicDir: string): Middleware {
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const { name, body } of publicFiles(publicDir)) {
    const type = TYPES[extname(name)];
    if (type) files.set(`/static/${name}`, { body, type });
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
