// What a website registers by RFC 7591: a confidential client of the authorization code grant.
export const websiteMetadata = (name: string, extra: Record<string, unknown> = {}) => ({
  client_name: name,
  redirect_uris: [`https://${name.toLowerCase().replaceAll(' ', '-')}.example/callback`],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  ...extra,
});
