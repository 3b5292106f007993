// A client added at run time (dynamic registration, the admin API) chose its own redirect and
// logout URIs, and nobody Signet trusts looked at them. Where the engine would send the browser
// there without the person doing anything, an error of the authorization endpoint (`prompt=none`
// without a session, a consent denied, a request refused) or the end of a logout, Signet answers
// a page that names the host first, with a link (or, for `form_post`, a button) carrying the
// engine's exact answer (RFC 9700 §4.11.2; decision 74). A successful authorization response
// goes on as the engine sends it; so does every answer to a client CLIENTS lists.
//
// The engine writes these answers itself (its response modes and its logout confirmation have
// no hook), so the page is put in place of the answer once the engine has made it: a redirect
// (query or fragment) is read from its Location, a form_post from the form the engine wrote.
import type { Context, Middleware } from 'koa';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { RenderPage } from '../../http/pages.js';

/** Where the browser would go, and how: a link, or a form to post (form_post). */
type Departure = { kind: 'error' | 'logout'; href: string; fields?: [string, string][]; error?: string; description?: string };

/** The engine's routes that answer an authorization request, by their names in its router. */
const AUTHORIZATION_ROUTES = new Set(['authorization', 'resume']);
const REDIRECTS = new Set([302, 303]);

const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);

/** The parameters of a redirect's answer, in its query or its fragment (response_mode=fragment); `base` reads a path (the engine's own next step). */
function answerParams(href: string, base: string): URLSearchParams {
  const url = new URL(href, base);
  const params = new URLSearchParams(url.search);
  for (const [name, value] of new URLSearchParams(url.hash.slice(1))) params.append(name, value);
  return params;
}

/** The engine's form_post page (oidc-provider's response_modes/form_post.js): its action and hidden fields. */
function formPostOf(body: unknown): { action: string; fields: [string, string][] } | undefined {
  if (typeof body !== 'string') return undefined;
  const action = /<form method="post" action="([^"]*)">/.exec(body)?.[1];
  if (action === undefined) return undefined;
  const fields = [...body.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g)].map(
    ([, name, value]) => [unescapeHtml(name!), unescapeHtml(value!)] as [string, string],
  );
  return { action: unescapeHtml(action), fields };
}

function departureOf(ctx: KoaContextWithOIDC): Departure | undefined {
  const { route } = ctx.oidc;
  const location = ctx.response.get('Location');
  if (AUTHORIZATION_ROUTES.has(route)) {
    if (REDIRECTS.has(ctx.status) && location) {
      const params = answerParams(location, ctx.oidc.issuer);
      if (!params.has('error')) return undefined;
      return { kind: 'error', href: location, error: params.get('error')!, description: params.get('error_description') ?? undefined };
    }
    if (ctx.oidc.params?.response_mode !== 'form_post') return undefined;
    const form = formPostOf(ctx.body);
    const error = form?.fields.find(([name]) => name === 'error')?.[1];
    if (!form || error === undefined) return undefined;
    const description = form.fields.find(([name]) => name === 'error_description')?.[1];
    return { kind: 'error', href: form.action, fields: form.fields, error, description };
  }
  if (route === 'end_session_confirm' && REDIRECTS.has(ctx.status) && location) {
    // Signet's own "signed out" page is no departure.
    const success = new URL(ctx.oidc.urlFor('end_session_success'));
    const to = new URL(location, success);
    if (to.origin === success.origin && to.pathname === success.pathname) return undefined;
    return { kind: 'logout', href: location };
  }
  return undefined;
}

export function leavingPage(deps: { isConfigured: (clientId: string) => boolean; renderPage: RenderPage }): Middleware {
  return async (ctx: Context, next) => {
    await next();
    // The engine defines ctx.oidc on the requests its router takes, and only on those.
    if (!Object.hasOwn(ctx, 'oidc')) return;
    const oidc = (ctx as KoaContextWithOIDC).oidc;
    const client = oidc.client;
    if (!client || deps.isConfigured(client.clientId)) return;
    const departure = departureOf(ctx as KoaContextWithOIDC);
    if (!departure) return;
    const host = new URL(departure.href).host;
    ctx.remove('Location');
    ctx.status = 200;
    ctx.set('Cache-Control', 'no-store');
    deps.renderPage(ctx, 'leaving', {
      host,
      // The login's or the logout's ui_locales: the page speaks the owner's language (decision 80).
      languageHint: { uiLocales: oidc.params?.ui_locales },
      kind: departure.kind,
      client: client.clientName ?? client.clientId,
      href: departure.href,
      fields: departure.fields,
      error: departure.error ?? '',
      description: departure.description ?? '',
    });
  };
}
