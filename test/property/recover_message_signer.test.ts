// Property-based: the native recovery (libsecp256k1) gives viem's recoverMessageAddress answer
// on every input: the same address for random keys and messages, the same key for the
// high-s twin of a signature, and a refusal wherever viem refuses (v other than 0/1/27/28,
// r or s out of range, a wrong length), the same address wherever viem recovers one from a
// corrupted signature. Without the addon (a loader that fails), viem recovers and it is logged once.
import fc from 'fast-check';
import { type Hex, recoverMessageAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createSignerRecovery, recoverMessageSigner, signatureRecoveryBackend } from '../../src/domain/wallet/recover_message_signer.js';

const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Either the address or "refused": the two implementations must agree on which, and on the address. */
const outcome = (recovery: Promise<string>) =>
  recovery.then(
    (address) => address,
    () => 'refused',
  );

async function sameAnswer(message: string, signature: Hex) {
  const [native, viem] = await Promise.all([outcome(recoverMessageSigner(message, signature)), outcome(recoverMessageAddress({ message, signature }))]);
  expect({ message, signature, answer: native }).toEqual({ message, signature, answer: viem });
  return native;
}

const hex32 = (value: bigint) => value.toString(16).padStart(64, '0');

const privateKey = fc.bigInt({ min: 1n, max: CURVE_ORDER - 1n }).map((key) => `0x${hex32(key)}` as Hex);
// Any text a signer could be asked to sign, ASCII and beyond (EIP-191 prefixes the byte length).
const message = fc.oneof(fc.string({ maxLength: 800 }), fc.string({ unit: 'grapheme', maxLength: 200 }));

test('the addon is what recovers here', () => {
  expect(signatureRecoveryBackend).toBe('libsecp256k1');
});

test('random keys and messages: the signer recovered by both', async () => {
  await fc.assert(
    fc.asyncProperty(privateKey, message, async (key, text) => {
      const account = privateKeyToAccount(key);
      const signature = await account.signMessage({ message: text });
      expect(await sameAnswer(text, signature)).toBe(account.address);
    }),
    { numRuns: 150 },
  );
});

test('every v byte (0/1/27/28 and all others), the high-s twin, r and s out of range', async () => {
  await fc.assert(
    fc.asyncProperty(privateKey, message, fc.integer({ min: 0, max: 255 }), async (key, text, v) => {
      const signature = await privateKeyToAccount(key).signMessage({ message: text });
      const r = BigInt(`0x${signature.slice(2, 66)}`);
      const s = BigInt(`0x${signature.slice(66, 130)}`);
      const vByte = (value: number) => value.toString(16).padStart(2, '0');
      await sameAnswer(text, `0x${hex32(r)}${hex32(s)}${vByte(v)}`);
      // The high-s twin (n - s, the other parity) is the same signature to secp256k1.
      const parity = Number.parseInt(signature.slice(130), 16) % 2 === 0 ? 1 : 0;
      await sameAnswer(text, `0x${hex32(r)}${hex32(CURVE_ORDER - s)}${vByte(v % 2 === 0 ? 27 + parity : parity)}`);
      for (const [badR, badS] of [
        [0n, s],
        [r, 0n],
        [CURVE_ORDER, s],
        [r, CURVE_ORDER],
        [r + CURVE_ORDER < 2n ** 256n ? r + CURVE_ORDER : r, s],
      ] as const) {
        await sameAnswer(text, `0x${hex32(badR)}${hex32(badS)}${vByte(v % 2 === 0 ? 27 : 28)}`);
      }
    }),
    { numRuns: 80 },
  );
});

test('corrupted signatures: flipped bytes, wrong lengths, random bytes', async () => {
  await fc.assert(
    fc.asyncProperty(
      privateKey,
      message,
      fc.integer({ min: 0, max: 64 }),
      fc.integer({ min: 1, max: 255 }),
      fc.uint8Array({ minLength: 0, maxLength: 140 }),
      async (key, text, at, mask, noise) => {
        const signature = await privateKeyToAccount(key).signMessage({ message: text });
        const bytes = Buffer.from(signature.slice(2), 'hex');
        const flipped = Buffer.from(bytes);
        flipped[at] = flipped[at]! ^ mask;
        await sameAnswer(text, `0x${flipped.toString('hex')}`);
        await sameAnswer(text, `0x${bytes.subarray(0, 64).toString('hex')}`);
        await sameAnswer(text, `0x${bytes.toString('hex')}00`);
        await sameAnswer(text, `0x${Buffer.from(noise).toString('hex')}`);
        await sameAnswer(
          text,
          `0x${Buffer.concat([Buffer.from(noise).subarray(0, 64), Buffer.alloc(64)])
            .subarray(0, 64)
            .toString('hex')}1b`,
        );
      },
    ),
    { numRuns: 150 },
  );
});

test('an addon that does not load: viem recovers, the same answers, and it is logged once, in one line', async () => {
  const missing = new Error(
    'No native build was found for platform=linux arch=arm64 runtime=node abi=127 uv=1 libc=glibc node=22.23.5\n    attempted loading from: node_modules/secp256k1',
  );
  const recovery = createSignerRecovery(() => {
    throw missing;
  });
  expect(recovery.backend).toBe('viem');
  const account = privateKeyToAccount(`0x${hex32(987654321n)}`);
  const signature = await account.signMessage({ message: 'fallback' });
  expect(await recovery.recover('fallback', signature)).toBe(account.address);
  await expect(recovery.recover('fallback', `${signature.slice(0, -2)}05` as Hex)).rejects.toThrow('Invalid yParityOrV value');
  const logged: [string, unknown][] = [];
  const logger = { error: (message: string, detail?: unknown) => logged.push([message, detail]) };
  recovery.reportFallback(logger);
  recovery.reportFallback(logger);
  expect(logged).toEqual([
    [
      'the native secp256k1 addon did not load (No native build was found for platform=linux arch=arm64 runtime=node abi=127 uv=1 libc=glibc node=22.23.5): signatures are recovered in JavaScript, several ms each; build it with `npm rebuild secp256k1` (needs python3, make and a C++ compiler)',
      undefined,
    ],
  ]);
  // With the addon, nothing to report.
  const loaded: [string, unknown][] = [];
  createSignerRecovery().reportFallback({ error: (message: string, detail?: unknown) => loaded.push([message, detail]) });
  expect(loaded).toEqual([]);
});
