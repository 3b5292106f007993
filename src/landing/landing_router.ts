// The page at `/`: what Signet is, and where to go from here (the demo, the account pages,
// discovery and the API description), so the address the console prints first leads somewhere.
import Router from '@koa/router';
import type { RenderPage } from '../http/pages.js';

export function createLandingRouter(deps: { renderPage: RenderPage; issuer: string; demo: boolean }): Router {
  const router = new Router();
  router.get('/', (ctx) => {
    deps.renderPage(ctx, 'landing', { title: 'Log in with your onchain identity', issuer: deps.issuer, demo: deps.demo });
  });
  return router;
}
