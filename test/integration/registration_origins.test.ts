// Open registration bounded per address and per network over the clients' lives (decision 72),
// on real Redis and two Signet processes, addresses given by X-Forwarded-For (one proxy
// trusted): a client holds a place of its address (an IPv6 /64) and of its network (an IPv4 /24,
// an IPv6 /48) while it lives; a deletion (RFC 7592 or the admin API) or its expiry unused frees
// it, its first token keeps it; many attempts at once from one address, in two processes, take
// exactly the address's places; and a few networks, however many addresses they hold, cannot
// fill the cap: a registration from elsewhere still passes.
import type { Redis } from 'ioredis';
import type { Json } from '../support/json_api.js';
import { deleteRegisteredClients, registerFrom, SERVICE_METADATA, serviceToken, startOpenRegistration } from '../support/open_registration.js';
import { websiteMetadata } from '../support/registration_metadata.js';
import type { Harness } from '../support/signet_harness.js';
import { waitUntil } from '../support/wait_until.js';

const MAX_CLIENTS = 20;
const PER_ADDRESS = 3;
const PER_NETWORK = 6;
const UNUSED_SECONDS = 6;
const ADMIN_TOKEN = 'admin-token-for-the-registration-origin-tests';

let h: Harness;
let redis: Redis;

beforeAll(async () => {
  ({ h, redis } = await startOpenRegistration({
    limits: { maxClients: MAX_CLIENTS, perAddress: PER_ADDRESS, perNetwork: PER_NETWORK, unusedHours: UNUSED_SECONDS / 3600 },
    // The hourly count stays out of the way: the bounds over a client's life are the subject.
    registrationsPerAddress: { points: 10_000, seconds: 3600 },
    adminToken: ADMIN_TOKEN,
  }));
}, 60_000);

afterAll(async () => {
  redis.disconnect();
  await h.close();
});

afterEach(async () => {
  await deleteRegisteredClients(h, redis);
  // Deleting every registered client left none of their places behind.
  expect(await redis.keys('signet:{clients:registered}*')).toEqual([]);
  expect(await redis.keys('signet:registration-origin:*')).toEqual([]);
});

let spread = 0;
/** A process in turn: the first, then its peer. */
const nextBase = () => (spread++ % 2 ? h.peers[0]!.url : h.issuer);

const register = (from: string, name = `Site ${Math.random().toString(36).slice(2, 8)}`, base = nextBase()) => registerFrom(base, websiteMetadata(name), from);

const refusal = (answer: { status: number; json: Json }) => ({ status: answer.status, error: answer.json.error, description: answer.json.error_description });

test('an address keeps at most its places, its network at most its own; another network still registers', async () => {
  for (let i = 0; i < PER_ADDRESS; i++) expect((await register('203.0.113.7')).status).toBe(201);
  expect(refusal(await register('203.0.113.7'))).toEqual({
    status: 400,
    error: 'access_denied',
    description: expect.stringMatching(/closed to this address for now: Signet keeps at most 3 registered clients from one address/),
  });
  // Other addresses of the same /24 share its network's places.
  for (let i = 0; i < PER_NETWORK - PER_ADDRESS; i++) expect((await register(`203.0.113.${20 + i}`)).status).toBe(201);
  expect(refusal(await register('203.0.113.99'))).toEqual({
    status: 400,
    error: 'access_denied',
    description: expect.stringMatching(/closed to this network \(203\.0\.113\.0\/24\) for now: Signet keeps at most 6 registered clients from one network/),
  });
  expect((await register('203.0.114.7')).status).toBe(201);
  expect(await redis.zcard('signet:{clients:registered}:address:203.0.113.7')).toBe(PER_ADDRESS);
  expect(await redis.zcard('signet:{clients:registered}:network:203.0.113.0/24')).toBe(PER_NETWORK);
  expect(await redis.zcard('signet:{clients:registered}')).toBe(PER_NETWORK + 1);
});

test('IPv6: one /64 is one address, one /48 one network', async () => {
  const sameSlash64 = ['2001:db8:1:1::1', '2001:db8:1:1::2', '2001:db8:1:1:ffff::9'];
  for (const from of sameSlash64) expect((await register(from)).status).toBe(201);
  expect(refusal(await register('2001:db8:1:1::abcd')).description).toMatch(/closed to this address/);
  for (const from of ['2001:db8:1:2::1', '2001:db8:1:3::1', '2001:db8:1:ff00::1']) expect((await register(from)).status).toBe(201);
  expect(refusal(await register('2001:db8:1:4::1')).description).toMatch(/closed to this network \(2001:db8:1::\/48\)/);
  expect((await register('2001:db8:2:1::1')).status).toBe(201);
});

test('a deletion frees its place, through RFC 7592 or the admin API', async () => {
  const made = [];
  for (let i = 0; i < PER_ADDRESS; i++) made.push((await register('192.0.2.10')).json);
  expect((await register('192.0.2.10')).status).toBe(400);
  const deleted = await fetch(made[0]!.registration_client_uri as string, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${made[0]!.registration_access_token}` },
  });
  expect(deleted.status).toBe(204);
  expect((await register('192.0.2.10')).status).toBe(201);
  expect((await register('192.0.2.10')).status).toBe(400);
  const removed = await fetch(`${h.issuer}/admin/clients/${made[1]!.client_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(removed.status).toBe(204);
  expect((await register('192.0.2.10')).status).toBe(201);
  expect(await redis.exists(`signet:registration-origin:${made[0]!.client_id}`, `signet:registration-origin:${made[1]!.client_id}`)).toBe(0);
});

test('a client that expires unused frees its place; one kept by its first token keeps it', async () => {
  const registered = await registerFrom(nextBase(), SERVICE_METADATA, '192.0.2.50');
  expect(registered.status).toBe(201);
  const service = registered.json;
  const idle = (await register('192.0.2.50')).json;
  // Every key a registration writes expires while its client is unused.
  for (const key of [
    `signet:registration-origin:${idle.client_id}`,
    'signet:{clients:registered}:address:192.0.2.50',
    'signet:{clients:registered}:network:192.0.2.0/24',
  ]) {
    expect(await redis.pttl(key)).toBeGreaterThan(0);
  }
  const issued = await serviceToken(h.issuer, service);
  expect(issued.status).toBe(200);
  // The keep runs after the answer, its origin first and the network's place last: it is over once that place is kept.
  await waitUntil(
    'the service kept',
    async () =>
      (await redis.pttl(`signet:registration-origin:${service.client_id}`)) === -1 &&
      (await redis.zscore('signet:{clients:registered}:network:192.0.2.0/24', service.client_id as string)) === 'inf',
  );
  expect(await redis.zscore('signet:{clients:registered}:address:192.0.2.50', service.client_id as string)).toBe('inf');
  expect(await redis.zscore('signet:{clients:registered}:network:192.0.2.0/24', service.client_id as string)).toBe('inf');

  expect((await register('192.0.2.50')).status).toBe(201);
  expect((await register('192.0.2.50')).status).toBe(400);
  await waitUntil(
    'the unused clients gone',
    async () => (await redis.exists(`signet:client:${idle.client_id}`, `signet:registration-origin:${idle.client_id}`)) === 0,
    (UNUSED_SECONDS + 3) * 1000,
  );
  await waitUntil('their places freed', async () => (await h.store.indexMembers('signet:{clients:registered}:address:192.0.2.50')).length === 1);
  // The kept one still holds its place: two more, not three.
  expect((await register('192.0.2.50')).status).toBe(201);
  expect((await register('192.0.2.50')).status).toBe(201);
  expect((await register('192.0.2.50')).status).toBe(400);
}, 30_000);

test('40 registrations at once from one address, in two processes: exactly its places are taken', async () => {
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => register('198.51.100.1', `Crowd ${i}`)));
  const statuses = answers.map((answer) => answer.status);
  expect(statuses.filter((status) => status === 201)).toHaveLength(PER_ADDRESS);
  expect(statuses.filter((status) => status === 400)).toHaveLength(40 - PER_ADDRESS);
  expect(await redis.zcard('signet:{clients:registered}')).toBe(PER_ADDRESS);
});

test('3 networks of 250 addresses each, 750 registrations: the cap is never filled, and a stranger elsewhere registers', async () => {
  const statuses: Record<number, number> = {};
  // Unused clients expire within seconds here, freeing their places as the flood goes on: what
  // is held at once is the subject, looked at while it lasts.
  let most = 0;
  const watching = setInterval(async () => {
    most = Math.max(most, (await h.store.indexMembers('signet:{clients:registered}')).length);
  }, 25);
  let next = 0;
  const networks = ['100.64.1', '100.64.2', '100.64.3'];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < 750) {
        const i = next++;
        const { status } = await register(`${networks[i % 3]}.${Math.floor(i / 3) + 1}`, `Flood ${i}`);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  ).finally(() => clearInterval(watching));
  expect(statuses[201]).toBeGreaterThanOrEqual(3 * PER_NETWORK);
  expect(statuses[201]! + statuses[400]!).toBe(750);
  expect(most).toBeGreaterThan(0);
  expect(most).toBeLessThanOrEqual(3 * PER_NETWORK);
  expect(await h.store.indexMembers('signet:{clients:registered}')).not.toHaveLength(MAX_CLIENTS);
  expect((await register('192.0.2.200')).status).toBe(201);
  console.info(
    `registration origins: 750 registrations from 3 networks → ${JSON.stringify(statuses)}; cap ${MAX_CLIENTS}, at most ${most} held at once; a fourth network still registers`,
  );
}, 60_000);
