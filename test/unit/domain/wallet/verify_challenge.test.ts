// The signature check every login, sign-in and erasure goes through, refusal by refusal: each
// cheap check before any chain call, the signed text compared byte for byte with what Signet
// issued, the nonce spent once, wrong signatures counted until the challenge is burnt, and the
// caller's own live checks run before the nonce is spent. A real memory store and rate limits,
// an injected clock, and a chain that only counts what it is asked (an EOA needs none).
import { createPublicClient, custom } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { refuse } from '../../../../src/base/errors.js';
import { loadConfig } from '../../../../src/config/config.js';
import { createChallengeIssuer } from '../../../../src/domain/wallet/challenge.js';
import { createChallengeVerifier } from '../../../../src/domain/wallet/verify_challenge.js';
import { createMemoryStore } from '../../../../src/infra/store/memory_store.js';

const ISSUER = 'https://signet.example';
const TTL_SECONDS = 300;
const wallet = privateKeyToAccount(generatePrivateKey());
const stranger = privateKeyToAccount(generatePrivateKey());

function setUp() {
  const clock = { now: Date.parse('2026-03-01T10:00:00Z') };
  const store = createMemoryStore(() => clock.now);
  const chainCalls: string[] = [];
  // Answers eth_getCode with no code (an EOA) and counts every call.
  const client = createPublicClient({
    transport: custom({
      request: async ({ method }: { method: string }) => {
        chainCalls.push(method);
        if (method === 'eth_getCode') return '0x';
        if (method === 'eth_chainId') return '0x1';
        throw new Error(`unexpected ${method}`);
      },
    }),
  });
  const issue = createChallengeIssuer(store, { issuer: ISSUER, chainId: 1, ttlSeconds: TTL_SECONDS }, () => clock.now);
  const verify = createChallengeVerifier(store, client, loadConfig({}).rateLimits.failedSignaturesPerChallenge, TTL_SECONDS, () => clock.now);
  const challenge = (binding = 'interaction:one') =>
    issue({ binding, wallet: wallet.address, identity: null, statement: 'Sign in to Signet.', fields: [], resources: [`eip155:1:${wallet.address}`] });
  return { clock, chainCalls, verify, challenge };
}

const refusal = (reason: string) => expect.objectContaining({ reason });

test('the signed challenge passes once; the same signature again is challenge_used', async () => {
  const { verify, challenge, chainCalls } = setUp();
  const issued = await challenge();
  const signature = await wallet.signMessage({ message: issued.message });
  await expect(verify({ binding: 'interaction:one', signature, message: issued.message })).resolves.toMatchObject({
    nonce: issued.nonce,
    wallet: wallet.address,
  });
  await expect(verify({ binding: 'interaction:one', signature, message: issued.message })).rejects.toEqual(refusal('challenge_used'));
  // An EOA's signature is recovered locally: the chain was not asked.
  expect(chainCalls).toEqual([]);
});

test('without the text, the latest challenge of the binding is meant; with none issued, challenge_missing', async () => {
  const { verify, challenge } = setUp();
  await expect(verify({ binding: 'interaction:none', signature: '0x00' })).rejects.toEqual(refusal('challenge_missing'));
  const issued = await challenge();
  const signature = await wallet.signMessage({ message: issued.message });
  await expect(verify({ binding: 'interaction:one', signature })).resolves.toMatchObject({ nonce: issued.nonce });
});

test('a signature that is not hex is signature_malformed, before any lookup', async () => {
  const { verify } = setUp();
  await expect(verify({ binding: 'interaction:none', signature: 'not-hex' })).rejects.toEqual(refusal('signature_malformed'));
});

test('a text past its expiration time is challenge_expired; without the text, an expired challenge is gone (challenge_missing)', async () => {
  const { verify, challenge, clock } = setUp();
  const issued = await challenge();
  const signature = await wallet.signMessage({ message: issued.message });
  clock.now += TTL_SECONDS * 1000;
  await expect(verify({ binding: 'interaction:one', signature, message: issued.message })).rejects.toEqual(refusal('challenge_expired'));
  await expect(verify({ binding: 'interaction:one', signature })).rejects.toEqual(refusal('challenge_missing'));
});

test('a nonce Signet did not issue is nonce_unknown; a nonce of another binding is nonce_other_binding', async () => {
  const { verify, challenge } = setUp();
  const issued = await challenge();
  const forged = issued.message.replace(`Nonce: ${issued.nonce}`, 'Nonce: abcdefgh12345678');
  await expect(verify({ binding: 'interaction:one', signature: await wallet.signMessage({ message: forged }), message: forged })).rejects.toEqual(
    refusal('nonce_unknown'),
  );
  const other = await challenge('interaction:two');
  const signature = await wallet.signMessage({ message: other.message });
  await expect(verify({ binding: 'interaction:one', signature, message: other.message })).rejects.toEqual(refusal('nonce_other_binding'));
});

test('a text changed in any field is message_mismatch naming the field; a text that is no EIP-4361 message is message_malformed', async () => {
  const { verify, challenge } = setUp();
  const issued = await challenge();
  const changed = issued.message.replace('Sign in to Signet.', 'Sign in to somewhere else.');
  const answer = verify({ binding: 'interaction:one', signature: await wallet.signMessage({ message: changed }), message: changed });
  await expect(answer).rejects.toEqual(expect.objectContaining({ reason: 'message_mismatch', message: '"statement" does not match the challenge' }));
  await expect(verify({ binding: 'interaction:one', signature: '0x00', message: 'hello' })).rejects.toEqual(refusal('message_malformed'));
});

test('a signature by another key is signature_invalid (the chain asked once whether a contract stands there); too many burn the challenge', async () => {
  const { verify, challenge, chainCalls } = setUp();
  const issued = await challenge();
  const wrong = await stranger.signMessage({ message: issued.message });
  await expect(verify({ binding: 'interaction:one', signature: wrong, message: issued.message })).rejects.toEqual(refusal('signature_invalid'));
  expect(chainCalls).toEqual(['eth_getCode']);
  // The default allows 5 wrong signatures per challenge: the 5th burns it.
  for (let attempt = 2; attempt <= 5; attempt++) {
    await expect(verify({ binding: 'interaction:one', signature: wrong, message: issued.message })).rejects.toEqual(refusal('signature_invalid'));
  }
  const right = await wallet.signMessage({ message: issued.message });
  await expect(verify({ binding: 'interaction:one', signature: right, message: issued.message })).rejects.toEqual(refusal('challenge_burnt'));
});

test("the caller's own check runs before the nonce is spent: refused there, the challenge stays usable", async () => {
  const { verify, challenge } = setUp();
  const issued = await challenge();
  const signature = await wallet.signMessage({ message: issued.message });
  const unlinked = async () => {
    throw refuse('wallet_not_linked', 'not linked');
  };
  await expect(verify({ binding: 'interaction:one', signature, message: issued.message }, unlinked)).rejects.toEqual(refusal('wallet_not_linked'));
  await expect(verify({ binding: 'interaction:one', signature, message: issued.message })).resolves.toMatchObject({ nonce: issued.nonce });
});
