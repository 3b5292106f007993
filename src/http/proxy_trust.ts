// TRUST_PROXY: how many reverse proxies in front of Signet append to X-Forwarded-For. With 0,
// no X-Forwarded-* header counts; with n, the client is the n-th entry from the right (the
// one the outermost trusted proxy appended) and X-Forwarded-Proto/Host are honoured.
import type Koa from 'koa';
import type Provider from 'oidc-provider';

export function trustProxies(app: Koa, provider: Provider, hops: number): void {
  for (const koa of [app, provider]) {
    koa.proxy = hops > 0;
    koa.maxIpsCount = hops;
  }
}

/**
 * The one rule for Secure cookies: Signet speaks plain HTTP, so with an https issuer TLS ends at
 * a proxy in front of it, and every cookie it sets (the engine's, the account pages', the
 * language's) is Secure whatever the last hop looked like; with an http issuer (a developer's
 * machine) none is.
 */
export function cookiesAreSecure(issuer: string): boolean {
  return new URL(issuer).protocol === 'https:';
}

/**
 * The engine's and the app's cookie jars follow the rule (without this, a Secure cookie on a
 * request seen as http is refused by the cookies library, even with TRUST_PROXY=0). Koa makes a
 * request's cookie jar when something first asks for `ctx.cookies`; the jar is told here, once
 * for the app, so a request that touches no cookie (userinfo, tokens, discovery) makes none.
 */
export function secureCookiesFor(app: Koa, issuer: string): void {
  if (!cookiesAreSecure(issuer)) return;
  const koaJar = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(app.context), 'cookies');
  if (!koaJar?.get || !koaJar.set) throw new Error('this Koa makes no cookie jar through ctx.cookies: Secure cookies cannot be set');
  const { get, set } = koaJar;
  Object.defineProperty(app.context, 'cookies', {
    configurable: true,
    get(this: Koa.Context) {
      const jar = get.call(this) as Koa.Context['cookies'];
      jar.secure = true;
      return jar;
    },
    set,
  });
}
