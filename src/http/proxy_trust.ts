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
