// The key layout for Redis Cluster: the keys one atomic step uses together share a hash tag (so
// one slot), and the store's per-slot split groups keys by the same rule Redis uses.
import { keys } from '../../../../src/infra/store/keys.js';
import { bySlot, parseHostPort, slotGroup } from '../../../../src/infra/store/redis_connection.js';

test('a hash tag is the text between the first "{" and the next "}"; without one, the whole key', () => {
  expect(slotGroup('signet:oidc:{AccessToken:abc}:consumed')).toBe('AccessToken:abc');
  expect(slotGroup('signet:{webhooks}:stream')).toBe('webhooks');
  expect(slotGroup('signet:rate:token:x')).toBe('signet:rate:token:x');
  // An empty tag or an unclosed brace is no tag: Redis hashes the whole key.
  expect(slotGroup('a{}b')).toBe('a{}b');
  expect(slotGroup('a{b')).toBe('a{b');
  // Only the first tag counts.
  expect(slotGroup('{x}{y}')).toBe('x');
});

test('bySlot keeps the keys of one tag together, in first-seen order', () => {
  expect(bySlot(['{a}1', 'plain', '{b}1', '{a}2', '{b}2'])).toEqual([['{a}1', '{a}2'], ['plain'], ['{b}1', '{b}2']]);
});

test.each([
  ['a record and its consumed mark', [keys.model('AuthorizationCode', 'c1'), keys.consumed(keys.model('AuthorizationCode', 'c1'))]],
  ['a wallet challenge and its used mark', [keys.challenge('n1'), keys.usedChallenge('n1')]],
  ['a grant index and its tombstone', [keys.grantIndex('g1'), keys.revokedGrant('g1')]],
  [
    "a grant's bounded indexes, with its index and tombstone",
    [keys.grantIndex('g1'), keys.revokedGrant('g1'), keys.grantAccessTokens('g1'), keys.grantUsedRefreshTokens('g1')],
  ],
  ['the webhook stream, retries and dead letters', [keys.webhookStream, keys.webhookRetries, keys.webhookDeadLetters]],
  ['an access grant and its status', [keys.accessGrant('ag1'), keys.accessGrantStatus('ag1')]],
  ['an API key, its revocation and its last use', [keys.apiKey('k1'), keys.apiKeyRevoked('k1'), keys.apiKeyUsed('k1')]],
  [
    "the registered clients' cap and the places of their addresses and networks",
    [keys.registeredClients(), keys.registeredFromAddress('192.0.2.1'), keys.registeredFromNetwork('2001:db8:1::/48')],
  ],
])('%s share one slot', (_what, together) => {
  expect(bySlot(together)).toHaveLength(1);
});

test('records of different ids and different grants spread over slots (no hot tag)', () => {
  expect(slotGroup(keys.model('AccessToken', 'a'))).not.toBe(slotGroup(keys.model('AccessToken', 'b')));
  expect(slotGroup(keys.grantIndex('g1'))).not.toBe(slotGroup(keys.grantIndex('g2')));
});

test('host:port entries, IPv6 in brackets', () => {
  expect(parseHostPort('redis-1.internal:6379')).toEqual({ host: 'redis-1.internal', port: 6379 });
  expect(parseHostPort('[::1]:26379')).toEqual({ host: '::1', port: 26379 });
});
