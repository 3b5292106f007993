// OpenID CIBA's owner side: the routes that approve or deny a request waiting in the owner's
// inbox. The engine's CIBA settings (ciba_settings.ts) and the inbox exist before the engine;
// these routes need the engine, so they are built after it.
import type Provider from 'oidc-provider';
import type { IdentitySession } from '../account/account_sessions.js';
import type { ClaimsService } from '../claims/claims_service.js';
import type { ClaimTopics } from '../claims/claim_topics.js';
import type { Authenticator } from '../http/authenticators.js';
import type { CompleteConsent } from '../interaction/complete_consent.js';
import type { FieldDefinition } from '../oidc/fields.js';
import type { VerifyLinkedSignature } from '../wallet/verify_linked_signature.js';
import type { BackchannelInbox } from './backchannel_inbox.js';
import { backchannelRoutes } from './backchannel_routes.js';

export type CibaFeatureDeps = {
  provider: Provider;
  inbox: BackchannelInbox;
  owner: Authenticator<IdentitySession>;
  /** The consent completion the login interaction uses too. */
  completeConsent: CompleteConsent;
  claims: ClaimsService;
  topics: ClaimTopics;
  fields: readonly FieldDefinition[];
  verifyLinkedSignature: VerifyLinkedSignature;
};

export function createCibaFeature(deps: CibaFeatureDeps) {
  return { routes: backchannelRoutes(deps) };
}

export type CibaFeature = ReturnType<typeof createCibaFeature>;
