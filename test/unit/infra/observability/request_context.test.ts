// Signet's request context rides on the engine's own store (the one behind Provider.ctx): inside
// a request both see the same Koa context, work apart from the engine's requests gets a holder of
// its own, and nothing is seen outside.
import Provider from 'oidc-provider';
import { requestContext } from '../../../../src/infra/observability/request_context.js';

test("the engine's Provider.ctx is the holder Signet's request runs in, with Signet's context on it", async () => {
  const koaContext = { path: '/me' };
  const seen = await requestContext.run(
    { request_id: 'req-7' },
    async () => {
      await Promise.resolve();
      return { engine: Provider.ctx, signet: requestContext.getStore() };
    },
    koaContext,
  );
  expect(seen.engine).toBe(koaContext);
  expect(seen.signet).toEqual({ request_id: 'req-7' });
});

test('work run apart keeps its own context, and nothing is seen outside a request', async () => {
  expect(requestContext.getStore()).toBeUndefined();
  expect(Provider.ctx).toBeUndefined();
  const inner = await requestContext.run({ request_id: 'outer', chainBudgetEnd: 1 }, () =>
    requestContext.run({ request_id: 'outer' }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return requestContext.getStore();
    }),
  );
  expect(inner).toEqual({ request_id: 'outer' });
  expect(requestContext.getStore()).toBeUndefined();
});
