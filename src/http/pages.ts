// Server-rendered pages: ejs templates from views/, compiled once, rendered with the
// request's CSP nonce. A page may carry public/'s files in itself (`pageFiles`): the consent
// page does, so a browser that has never seen Signet shows it without a second round of requests.
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import ejs from 'ejs';
import type { Context } from 'koa';
import { publicFiles } from './public_files.js';
import { pageNonce } from './security_headers.js';

export type RenderPage = (ctx: Context, view: string, data: Record<string, unknown>) => void;

/** public/'s scripts and stylesheet as text, by file name, and its icon as a data: URL. */
export type PageFiles = Record<string, string>;

function readPageFiles(publicDir: string): PageFiles {
  const files: PageFiles = {};
  for (const { name, body } of publicFiles(publicDir)) {
    const text = body.toString('utf8');
    if (extname(name) === '.svg') files[name] = `data:image/svg+xml;base64,${Buffer.from(text).toString('base64')}`;
    // Inside <script> or <style>, a closing tag in the text would end the element early.
    else if (/<\/(script|style)/i.test(text)) throw new Error(`public/${name} holds a closing tag and cannot be carried in a page`);
    else files[name] = text;
  }
  return files;
}

/** `shared`: values every page may read (the account's tabs). */
export function createPageRenderer(viewsDir: string, publicDir: string, shared: Record<string, unknown> = {}): RenderPage {
  const pageFiles = readPageFiles(publicDir);
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
    // `formToken`: the owner session's, when the request has one (its forms and scripts send it back).
    ctx.body = template(view)({ cspNonce: pageNonce(ctx), pageFiles, formToken: ctx.state.formToken, ...shared, ...data });
  };
}
