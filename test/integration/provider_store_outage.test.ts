// Data held elsewhere when Signet's own Redis fails mid-step: the outage is Signet's 503
// (store_unavailable), never a claim without data nor an empty list of challenges. A real B
// (its own Redis, behind the proxy) answers; A's Redis is killed while B's answer is held at the
// proxy, so the write that follows that answer is the one that meets the outage.
import type { Address, Hex } from 'viem';
import { SignetError } from '../../src/base/errors.js';
import { subjectOf } from '../../src/domain/identity/subject.js';
import type { HeldOffer } from '../../src/domain/providers/held_elsewhere.js';
import { KYC_TOPIC, ownerWithKyc, type ProviderPair, startProviderPair, stepsAt } from '../support/provider_pair.js';
import { waitUntil } from '../support/wait_until.js';

const KYC_DATA = { level: 'enhanced', checked_by: 'Acme KYC', checked_on: '2026-11-20' };
const TIMEOUT_MS = 3000;
let pair: ProviderPair;
let uids = 0;

beforeAll(async () => {
  // Production deadlines: a Redis command that cannot be sent fails at once, as in an outage.
  pair = await startProviderPair({ deadlines: 'production', timeoutMs: TIMEOUT_MS });
}, 120_000);

afterAll(async () => {
  await pair?.close();
});

afterEach(async () => {
  pair.proxy.hold = undefined;
});

/** Holds B's answer to the step named until the test lets it go; `arrived` once A's request is at the proxy. */
function holdAnswerTo(step: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived = false;
  pair.proxy.hold = (request) => {
    if (!request.path.endsWith(step)) return undefined;
    arrived = true;
    return released;
  };
  return { release, arrived: () => waitUntil(`A's ${step} request is at B`, () => arrived, 10_000) };
}

async function heldClaimOf(identity: Address) {
  const { a } = pair;
  const views = await a.signet.claims.listForTopics(identity, [KYC_TOPIC]);
  return a.signet.heldElsewhere.heldAmong(views);
}

/** A's store answers again after its Redis restarted (its client reconnects on its own). */
const backOnItsRedis = () =>
  waitUntil(
    'A reaches its Redis again',
    () =>
      pair.a.store.get('signet:reconnected').then(
        () => true,
        () => false,
      ),
    10_000,
  );

const outage = (error: unknown) => (error instanceof SignetError ? { status: error.status, reason: error.reason } : error);

test("Redis down while the login's access requests are written: the page's challenges are a 503, not an empty list, and its next try has them", async () => {
  const { a } = pair;
  const { identity } = await ownerWithKyc(pair, KYC_DATA);
  const held = await heldClaimOf(identity);
  expect(held).toHaveLength(1);
  const uid = `outage-${++uids}`;
  const subject = subjectOf(a.chain.anvil.chainId, identity);
  const access = holdAnswerTo('/access-requests');
  const offers = await a.signet.heldElsewhere.prepare(uid, subject, identity, held);
  expect(offers.map((offer) => offer.signs)).toEqual([true]);
  await access.arrived();
  await a.redis.kill();
  access.release();
  await a.redis.start();
  await backOnItsRedis();
  const started = performance.now();
  const first = await a.signet.heldElsewhere.challenges(uid).then(
    () => 'answered',
    (error: unknown) => outage(error),
  );
  // Answered at once with the outage, not after polling Redis for the provider deadline.
  expect(first).toEqual({ status: 503, reason: 'store_unavailable' });
  expect(performance.now() - started).toBeLessThan(TIMEOUT_MS);
  // The requests were sent again at once: the page's next try has B's challenge, with no new step of the login.
  expect((await a.signet.heldElsewhere.challenges(uid)).map((each) => Object.keys(each).sort())).toEqual([['challenge', 'claim_id']]);
  expect(stepsAt(pair.proxy).filter((step) => step === 'POST access_request')).toHaveLength(2);
}, 60_000);

test("Redis down while the grant B just validated is written: the signature step's outage, not the claim's provider_unavailable", async () => {
  const { a } = pair;
  const { owner, identity, claimId } = await ownerWithKyc(pair, KYC_DATA);
  const held = await heldClaimOf(identity);
  const uid = `outage-${++uids}`;
  const subject = subjectOf(a.chain.anvil.chainId, identity);
  const offers: HeldOffer[] = await a.signet.heldElsewhere.prepare(uid, subject, identity, held);
  const [asked] = await a.signet.heldElsewhere.challenges(uid);
  expect(asked).toMatchObject({ claim_id: claimId.toLowerCase() });
  const signature = await owner.signMessage({ message: asked!.challenge! });

  const validation = holdAnswerTo('/validations');
  const fetching = a.signet.heldElsewhere
    .fetchAtLogin(uid, subject, identity, owner.address, offers, [{ claim_id: claimId as Hex, signature }])
    .then((fetched) => ({ fetched }), outage);
  await validation.arrived();
  await a.redis.kill();
  validation.release();
  expect(await fetching).toEqual({ status: 503, reason: 'store_unavailable' });
  await a.redis.start();
  await backOnItsRedis();
}, 60_000);
