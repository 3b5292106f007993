// OpenID CIBA's owner side: the routes that approve or deny a request waiting in the owner's
// inbox. The engine's CIBA settings (ciba_settings.ts) and the inbox exist before the engine;
// these routes need the engine, so they are built after it.
import type { BackchannelInbox } from '../../domain/backchannel/backchannel_inbox.js';
import type { SessionCallers } from '../../domain/owner_sessions/session_callers.js';
import { type BackchannelRoutesDeps, backchannelRoutes } from './backchannel_routes.js';

export type CibaFeatureDeps = Omit<BackchannelRoutesDeps, 'inbox' | 'owner'> & {
  /** The owners' inbox of waiting requests (the app's, which the engine's CIBA settings fill). */
  backchannel: BackchannelInbox;
  /** Denials come from the owner's account session on any chain. */
  sessionCallers: Pick<SessionCallers, 'owner'>;
};

export function createCibaFeature(deps: CibaFeatureDeps) {
  return { routes: backchannelRoutes({ ...deps, inbox: deps.backchannel, owner: deps.sessionCallers.owner }) };
}

export type CibaFeature = ReturnType<typeof createCibaFeature>;
