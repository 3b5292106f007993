// Open dynamic registration (RFC 7591) met by strangers, on real Redis and two Signet processes:
// registrations counted per client address (429), a cap on the clients registration holds
// (400 access_denied, as RFC 7591 answers a registration error), a bound on each metadata
// member and on the whole record (400 invalid_client_metadata, nothing stored), a registered
// client that completes no login removed with its registration access token, one that logs in
// kept; 10,000 attempts from one address and from 100 addresses leave at most the cap's worth
// of keys, each bounded and each expiring. The admin API lists the clients a page at a time.
import type { Redis } from 'ioredis';
import { CLIENT_SIZE_BOUNDS } from '../../src/config/client_metadata.js';
import { type Json, jsonApi } from '../support/json_api.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { deleteRegisteredClients, registerFrom, SERVICE_METADATA, serviceToken, startOpenRegistration } from '../support/open_registration.js';
import { registeredWebsite, websiteMetadata } from '../support/registration_metadata.js';
import { type Harness, WEBSITE } from '../support/signet_harness.js';
import { waitUntil } from '../support/wait_until.js';

const MAX_CLIENTS = 40;
const PER_ADDRESS = 5;
/** A registered client without a login lives this long (the setting is in hours): long enough that a loaded machine registers the cap's crowd before the first of it expires. */
const UNUSED_SECONDS = 8;
const ADMIN_TOKEN = 'admin-token-for-the-registration-door-tests';

let h: Harness;
let redis: Redis;
let addresses = 0;
/** A client address no earlier request used (X-Forwarded-For, one proxy trusted). */
const freshAddress = () => {
  addresses++;
  return `198.51.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

beforeAll(async () => {
  ({ h, redis } = await startOpenRegistration({
    // Addresses here are spread over few networks: the bounds per network have a file of their own (registration_origins.test.ts).
    limits: { maxClients: MAX_CLIENTS, perAddress: PER_ADDRESS, perNetwork: 1000, unusedHours: UNUSED_SECONDS / 3600 },
    registrationsPerAddress: { points: PER_ADDRESS, seconds: 3600 },
    adminToken: ADMIN_TOKEN,
  }));
}, 60_000);

afterAll(async () => {
  redis.disconnect();
  await h.close();
});

afterEach(async () => {
  // Each test starts with no registered client (configured ones stay).
  await deleteRegisteredClients(h, redis);
  await redis.del('signet:{clients:registered}', ...(await redis.keys('signet:{clients:registered}:*')));
});

const metadata = websiteMetadata;

/** A registration as sent on the wire, from `from`, to the first process or its peer. */
const register = (body: unknown, from: string, base = h.issuer) => registerFrom(base, body, from);

const registeredKeys = async () => (await redis.keys('signet:client:*')).filter((key) => key !== `signet:client:${WEBSITE.client_id}`);
const tokenKeys = () => redis.keys('signet:registration-token*');

test('registrations are counted per client address: past the limit 429 with Retry-After, another address still registers', async () => {
  const from = freshAddress();
  for (let i = 0; i < PER_ADDRESS; i++) expect((await register(metadata(`Counted ${i}`), from)).status).toBe(201);
  const refused = await register(metadata('One too many'), from);
  expect(refused.status).toBe(429);
  expect(refused.json).toMatchObject({ reason: 'rate_limited' });
  expect(Number(refused.retryAfter)).toBeGreaterThan(0);
  // The other process counts in the same window.
  expect((await register(metadata('Through the peer'), from, h.peers[0]!.url)).status).toBe(429);
  expect((await register(metadata('Elsewhere'), freshAddress())).status).toBe(201);
  expect(await registeredKeys()).toHaveLength(PER_ADDRESS + 1);
});

test('metadata past its bounds is refused with invalid_client_metadata, and nothing is stored', async () => {
  const { nameCharacters, textCharacters, listEntries, recordBytes } = CLIENT_SIZE_BOUNDS;
  // A 56,000-character name does not reach the engine: the body is over the engine's byte limit.
  const huge = await register(metadata('x'.repeat(56_000)), freshAddress());
  expect({ status: huge.status, reason: huge.json.reason }).toEqual({ status: 413, reason: 'body_too_large' });
  const cases: [Record<string, unknown>, RegExp][] = [
    [metadata('Long name', { client_name: 'n'.repeat(nameCharacters + 1) }), /client_name is \d+ characters long/],
    [
      metadata('Many URIs', { redirect_uris: Array.from({ length: listEntries + 1 }, (_, i) => `https://many.example/${i}`) }),
      /redirect_uris lists 17 entries/,
    ],
    [metadata('Long URI', { redirect_uris: [`https://long.example/${'a'.repeat(textCharacters)}`] }), /redirect_uris holds an entry of \d+ characters/],
    [metadata('Long policy', { policy_uri: `https://policy.example/${'p'.repeat(textCharacters)}` }), /policy_uri is \d+ characters long/],
    [
      metadata('Many contacts', { contacts: Array.from({ length: listEntries }, (_, i) => `${'c'.repeat(600)}${i}@contacts.example`) }),
      new RegExp(`metadata is \\d+ bytes as stored; at most ${recordBytes}`),
    ],
  ];
  for (const [body, description] of cases) {
    const answer = await register(body, freshAddress());
    // The engine answers invalid_redirect_uri for what is about redirect_uris, else invalid_client_metadata.
    const error = 'redirect_uris' in body && description.source.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata';
    expect({ status: answer.status, error: answer.json.error }).toEqual({ status: 400, error });
    expect(answer.json.error_description).toMatch(description);
  }
  expect(await registeredKeys()).toEqual([]);
  expect(await tokenKeys()).toEqual([]);
  expect(await redis.zcard('signet:{clients:registered}')).toBe(0);
});

test('the cap: past it a registration is refused as RFC 7591 answers an error; of many at once in two processes, exactly the cap is kept', async () => {
  const attempts = Array.from({ length: MAX_CLIENTS + 20 }, (_, i) => register(metadata(`Crowd ${i}`), freshAddress(), i % 2 ? h.peers[0]!.url : h.issuer));
  const answers = await Promise.all(attempts);
  const statuses = answers.map((answer) => answer.status);
  expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_CLIENTS);
  expect(statuses.filter((status) => status === 400)).toHaveLength(20);
  const refused = answers.find((answer) => answer.status === 400)!;
  expect(refused.json).toMatchObject({ error: 'access_denied', error_description: expect.stringMatching(/at most 40 registered clients/) });
  expect(await registeredKeys()).toHaveLength(MAX_CLIENTS);
  // Deleting one (RFC 7592, with its registration access token) makes room for one.
  const made = answers.find((answer) => answer.status === 201)!.json;
  const deleted = await fetch(made.registration_client_uri as string, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${made.registration_access_token}` },
  });
  expect(deleted.status).toBe(204);
  expect((await register(metadata('After a deletion'), freshAddress())).status).toBe(201);
  expect((await register(metadata('Still full'), freshAddress())).status).toBe(400);
  // So does a deletion through the admin API.
  const other = answers.filter((answer) => answer.status === 201)[1]!.json;
  const removed = await fetch(`${h.issuer}/admin/clients/${other.client_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(removed.status).toBe(204);
  expect((await register(metadata('After an admin deletion'), freshAddress())).status).toBe(201);
}, 60_000);

test('a registered client that completes no login is removed with its registration access token; one that logs in is kept', async () => {
  const idle = (await register(metadata('Idle'), freshAddress())).json;
  const used = (await register(metadata('Used'), freshAddress())).json;
  // Every key registration wrote expires while the client is unused.
  const written = [...(await registeredKeys()), ...(await tokenKeys()), 'signet:{clients:registered}'];
  for (const key of written) expect(await redis.pttl(key)).toBeGreaterThan(0);

  const owner = h.chain.accounts[0]!;
  await h.chain.createIdentityFor(owner.address);
  const client = registeredWebsite(used);
  const login = await startLogin(h.issuer, client, { scope: 'openid' });
  await logIn(login, owner);
  await waitUntil('the used client kept', async () => (await redis.pttl(`signet:client:${used.client_id}`)) === -1);

  // A service that only ever uses its own client credentials is kept by its first token too.
  const service = (await register(SERVICE_METADATA, freshAddress())).json;
  const issued = await serviceToken(h.issuer, service);
  expect(issued.status).toBe(200);
  await waitUntil('the service kept', async () => (await redis.pttl(`signet:client:${service.client_id}`)) === -1);

  await waitUntil('the idle client gone', async () => (await redis.exists(`signet:client:${idle.client_id}`)) === 0, (UNUSED_SECONDS + 3) * 1000);
  const read = (made: Json) => fetch(made.registration_client_uri as string, { headers: { authorization: `Bearer ${made.registration_access_token}` } });
  expect((await read(idle)).status).toBe(401);
  expect(await redis.keys(`signet:registration-token*`)).not.toContainEqual(expect.stringContaining(String(idle.client_id)));
  expect(await h.store.indexMembers('signet:{clients:registered}')).not.toContain(idle.client_id);
  // The kept one: past the unused window, still readable with its registration access token, and counted by the cap.
  expect((await read(used)).status).toBe(200);
  for (const key of [`signet:client:${used.client_id}`, ...(await tokenKeys())]) expect(await redis.pttl(key)).toBe(-1);
  expect(await redis.zscore('signet:{clients:registered}', used.client_id as string)).toBe('inf');
}, 30_000);

test('10,000 attempts from one address, then from 100 addresses, leave at most the cap of clients, each key bounded and expiring', async () => {
  const send = async (count: number, fromOf: (i: number) => string) => {
    const statuses: Record<number, number> = {};
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < count) {
          const i = next++;
          const { status } = await register(metadata(`Flood ${i}`), fromOf(i), i % 2 ? h.peers[0]!.url : h.issuer);
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      }),
    );
    return statuses;
  };
  const one = freshAddress();
  expect(await send(10_000, () => one)).toEqual({ 201: PER_ADDRESS, 429: 10_000 - PER_ADDRESS });
  const hundred = Array.from({ length: 100 }, freshAddress);
  // While the flood goes on, registration never holds more than the cap.
  // and every key it wrote is bounded and expires (looked at while they live: unused, they expire within seconds here).
  let most = 0;
  let keysSeen = 0;
  const unbounded: string[] = [];
  const watching = setInterval(async () => {
    most = Math.max(most, (await h.store.indexMembers('signet:{clients:registered}')).length);
    for (const key of [...(await registeredKeys()), ...(await tokenKeys())]) {
      keysSeen++;
      const [ttl, bytes] = [await redis.pttl(key), Number(await redis.memory('USAGE', key))];
      if (ttl === -1 || bytes > CLIENT_SIZE_BOUNDS.recordBytes + 1024) unbounded.push(`${key}: ttl ${ttl}, ${bytes} bytes`);
    }
  }, 100);
  const spread = await send(10_000, (i) => hundred[i % 100]!).finally(() => clearInterval(watching));
  expect(spread[429]).toBe(10_000 - 100 * PER_ADDRESS);
  // The rest reached the engine: admitted within the cap (unused ones expiring as the flood goes on), or refused past it.
  expect((spread[201] ?? 0) + (spread[400] ?? 0)).toBe(100 * PER_ADDRESS);
  expect(spread[400]).toBeGreaterThan(0);
  expect(most).toBeLessThanOrEqual(MAX_CLIENTS);
  expect(keysSeen).toBeGreaterThan(0);
  expect(unbounded).toEqual([]);

  const clients = await registeredKeys();
  const tokens = await tokenKeys();
  expect(clients.length).toBeLessThanOrEqual(MAX_CLIENTS);
  // One registration access token and its index per client.
  expect(tokens.length).toBeLessThanOrEqual(2 * MAX_CLIENTS);
  console.info(
    `registration door: 20,000 attempts → ${JSON.stringify(spread)} from 100 addresses; at most ${most} clients at once; ${clients.length} clients and ${tokens.length} token keys left, all expiring unused`,
  );
}, 180_000);

describe('the admin API lists the clients a page at a time', () => {
  const admin = jsonApi(() => h.issuer);

  test('pages by client_id with next_cursor, the last page null; a cursor it did not give is refused', async () => {
    for (let i = 0; i < 25; i++) expect((await register(metadata(`Listed ${i}`), freshAddress())).status).toBe(201);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await admin('GET', `/admin/clients?limit=10${cursor ? `&cursor=${cursor}` : ''}`, { token: ADMIN_TOKEN });
      expect(page.status).toBe(200);
      const clients = page.json.clients as { client_id: string }[];
      expect(clients.length).toBeLessThanOrEqual(10);
      seen.push(...clients.map((client) => client.client_id));
      cursor = page.json.next_cursor as string | null;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(26);
    expect([...seen].sort()).toEqual(seen);
    expect(new Set(seen).size).toBe(26);
    const bad = await admin('GET', '/admin/clients?cursor=not-one-it-gave!', { token: ADMIN_TOKEN });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ reason: 'invalid_query' });
    expect((await admin('GET', '/admin/clients?limit=501', { token: ADMIN_TOKEN })).status).toBe(400);
  });
});
