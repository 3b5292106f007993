// The one way Signet writes and reads a CAIP-10 account id of an EVM chain:
// eip155:<chain id>:<account>, the chain id as text by base/chain_id.ts. A subject, an identity
// in a path or a key, a login_hint and a text's resource are written so.
import { CHAIN_ID_DIGITS, CHAIN_ID_TEXT } from './chain_id.js';

export type Caip10<Account extends string = string> = `eip155:${number}:${Account}`;

/** The part before the account, as a pattern's part: `eip155:` and the chain id, then `:`. */
export const CAIP10_PREFIX = `eip155:${CHAIN_ID_DIGITS}:`;

export function caip10Of<Account extends string>(chainId: number, account: Account): Caip10<Account> {
  return `eip155:${chainId}:${account}`;
}

/** The chain id and account a CAIP-10 id of an EVM chain names, or undefined when the text is not one; the account is not checked. */
export function caip10Parts(text: string): { chainId: number; account: string } | undefined {
  const [namespace, reference, account, extra] = text.split(':');
  if (namespace !== 'eip155' || reference === undefined || !CHAIN_ID_TEXT.test(reference) || !account || extra !== undefined) return undefined;
  return { chainId: Number(reference), account };
}
