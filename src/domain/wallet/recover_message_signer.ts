// The EOA key behind an EIP-191 signature, recovered with libsecp256k1 (the `secp256k1`
// package's native addon) instead of JavaScript (viem over @noble/curves, several ms: once a
// login's largest single cost; about a tenth of that natively, hash included). Same answers as viem's
// recoverMessageAddress, proven by test/property/recover_message_signer.test.ts: the text is
// hashed by viem, v is read as viem reads it (0/1/27/28, anything else refused), a high-s
// signature recovers the same key, and a signature that is not 65 bytes of hex is left to
// viem itself. If the addon cannot load, viem recovers (reportRecoveryFallback logs it).
import { createRequire } from 'node:module';
import { type Address, bytesToHex, type Hex, hashMessage, hexToBytes, recoverMessageAddress } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';
import type { Logger } from '../../infra/observability/logger.js';

/** The one call of the addon's API that Signet uses. */
type NativeSecp256k1 = {
  ecdsaRecover(signature: Uint8Array, recoveryId: number, digest: Uint8Array, compressed: boolean): Uint8Array;
};

/** Loads the addon; throws if it cannot (not installed, not built for this platform). */
export type LoadNative = () => NativeSecp256k1;

// `secp256k1/bindings` is the addon alone: the package's main entry would silently fall back
// to a JavaScript implementation of its own.
const loadAddon: LoadNative = () => createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1;

/** viem's reading of the last byte (toRecoveryBit in recoverPublicKey). */
function recoveryBit(v: number): 0 | 1 {
  if (v === 0 || v === 27) return 0;
  if (v === 1 || v === 28) return 1;
  throw new Error('Invalid yParityOrV value');
}

const RSV_HEX = /^0x[0-9a-fA-F]{130}$/;

export type SignerRecovery = {
  /** What recovers: 'libsecp256k1' or, if the addon did not load, 'viem'. */
  backend: 'libsecp256k1' | 'viem';
  /**
   * The address whose key made `signature` over `message` (EIP-191), checksummed; rejects
   * when the signature recovers no key, as viem's recoverMessageAddress does.
   */
  recover(message: string, signature: Hex): Promise<Address>;
  /** Logs once, in one line, that the addon did not load (logins work, at several ms of CPU more each). */
  reportFallback(logger: Pick<Logger, 'error'>): void;
};

/**
 * The one line an operator reads when the addon did not load: why, what it costs, how to mend it
 * (no stack: the cause is the loader's first line, such as "No native build was found for
 * platform=linux arch=arm64").
 */
export function fallbackLine(cause: unknown): string {
  const why = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0]!.trim();
  return `the native secp256k1 addon did not load (${why}): signatures are recovered in JavaScript, several ms each; build it with \`npm rebuild secp256k1\` (needs python3, make and a C++ compiler)`;
}

export function createSignerRecovery(load: LoadNative = loadAddon): SignerRecovery {
  let native: NativeSecp256k1 | undefined;
  let loadError: unknown;
  try {
    native = load();
  } catch (error) {
    loadError = error;
  }
  let reported = false;
  return {
    backend: native ? 'libsecp256k1' : 'viem',
    async recover(message, signature) {
      // Any other shape (a wrong length, odd hex) is viem's to refuse, exactly as before.
      if (!native || !RSV_HEX.test(signature)) return recoverMessageAddress({ message, signature });
      const bytes = hexToBytes(signature);
      const publicKey = native.ecdsaRecover(bytes.subarray(0, 64), recoveryBit(bytes[64]!), hashMessage(message, 'bytes'), false);
      return publicKeyToAddress(bytesToHex(publicKey));
    },
    reportFallback(logger) {
      if (native || reported) return;
      reported = true;
      logger.error(fallbackLine(loadError));
    },
  };
}

/** This process's recovery, loaded once. */
const processRecovery = createSignerRecovery();

export const signatureRecoveryBackend = processRecovery.backend;
export const recoverMessageSigner = processRecovery.recover;
export const reportRecoveryFallback = processRecovery.reportFallback;
