// The engine's store of the request it serves (what `Provider.ctx` reads), imported by
// request_context.ts so that Signet's request context shares it. The engine ships no types for it.
declare module 'oidc-provider/lib/helpers/als.js' {
  import type { AsyncLocalStorage } from 'node:async_hooks';

  const engineRequests: AsyncLocalStorage<object>;
  export default engineRequests;
}
