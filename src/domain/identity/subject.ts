// The OIDC subject of an identity: its CAIP-10 account id, eip155:<chainId>:<EIP-55 address>.
import { type Address, getAddress } from 'viem';
import { caip10Of, caip10Parts } from '../../base/caip10.js';
import { isEthereumAddress } from '../../base/ethereum_address.js';
import { keptAnswers } from '../../base/kept_answers.js';

export function subjectOf(chainId: number, identity: Address): string {
  return caip10Of(chainId, getAddress(identity));
}

type Subject = { chainId: number; identity: Address };

function parseOnce(sub: string): Readonly<Subject> | undefined {
  const parts = caip10Parts(sub);
  if (!parts || !isEthereumAddress(parts.account)) return undefined;
  return Object.freeze({ chainId: parts.chainId, identity: getAddress(parts.account) });
}

/**
 * The chain and identity of a CAIP-10 subject of any EVM chain, or undefined if it is not one.
 * Every token names its subject and a request parses it several times (the account, its read
 * ahead, the history), the checksum check being the dear part: the answers for the subjects seen
 * last are kept, those of a sane length only (a caller's garbage does not fill the memory).
 */
export const parseSubject: (sub: string) => Readonly<Subject> | undefined = keptAnswers(4096, parseOnce, { keepIf: (sub) => sub.length <= 80 });
