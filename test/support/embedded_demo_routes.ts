// The embedded demo's routes (its website's pages and its wallet) as `npm start` mounts them,
// for a harness's `extraRoutes`: tests that walk or probe every route include them.
import { privateKeyToAccount } from 'viem/accounts';
import type { AppDeps } from '../../src/app/app.js';
import { demoRoutes } from '../../src/demo/demo_routes.js';
import { DEMO_OWNER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';

export const embeddedDemoRoutes: NonNullable<AppDeps['extraRoutes']> = ({ renderPage, names }) =>
  demoRoutes({
    issuer: 'http://demo.invalid',
    client: async () => ({ client_id: 'demo', client_secret: 'demo-secret' }),
    renderPage,
    names,
    wallet: privateKeyToAccount(DEMO_OWNER_KEY),
    chainId: 31337,
    scope: 'openid',
  });
