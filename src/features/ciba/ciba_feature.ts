// OpenID CIBA's owner side: the routes that approve or deny a request waiting in the owner's
// inbox. The engine's CIBA settings (ciba_settings.ts) and the inbox exist before the engine;
// these routes need the engine, so they are built after it.
import { type BackchannelRoutesDeps, backchannelRoutes } from './backchannel_routes.js';

export type CibaFeatureDeps = BackchannelRoutesDeps;

export function createCibaFeature(deps: CibaFeatureDeps) {
  return { routes: backchannelRoutes(deps) };
}

export type CibaFeature = ReturnType<typeof createCibaFeature>;
