// Schemas shared by the route table: request fields (checked at the edge) and the plain forms
// of answers (documented in /openapi.json).
import { getAddress, isAddress } from 'viem';
import { z } from 'zod';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ADDRESS_MESSAGE = 'must be a 0x-prefixed 20-byte address';

/** An Ethereum address in any case, returned in its EIP-55 form. */
export const addressField = z
  .string({ error: ADDRESS_MESSAGE })
  .regex(ADDRESS, ADDRESS_MESSAGE)
  .refine((value) => isAddress(value), ADDRESS_MESSAGE)
  .transform((value) => getAddress(value));

/** An optional chain id in a request body; `description` says what its absence means. */
export const chainIdField = (description: string) =>
  z
    .number({ error: 'must be a chain id (a positive integer)' })
    .int({ error: 'must be a chain id (a positive integer)' })
    .positive({ error: 'must be a chain id (a positive integer)' })
    .optional()
    .meta({ description });

/** In an answer: the chain of the identity a record names, present only when it is not the default chain. */
export const identityChainId = z.number().int().optional().meta({ description: "The identity's chain, when not the first configured one" });

/** A 32-byte id (claim ids, transaction hashes) in any case, returned in lower case. */
export const bytes32Field = (what: string) =>
  z
    .string({ error: `must be ${what}` })
    .regex(/^0x[0-9a-fA-F]{64}$/, `must be ${what}`)
    .transform((value) => value.toLowerCase() as `0x${string}`);

/** A wallet's answer to a challenge: the signature, and the signed text when the wallet has it. */
export const signatureBody = z.object({
  signature: z.string({ error: 'is required' }).min(1, 'is required'),
  message: z.string({ error: 'must be the signed text' }).optional(),
});

// Answer forms.
export const address = z.string().regex(ADDRESS).meta({ description: 'An EIP-55 address' });
export const bytes32 = z.string().regex(/^0x[0-9a-f]{64}$/);
export const dateTime = z.iso.datetime();
