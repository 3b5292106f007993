// Schemas shared by the route table: request fields (checked at the edge) and the plain forms
// of answers (documented in /openapi.json).
import { getAddress } from 'viem';
import { z } from 'zod';
import { CHAIN_ID_RULE } from '../base/chain_id.js';
import { ADDRESS_PATTERN, ADDRESS_RULE, isEthereumAddress } from '../base/ethereum_address.js';
import { BYTES32_ANSWER_PATTERN, BYTES32_PATTERN } from '../base/hex_text.js';

/**
 * An Ethereum address (base/ethereum_address.ts), returned in its EIP-55 form. The pattern is
 * checked too, though the rule holds it, so that /openapi.json states it.
 */
export const addressField = z
  .string({ error: ADDRESS_RULE })
  .regex(ADDRESS_PATTERN, ADDRESS_RULE)
  .refine(isEthereumAddress, ADDRESS_RULE)
  .transform((value) => getAddress(value));

/** The id of a login under way (the engine's interaction uid), in a path or a query. */
export const LOGIN_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** An optional chain id in a request body (base/chain_id.ts, as a number); `description` says what its absence means. */
export const chainIdField = (description: string) => z.number({ error: CHAIN_ID_RULE }).int().positive().optional().meta({ description });

/** In an answer: the chain of the identity a record names, present only when it is not the default chain. */
export const identityChainId = z.number().int().optional().meta({ description: "The identity's chain, when not the first configured one" });

/** Where a page of a list starts: the `next_cursor` of the page before. */
export const pageCursorField = z.string().max(512).optional();

/** A page's size in a query: a whole number from 1 to `max` (read from the query's text), `byDefault` when absent. */
export const pageLimitField = (max: number, byDefault: number) => {
  const rule = `must be an integer from 1 to ${max}`;
  return z.coerce.number({ error: rule }).int(rule).min(1, rule).max(max, rule).default(byDefault);
};

/** A 32-byte id (claim ids, transaction hashes) in any case, returned in lower case. */
export const bytes32Field = (what: string) =>
  z
    .string({ error: `must be ${what}` })
    .regex(BYTES32_PATTERN, `must be ${what}`)
    .transform((value) => value.toLowerCase() as `0x${string}`);

/** A wallet's answer to a challenge: the signature, and the signed text when the wallet has it. */
export const signatureBody = z.object({
  signature: z.string({ error: 'is required' }).min(1, 'is required'),
  message: z.string({ error: 'must be the signed text' }).optional(),
});

// Answer forms.
export const address = z.string().regex(ADDRESS_PATTERN).meta({ description: 'An EIP-55 address' });
export const bytes32 = z.string().regex(BYTES32_ANSWER_PATTERN);
export const dateTime = z.iso.datetime();

/** A wallet's identities, one per chain, for the owner to choose from (a login's, the account pages' sign-in). */
export const walletIdentities = z
  .array(z.object({ chain_id: z.number().int(), chain_name: z.string(), identity: address }))
  .meta({ description: "The wallet's identities, one per chain; ask again with one's chain_id (and identity)" });
