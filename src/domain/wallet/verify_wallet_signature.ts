// Whether `wallet` signed `message` (EOA, EIP-1271, EIP-6492). An EOA's signature is
// recovered locally, with no chain call; the chain is asked only when the signer is not the
// wallet's own key and a contract could still accept it: a 6492 wrapper (a wallet not yet
// deployed) or code at the address (1271). viem answers "false" both when a contract wallet
// refuses and when the chain could not be asked, so a "false" counts only if the chain
// answers right after; otherwise it is a 503.
import { type Address, type Hex, isAddressEqual, isErc6492Signature, type PublicClient } from 'viem';
import { readChain } from '../../infra/chain/read_chain.js';
import { recoverMessageSigner } from './recover_message_signer.js';

/**
 * The EOA key behind an ECDSA signature; a signature that is not one recovers nothing. Local
 * computation only (no Redis, no chain), so the catch hides no outage; the chain read that may
 * follow keeps its 503.
 */
const recoveredSigner = (message: string, signature: Hex): Promise<Address | undefined> => recoverMessageSigner(message, signature).catch(() => undefined);

/**
 * What can be told before the signature's own chain call: `true` (the wallet's own key),
 * `false` (another key, and no contract at the address to accept it), or the contract's answer,
 * still to be asked, so that the caller can send its own reads beside it.
 */
export type SignatureCheck = boolean | (() => Promise<boolean>);

export async function checkWalletSignature(client: PublicClient, wallet: Address, message: string, signature: Hex): Promise<SignatureCheck> {
  if (!isErc6492Signature(signature)) {
    const signer = await recoveredSigner(message, signature);
    if (signer && isAddressEqual(signer, wallet)) return true;
    // Not the wallet's key: only a contract at the address could still accept the signature.
    const code = await readChain('getCode', () => client.getCode({ address: wallet }));
    if (!code || code === '0x') return false;
  }
  return async () => {
    let valid: boolean;
    try {
      valid = await client.verifyMessage({ address: wallet, message, signature });
    } catch {
      valid = false;
    }
    if (!valid) await readChain('getCode', () => client.getCode({ address: wallet }));
    return valid;
  };
}

export async function verifyWalletSignature(client: PublicClient, wallet: Address, message: string, signature: Hex): Promise<boolean> {
  const check = await checkWalletSignature(client, wallet, message, signature);
  return typeof check === 'boolean' ? check : check();
}
