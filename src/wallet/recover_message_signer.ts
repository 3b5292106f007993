// The EOA key behind an EIP-191 signature, recovered with libsecp256k1 (the `secp256k1`
// package's native addon, tens of microseconds) instead of JavaScript (viem over
// @noble/curves, milliseconds: a login's largest single cost). Same answers as viem's
// recoverMessageAddress, proven by test/property/recover_message_signer.test.ts: the text is
// hashed by viem, v is read as viem reads it (0/1/27/28, anything else refused), a high-s
// signature recovers the same key, and a signature that is not 65 bytes of hex is left to
// viem itself. If the addon cannot load, viem recovers (reportRecoveryFallback logs it).
import { createRequire } from 'node:module';
import { type Address, bytesToHex, type Hex, hashMessage, hexToBytes, recoverMessageAddress } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';

/** The one call of the addon's API that Signet uses. */
type NativeSecp256k1 = {
  ecdsaRecover(signature: Uint8Array, recoveryId: number, digest: Uint8Array, compressed: boolean): Uint8Array;
};

type Backend = { native: NativeSecp256k1; loadError?: undefined } | { native?: undefined; loadError: unknown };

function loadNative(): Backend {
  try {
    // `secp256k1/bindings` is the addon alone: the package's main entry would silently fall
    // back to a JavaScript implementation of its own.
    return { native: createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1 };
  } catch (error) {
    return { loadError: error };
  }
}

const backend = loadNative();

/** What recovers signatures in this process: 'libsecp256k1' or, if the addon did not load, 'viem'. */
export const signatureRecoveryBackend: 'libsecp256k1' | 'viem' = backend.native ? 'libsecp256k1' : 'viem';

let fallbackReported = false;

/** Logs once per process that the addon did not load (logins work, at several ms of CPU more each). */
export function reportRecoveryFallback(logger: { error(message: string, detail?: unknown): void }): void {
  if (backend.native || fallbackReported) return;
  fallbackReported = true;
  logger.error('the native secp256k1 addon did not load: signatures are recovered in JavaScript, several ms each', backend.loadError);
}

/** viem's reading of the last byte (toRecoveryBit in recoverPublicKey). */
function recoveryBit(v: number): 0 | 1 {
  if (v === 0 || v === 27) return 0;
  if (v === 1 || v === 28) return 1;
  throw new Error('Invalid yParityOrV value');
}

const RSV_HEX = /^0x[0-9a-fA-F]{130}$/;

/**
 * The address whose key made `signature` over `message` (EIP-191), checksummed; rejects
 * when the signature recovers no key, as viem's recoverMessageAddress does.
 */
export async function recoverMessageSigner(message: string, signature: Hex): Promise<Address> {
  // Any other shape (a wrong length, odd hex) is viem's to refuse, exactly as before.
  if (!backend.native || !RSV_HEX.test(signature)) return recoverMessageAddress({ message, signature });
  const bytes = hexToBytes(signature);
  const publicKey = backend.native.ecdsaRecover(bytes.subarray(0, 64), recoveryBit(bytes[64]!), hashMessage(message, 'bytes'), false);
  return publicKeyToAddress(bytesToHex(publicKey));
}
