// Schemas shared by the JSON routes' request bodies.
import { getAddress, isAddress } from 'viem';
import { z } from 'zod';

/** An Ethereum address in any case, returned in its EIP-55 form. */
export const addressField = z
  .string({ error: 'must be a 0x-prefixed 20-byte address' })
  .refine((value) => isAddress(value), 'must be a 0x-prefixed 20-byte address')
  .transform((value) => getAddress(value));

/** A wallet's answer to a challenge: the signature, and the signed text when the wallet has it. */
export const signatureBody = z.object({
  signature: z.string({ error: 'is required' }).min(1, 'is required'),
  message: z.string({ error: 'must be the signed text' }).optional(),
});
