// Server-rendered pages: ejs templates from views/, compiled once, rendered with the
// request's CSP nonce.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ejs from 'ejs';
import type { Context } from 'koa';

export type RenderPage = (ctx: Context, view: string, data: Record<string, unknown>) => void;

export function createPageRenderer(viewsDir: string): RenderPage {
  const compiled = new Map<string, ejs.TemplateFunction>();
  const template = (view: string) => {
    let fn = compiled.get(view);
    if (!fn) {
      const filename = join(viewsDir, `${view}.ejs`);
      fn = ejs.compile(readFileSync(filename, 'utf8'), { filename, async: false }) as ejs.TemplateFunction;
      compiled.set(view, fn);
    }
    return fn;
  };
  return (ctx, view, data) => {
    ctx.type = 'html';
    ctx.body = template(view)({ cspNonce: ctx.state.cspNonce, ...data });
  };
}
