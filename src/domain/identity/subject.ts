// The OIDC subject of an identity: its CAIP-10 account id, eip155:<chainId>:<EIP-55 address>.
import { type Address, getAddress, isAddress } from 'viem';

export function subjectOf(chainId: number, identity: Address): string {
  return `eip155:${chainId}:${getAddress(identity)}`;
}

type Subject = { chainId: number; identity: Address };

// Every token names its subject, and a request parses it several times (the account, its read
// ahead, the history): the checksum check is the dear part, so the answers for the subjects
// seen last are kept. Bounded; the answer is the same object each time, frozen.
const PARSED_KEPT = 4096;
const parsed = new Map<string, Readonly<Subject> | null>();

function parseOnce(sub: string): Readonly<Subject> | null {
  const [namespace, reference, account, extra] = sub.split(':');
  if (namespace !== 'eip155' || !reference || !/^[1-9][0-9]{0,15}$/.test(reference) || !account || extra !== undefined || !isAddress(account)) return null;
  return Object.freeze({ chainId: Number(reference), identity: getAddress(account) });
}

/** The chain and identity of a CAIP-10 subject of any EVM chain, or undefined if it is not one. */
export function parseSubject(sub: string): Readonly<Subject> | undefined {
  let answer = parsed.get(sub);
  if (answer === undefined) {
    answer = parseOnce(sub);
    // Only subjects of a sane length are kept: a caller's garbage does not fill the memory.
    if (sub.length <= 80) {
      if (parsed.size >= PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
      parsed.set(sub, answer);
    }
  }
  return answer ?? undefined;
}
