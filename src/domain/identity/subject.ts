// The OIDC subject of an identity: its CAIP-10 account id, eip155:<chainId>:<EIP-55 address>.
import { type Address, getAddress } from 'viem';
import { isEthereumAddress } from '../../base/ethereum_address.js';
import { keptAnswers } from '../../base/kept_answers.js';

export function subjectOf(chainId: number, identity: Address): string {
  return `eip155:${chainId}:${getAddress(identity)}`;
}

type Subject = { chainId: number; identity: Address };

function parseOnce(sub: string): Readonly<Subject> | undefined {
  const [namespace, reference, account, extra] = sub.split(':');
  if (namespace !== 'eip155' || !reference || !/^[1-9][0-9]{0,15}$/.test(reference) || !account || extra !== undefined || !isEthereumAddress(account))
    return undefined;
  return Object.freeze({ chainId: Number(reference), identity: getAddress(account) });
}

/**
 * The chain and identity of a CAIP-10 subject of any EVM chain, or undefined if it is not one.
 * Every token names its subject and a request parses it several times (the account, its read
 * ahead, the history), the checksum check being the dear part: the answers for the subjects seen
 * last are kept, those of a sane length only (a caller's garbage does not fill the memory).
 */
export const parseSubject: (sub: string) => Readonly<Subject> | undefined = keptAnswers(4096, parseOnce, { keepIf: (sub) => sub.length <= 80 });
