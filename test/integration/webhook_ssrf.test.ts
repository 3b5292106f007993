// No SSRF through webhooks: an owner's URL must resolve to public addresses only, checked when
// it is saved (PUT /account/webhook, against a whole Signet on real Redis and anvil) and again at
// each delivery, connecting to the address the check approved; a DNS that answers a public
// address at save and loopback later (rebinding) reaches nothing. Redirects are not followed.
import { createServer, type Server } from 'node:http';
import type { Address, LocalAccount } from 'viem';
import { createRedisWebhookQueue } from '../../src/domain/webhooks/redis_webhook_queue.js';
import type { WebhookEvent, WebhookQueue, WebhookTarget } from '../../src/domain/webhooks/webhook_queue.js';
import type { ResolvedAddress, ResolveHost } from '../../src/infra/outbound/url_guard.js';
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { redisForTests } from '../support/redis_for_tests.js';
import { ANALYTICS, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import type { UserAgent } from '../support/user_agent.js';
import { waitUntil } from '../support/wait_until.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook_receiver.js';

/** A public address (documentation of example.com); no test ever connects to it. */
const PUBLIC_IP = '93.184.215.14';
const OWNER_SECRET = 'owner-webhook-secret-value';

/** A DNS the test writes: each name answers its list (or its error), call after call. */
function fakeDns() {
  const answers = new Map<string, (call: number) => ResolvedAddress[] | Error>();
  const calls: string[] = [];
  const resolveHost: ResolveHost = async (hostname) => {
    calls.push(hostname);
    const answer = answers.get(hostname)?.(calls.filter((name) => name === hostname).length);
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
  return { answers, calls, resolveHost, v4 };
}

describe('an owner saves a webhook URL (PUT /account/webhook)', () => {
  const dns = fakeDns();
  let h: Harness;
  let agent: UserAgent;
  let identity: Address;
  let owner: LocalAccount;
  let loopback: WebhookReceiver;
  let analyticsKey: string;

  beforeAll(async () => {
    loopback = await startWebhookReceiver(OWNER_SECRET);
    // Private targets are NOT allowed here: the production setting.
    h = await startSignet({ clients: [WEBSITE, ANALYTICS], resolveHost: dns.resolveHost });
    owner = h.chain.accounts[2]!;
    identity = await h.chain.createIdentityFor(owner.address);
    await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
    agent = (await signInToAccount(h.issuer, owner)).agent;
    analyticsKey = (await h.signet.apiKeys.create('analytics', 'ssrf tests')).key;
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await loopback?.close();
  });

  beforeEach(async () => {
    await h.store.delete(keys.ownerWebhook(identity));
  });

  const put = async (url: string) => {
    const response = await agent.fetch(`${h.issuer}/account/webhook`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ url, secret: OWNER_SECRET }),
    });
    const answer = { status: response.status, json: (await response.json()) as Record<string, unknown> };
    return answer;
  };

  // The sentence is checked here: it names the range refused, never the address the host came to.
  const notPublic = (_address: string, range: string) => ({
    status: 400,
    json: {
      error: 'invalid_request',
      error_description: `the webhook URL resolves to a non-public address (${range}): only public addresses are called`,
      reason: 'webhook_url_not_public',
    },
  });

  test.each([
    ['http://127.0.0.1:8080/hooks', '127.0.0.1', 'loopback'],
    ['http://127.9.9.9/hooks', '127.9.9.9', 'loopback'],
    ['http://2130706433/hooks', '127.0.0.1', 'loopback'],
    ['http://0x7f.1/hooks', '127.0.0.1', 'loopback'],
    ['http://[::1]/hooks', '::1', 'loopback'],
    ['http://[::ffff:127.0.0.1]/hooks', '::ffff:7f00:1', 'loopback'],
    ['http://[::ffff:10.0.0.1]/hooks', '::ffff:a00:1', 'private'],
    ['http://10.0.0.1/hooks', '10.0.0.1', 'private'],
    ['http://172.16.5.4/hooks', '172.16.5.4', 'private'],
    ['https://192.168.1.10/hooks', '192.168.1.10', 'private'],
    ['http://169.254.10.1/hooks', '169.254.10.1', 'linkLocal'],
    ['http://[fe80::1]/hooks', 'fe80::1', 'linkLocal'],
    ['http://[fc00::1]/hooks', 'fc00::1', 'uniqueLocal'],
    ['http://[fd12:3456::1]/hooks', 'fd12:3456::1', 'uniqueLocal'],
    ['http://100.64.0.1/hooks', '100.64.0.1', 'carrierGradeNat'],
    ['http://0.0.0.0/hooks', '0.0.0.0', 'unspecified'],
    ['http://[::]/hooks', '::', 'unspecified'],
    ['http://224.0.0.1/hooks', '224.0.0.1', 'multicast'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254', 'cloud metadata'],
    ['http://[fd00:ec2::254]/latest/meta-data/', 'fd00:ec2::254', 'cloud metadata'],
    ['http://[::ffff:169.254.169.254]/latest/meta-data/', '::ffff:a9fe:a9fe', 'cloud metadata'],
  ])('%s is refused: 400 webhook_url_not_public, nothing saved', async (url, address, range) => {
    expect(await put(url)).toEqual(notPublic(address, range));
    expect(await h.store.get(keys.ownerWebhook(identity))).toBeUndefined();
    expect(await agent.getJson(`${h.issuer}/account/webhook`)).toEqual({ status: 200, json: { url: null } });
  });

  test('host names are checked on every address they resolve to', async () => {
    dns.answers.set('localhost.example', () => [dns.v4('127.0.0.1')]);
    dns.answers.set('mixed.example', () => [dns.v4(PUBLIC_IP), dns.v4('10.1.2.3')]);
    dns.answers.set('metadata.example', () => [{ address: 'fd00:ec2::254', family: 6 }]);
    expect(await put('http://localhost.example/hooks')).toEqual(notPublic('127.0.0.1', 'loopback'));
    // One public answer beside an inner one is not enough.
    expect(await put('https://mixed.example/hooks')).toEqual(notPublic('10.1.2.3', 'private'));
    expect(await put('https://metadata.example/')).toEqual(notPublic('fd00:ec2::254', 'cloud metadata'));
    expect(await h.store.get(keys.ownerWebhook(identity))).toBeUndefined();
  });

  test("a name that does not resolve is the URL's fault (400); a failing resolver is an outage (503)", async () => {
    expect(await put('https://nowhere.example/hooks')).toMatchObject({ status: 400, json: { error: 'invalid_request', reason: 'webhook_url_unresolvable' } });
    dns.answers.set('flaky.example', () => Object.assign(new Error('queryA ETIMEOUT flaky.example'), { code: 'ETIMEOUT' }));
    expect(await put('https://flaky.example/hooks')).toMatchObject({ status: 503, json: { error: 'temporarily_unavailable', reason: 'dns_unavailable' } });
    expect(await h.store.get(keys.ownerWebhook(identity))).toBeUndefined();
  });

  test('a URL resolving to public addresses only is saved', async () => {
    dns.answers.set('hooks.example', () => [dns.v4(PUBLIC_IP), { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }]);
    expect(await put('https://hooks.example/signet')).toEqual({
      status: 200,
      json: { url: 'https://hooks.example/signet', secret: OWNER_SECRET, events: ['access_request.created'] },
    });
    expect(JSON.parse((await h.store.get(keys.ownerWebhook(identity)))!)).toEqual({ url: 'https://hooks.example/signet', secret: OWNER_SECRET });
  });

  test('DNS rebinding: public at save, loopback at delivery: the delivery is refused and nothing reaches the loopback receiver', async () => {
    const port = Number(new URL(loopback.url).port);
    // The first answer (the save) is public; every later one (the deliveries) is loopback, where
    // a real receiver listens on the URL's port.
    dns.answers.set('rebind.example', (call) => [dns.v4(call === 1 ? PUBLIC_IP : '127.0.0.1')]);
    const url = `http://rebind.example:${port}/hooks`;
    expect((await put(url)).status).toBe(200);

    const response = await fetch(`${h.issuer}/identities/${identity}/profile/access-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': analyticsKey },
      body: JSON.stringify({ kind: 'persistent', fields: ['given_name'] }),
    });
    expect(response.status).toBe(201);
    const grantId = ((await response.json()) as { id: string }).id;

    // The harness retries after 50, 100 and 200 ms: four refused attempts, then a dead letter.
    const letterOf = async () => (await h.webhooks.deadLetters()).find((letter) => (letter.event.data.grant as { id: string }).id === grantId);
    await waitUntil('the owner event is a dead letter', async () => (await letterOf()) !== undefined);
    expect(await letterOf()).toEqual({
      event: expect.objectContaining({ type: 'access_request.created', service: `owner:${identity}` }),
      attempts: 4,
      last_error: 'the webhook URL resolves to a non-public address (loopback): only public addresses are called',
      dead_at: expect.any(String),
    });
    // Resolved once at save and once per attempt: the check ran again at every delivery.
    expect(dns.calls.filter((name) => name === 'rebind.example')).toHaveLength(5);
    expect(loopback.attempts).toBe(0);
  });
});

describe('at delivery', () => {
  const redis = redisForTests();
  const { cleanups } = redis;

  /** A receiver on 127.0.0.1 answering `status`, with `location` when it redirects. */
  async function startAnswering(status: number, location?: string) {
    const requests: string[] = [];
    const server: Server = createServer((request, response) => {
      requests.push(`${request.method} ${request.headers.host} ${request.url}`);
      request.resume();
      request.on('end', () => response.writeHead(status, location ? { location } : {}).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    return { port, url: `http://127.0.0.1:${port}/hooks`, requests };
  }

  function queueWith(targetOf: (service: string) => WebhookTarget | undefined, extra: { allowPrivateTargets?: boolean; resolveHost?: ResolveHost } = {}) {
    const queue: WebhookQueue = createRedisWebhookQueue(redis.url, { targetOf, retryDelaysMs: [], pollMs: 20, ...extra });
    cleanups.push(() => queue.close());
    queue.start();
    return queue;
  }

  const event = (service: string): WebhookEvent => ({
    id: `evt_${Math.random().toString(36).slice(2, 12)}`,
    type: 'access_request.created',
    service,
    created_at: '2030-01-01T00:00:00.000Z',
    data: {},
  });

  test('a redirect is not followed: the 3xx is a failed attempt, and the redirect target sees nothing', async () => {
    const elsewhere = await startAnswering(204);
    const redirecting = await startAnswering(307, elsewhere.url);
    const moved = await startAnswering(302, elsewhere.url);
    // An owner's URL (checked; private allowed for this loopback test) and an operator's (trusted).
    const queue = queueWith(
      (service) =>
        service === 'owner:x'
          ? { url: redirecting.url, secret: OWNER_SECRET }
          : service === 'operator'
            ? { url: moved.url, secret: OWNER_SECRET, trusted: true }
            : undefined,
      { allowPrivateTargets: true },
    );
    const toOwner = event('owner:x');
    const toOperator = event('operator');
    await queue.enqueue(toOwner);
    await queue.enqueue(toOperator);
    await waitUntil('two dead letters', async () => (await queue.deadLetters()).length === 2);
    const errors = Object.fromEntries((await queue.deadLetters()).map((letter) => [letter.event.id, letter.last_error]));
    expect(errors).toEqual({ [toOwner.id]: 'HTTP 307 Temporary Redirect', [toOperator.id]: 'HTTP 302 Found' });
    expect(redirecting.requests).toHaveLength(1);
    expect(moved.requests).toHaveLength(1);
    expect(elsewhere.requests).toEqual([]);
  });

  test('the connection goes to the address the check approved, not to a second DNS answer', async () => {
    const receiver = await startAnswering(204);
    const dns = fakeDns();
    // First answer 127.0.0.1 (where the receiver listens), any later one 127.0.0.2 (nothing listens):
    // a delivery that resolved again to connect would be refused.
    dns.answers.set('pinned.example', (call) => [dns.v4(call === 1 ? '127.0.0.1' : '127.0.0.2')]);
    const queue = queueWith(() => ({ url: `http://pinned.example:${receiver.port}/hooks`, secret: OWNER_SECRET }), {
      allowPrivateTargets: true,
      resolveHost: dns.resolveHost,
    });
    await queue.enqueue(event('owner:y'));
    await waitUntil('delivered', () => receiver.requests.length === 1);
    // The Host header keeps the URL's name: only the socket is pinned.
    expect(receiver.requests).toEqual([`POST pinned.example:${receiver.port} /hooks`]);
    expect(dns.calls).toEqual(['pinned.example']);
    expect(await queue.deadLetters()).toEqual([]);
  });

  test('without WEBHOOKS_ALLOW_PRIVATE an owner URL on loopback is refused at delivery; an operator URL there is trusted', async () => {
    const receiver = await startAnswering(204);
    const queue = queueWith((service) =>
      service === 'operator' ? { url: receiver.url, secret: OWNER_SECRET, trusted: true } : { url: receiver.url, secret: OWNER_SECRET },
    );
    const toOwner = event('owner:z');
    const toOperator = event('operator');
    await queue.enqueue(toOwner);
    await queue.enqueue(toOperator);
    await waitUntil('the owner event is a dead letter', async () => (await queue.deadLetters()).length === 1);
    await waitUntil('the operator event was delivered', () => receiver.requests.length === 1);
    expect(await queue.deadLetters()).toEqual([
      {
        event: toOwner,
        attempts: 1,
        last_error: 'the webhook URL resolves to a non-public address (loopback): only public addresses are called',
        dead_at: expect.any(String),
      },
    ]);
    expect(receiver.requests).toHaveLength(1);
  });
});
