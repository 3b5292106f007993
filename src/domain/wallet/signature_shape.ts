// The one check of a signature's shape, made before any signature is verified (the challenge's,
// a linked wallet's): 0x-prefixed hex of whole bytes, else `signature_malformed`.
import type { Hex } from 'viem';
import { refuse } from '../../base/errors.js';
import { HEX_BYTES_PATTERN } from '../../base/hex_text.js';

export function assertSignatureShape(signature: string): asserts signature is Hex {
  if (!HEX_BYTES_PATTERN.test(signature)) throw refuse('signature_malformed', '"signature" must be 0x-prefixed hex');
}
