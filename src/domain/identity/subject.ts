// The OIDC subject of an identity: its CAIP-10 account id, eip155:<chainId>:<EIP-55 address>.
import { type Address, getAddress, isAddress } from 'viem';

export function subjectOf(chainId: number, identity: Address): string {
  return `eip155:${chainId}:${getAddress(identity)}`;
}

/** The chain and identity of a CAIP-10 subject of any EVM chain, or undefined if it is not one. */
export function parseSubject(sub: string): { chainId: number; identity: Address } | undefined {
  const [namespace, reference, account, extra] = sub.split(':');
  if (namespace !== 'eip155' || !reference || !/^[1-9][0-9]{0,15}$/.test(reference) || !account || extra !== undefined || !isAddress(account)) return undefined;
  return { chainId: Number(reference), identity: getAddress(account) };
}
