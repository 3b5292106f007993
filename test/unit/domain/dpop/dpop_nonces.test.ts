// Signet's DPoP nonces are the engine's: the same secret gives the same nonce in the same minute,
// so a nonce handed out at the token endpoint is good at Signet's routes and back. Time injected.
import { randomBytes } from 'node:crypto';
import ServerChallenge from 'oidc-provider/lib/helpers/challenge.js';
import { createDpopNonces, dpopNonceSecret } from '../../../../src/domain/dpop/dpop_nonces.js';

test('the engine accepts the nonce Signet hands out, and Signet the engine’s', () => {
  const secret = randomBytes(32);
  const engine = new ServerChallenge(secret, 'DPoP');
  const signet = createDpopNonces(secret);
  expect(signet.next()).toBe(engine.nextChallenge());
  expect(engine.checkChallenge(signet.next())).toBe(true);
  expect(signet.check(engine.nextChallenge())).toBe(true);
});

test('a nonce is good for two minutes either side of the minute it names, then refused', () => {
  let now = Date.UTC(2026, 0, 1, 12, 0, 30);
  const nonces = createDpopNonces(randomBytes(32), () => now);
  const issued = nonces.next(); // names 12:01
  now += 3 * 60_000; // 12:03:30: 12:01 is two minutes back
  expect(nonces.check(issued)).toBe(true);
  now += 60_000; // 12:04:30: three minutes back
  expect(nonces.check(issued)).toBe(false);
  expect(nonces.check('not-a-nonce')).toBe(false);
  expect(nonces.check('')).toBe(false);
});

test('every process derives the same secret from the shared cookie key, and another key another one', () => {
  expect(dpopNonceSecret(['cookie-key-0123456789abcdef'])).toEqual(dpopNonceSecret(['cookie-key-0123456789abcdef', 'older-key-0123456789']));
  expect(dpopNonceSecret(['cookie-key-0123456789abcdef'])).not.toEqual(dpopNonceSecret(['another-key-0123456789abcd']));
  expect(dpopNonceSecret(['cookie-key-0123456789abcdef'])).toHaveLength(32);
});
