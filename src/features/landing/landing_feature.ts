// The page at `/`: what Signet is, and where to go from here (the demo, the account pages,
// discovery and the API description), so the address the console prints first leads somewhere;
// and the language switcher of every page.
import { anyone } from '../../http/authenticators.js';
import type { RenderPage } from '../../http/pages.js';
import { cookiesAreSecure } from '../../http/proxy_trust.js';
import { type AnyRoute, route } from '../../http/route.js';
import { languageRoute } from './language_route.js';

export function createLandingFeature(deps: { renderPage: RenderPage; issuer: string; demo: boolean }): { routes: AnyRoute[] } {
  const landing = route({
    method: 'get',
    path: '/',
    summary: 'The landing page',
    tag: 'Pages',
    auth: anyone,
    undocumented: true,
    responses: { 200: { description: 'An HTML page' } },
    async handle({ ctx }) {
      deps.renderPage(ctx, 'landing', { issuer: deps.issuer, demo: deps.demo });
      return {};
    },
  });
  return { routes: [landing, languageRoute({ secureCookies: cookiesAreSecure(deps.issuer) })] };
}
