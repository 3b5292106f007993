// Whether `wallet` signed `message` (EOA, EIP-1271, EIP-6492), as far as the chain can say.
// viem answers "false" both when a contract wallet refuses and when the chain could not be
// asked, so a "false" counts only if the chain answers right after; otherwise it is a 503.
import type { Address, Hex, PublicClient } from 'viem';
import { readChain } from '../chain/read_chain.js';

export async function verifyWalletSignature(client: PublicClient, wallet: Address, message: string, signature: Hex): Promise<boolean> {
  let valid: boolean;
  try {
    valid = await client.verifyMessage({ address: wallet, message, signature });
  } catch {
    valid = false;
  }
  if (!valid) await readChain('getCode', () => client.getCode({ address: wallet }));
  return valid;
}
