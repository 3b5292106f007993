// What a website registers by RFC 7591: a confidential client of the authorization code grant,
// and the client it then logs in as.
import type { ClientConfig } from '../../src/config/config.js';
import type { Json } from './json_api.js';
import { WEBSITE } from './signet_harness.js';

export const websiteMetadata = (name: string, extra: Record<string, unknown> = {}) => ({
  client_name: name,
  redirect_uris: [`https://${name.toLowerCase().replaceAll(' ', '-')}.example/callback`],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  ...extra,
});

/** The relying party's side of a client registered at run time: the configured website's settings with the registered id, secret and redirect URIs. */
export const registeredWebsite = (registered: Json): ClientConfig => ({
  ...WEBSITE,
  client_id: registered.client_id as string,
  client_secret: registered.client_secret as string,
  redirect_uris: registered.redirect_uris as string[],
});
