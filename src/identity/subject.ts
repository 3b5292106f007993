// The OIDC subject of an identity: its CAIP-10 account id, eip155:<chainId>:<EIP-55 address>.
import { type Address, getAddress, isAddress } from 'viem';

export function subjectOf(chainId: number, identity: Address): string {
  return `eip155:${chainId}:${getAddress(identity)}`;
}

/** The identity address of a subject of this chain, or undefined if it is not one. */
export function identityOfSubject(chainId: number, sub: string): Address | undefined {
  const [namespace, reference, account] = sub.split(':');
  if (namespace !== 'eip155' || reference !== String(chainId) || !account || !isAddress(account)) return undefined;
  return getAddress(account);
}
