// Signet's rules for a client added at run time (the admin API, dynamic registration): CLIENTS'
// rules across fields, https redirect URIs in production, and the address check of the URLs
// Signet would call, which refuses what resolves inward and lets a resolver's outage through.
import { clientProblem } from '../../../../src/config/client_metadata.js';
import { configuredOutboundUrls, createClientRules } from '../../../../src/domain/clients/client_rules.js';
import { createUrlGuard, type ResolveHost } from '../../../../src/infra/outbound/url_guard.js';

const resolveHost: ResolveHost = async (host) => {
  if (host === 'inner.example') return [{ address: '10.0.0.7', family: 4 }];
  if (host === 'flaky.example') throw Object.assign(new Error('resolver down'), { code: 'ETIMEOUT' });
  return [{ address: '93.184.216.34', family: 4 }];
};
const rulesIn = (production: boolean) =>
  createClientRules({ production, guard: createUrlGuard({ allowPrivate: false, resolveHost }), reservedNames: ['Signet'] });

const website = { client_secret: 'a-secret-value', redirect_uris: ['https://shop.example/cb'], grant_types: ['authorization_code'] };

test('the rules CLIENTS meets, in its form and in the engine’s (a registered client with the engine’s defaults)', () => {
  expect(clientProblem(website)).toBeUndefined();
  expect(clientProblem({ ...website, redirect_uris: [] })).toEqual({
    field: 'redirect_uris',
    problem: 'needs at least one URI for the authorization_code grant',
  });
  expect(clientProblem({ ...website, client_secret: undefined })).toEqual({
    field: 'client_secret',
    problem: 'is required unless token_endpoint_auth_method is "none" or "private_key_jwt"',
  });
  expect(clientProblem({ ...website, client_secret: undefined, token_endpoint_auth_method: 'none' })).toBeUndefined();
  // The engine gives every client backchannel_logout_session_required: false; only true needs the URI.
  expect(clientProblem({ ...website, backchannel_logout_session_required: false })).toBeUndefined();
  expect(clientProblem({ ...website, backchannel_logout_session_required: true })).toEqual({
    field: 'backchannel_logout_session_required',
    problem: 'needs backchannel_logout_uri',
  });
  expect(clientProblem({ grant_types: ['urn:openid:params:grant-type:ciba'], backchannel_token_delivery_mode: 'ping', client_secret: 'x' })).toEqual({
    field: 'backchannel_token_delivery_mode',
    problem: 'must be "poll" for a CIBA client',
  });
});

test('in production every redirect URI is https; in development http ones pass', async () => {
  const plain = { ...website, redirect_uris: ['http://shop.example/cb'] };
  expect(await rulesIn(true)(plain)).toEqual({ field: 'redirect_uris', problem: 'must be https URLs in production' });
  expect(await rulesIn(true)({ ...website, post_logout_redirect_uris: ['http://shop.example/bye'] })).toEqual({
    field: 'post_logout_redirect_uris',
    problem: 'must be https URLs in production',
  });
  expect(await rulesIn(false)(plain)).toBeUndefined();
  expect(await rulesIn(true)(website)).toBeUndefined();
});

test('a webhook_url or backchannel_logout_uri that resolves inward is refused; a resolver outage is a 503', async () => {
  const rules = rulesIn(true);
  expect(await rules({ ...website, webhook_url: 'https://inner.example/hook', webhook_secret: 'sixteen-characters' })).toEqual({
    field: 'webhook_url',
    problem: 'is refused: the webhook URL resolves to a non-public address (private): only public addresses are called',
  });
  expect(await rules({ ...website, backchannel_logout_uri: 'https://127.0.0.1/logout' })).toMatchObject({ field: 'backchannel_logout_uri' });
  expect(await rules({ ...website, webhook_url: 'https://public.example/hook', webhook_secret: 'sixteen-characters' })).toBeUndefined();
  await expect(rules({ ...website, backchannel_logout_uri: 'https://flaky.example/logout' })).rejects.toMatchObject({ reason: 'dns_unavailable', status: 503 });
});

test('every URL the engine fetches for a client is checked too: jwks_uri, sector_identifier_uri', async () => {
  const rules = rulesIn(true);
  expect(await rules({ ...website, jwks_uri: 'https://inner.example/jwks' })).toEqual({
    field: 'jwks_uri',
    problem: 'is refused: the URL resolves to a non-public address (private): only public addresses are called',
  });
  expect(await rules({ ...website, sector_identifier_uri: 'https://[::ffff:169.254.169.254]/sector' })).toEqual({
    field: 'sector_identifier_uri',
    problem: 'is refused: the URL resolves to a non-public address (cloud metadata): only public addresses are called',
  });
  expect(await rules({ ...website, jwks_uri: 'https://public.example/jwks', sector_identifier_uri: 'https://public.example/sector' })).toBeUndefined();
});

test("CLIENTS' URLs the engine fetches are the operator's: their hrefs, for the engine's fetch to trust", () => {
  expect(configuredOutboundUrls([{ client_id: 'a', jwks_uri: 'https://Keys.Internal:443/jwks' }, { client_id: 'b' }])).toEqual(
    new Set(['https://keys.internal/jwks']),
  );
});
