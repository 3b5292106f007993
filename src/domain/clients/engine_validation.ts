// The engine's own verdict on a client's metadata: its client schema (RFC 7591 and OpenID
// Connect Dynamic Registration rules, scopes among those offered, redirect URIs) with Signet's
// extra metadata validator (src/features/oidc/provider.ts), the same checks a client registered by RFC
// 7591 meets. Signet builds the client as the engine would, and keeps nothing of the build.
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { ClientRecord } from '../../infra/store/client_records.js';

/** What the engine finds wrong, in its words (a sentence that starts with the field at fault). */
export type EngineVerdict = { description: string };

export type ValidateWithEngine = (record: ClientRecord) => Promise<EngineVerdict | undefined>;

export function engineValidation(provider: Provider): ValidateWithEngine {
  return async (record) => {
    try {
      await provider.Client.validate(record);
      return undefined;
    } catch (error) {
      // Its invalid_redirect_uri errors are InvalidClientMetadata too, about redirect_uris.
      if (error instanceof errors.InvalidClientMetadata) return { description: error.error_description ?? error.message };
      throw error;
    }
  };
}
