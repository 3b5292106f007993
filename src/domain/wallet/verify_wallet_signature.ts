// Whether `wallet` signed `message` (EOA, EIP-1271, EIP-6492). An EOA's signature is
// recovered locally, with no chain call; the chain is asked only when the signer is not the
// wallet's own key and a contract could still accept it: a 6492 wrapper (a wallet not yet
// deployed) or code at the address (1271). viem answers "false" both when a contract wallet
// refuses and when the chain could not be asked, so a "false" counts only if the chain
// answers right after; otherwise it is a 503.
import { type Address, type Client, createClient, custom, type Hex, isAddressEqual, isErc6492Signature, type PublicClient } from 'viem';
import { verifyMessage } from 'viem/actions';
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

/**
 * The gas an `eth_call` into a wallet's contract may burn (decision 65). The contract is named by
 * whoever sends the signature, so its code is a stranger's: without a cap the node runs it up to
 * the block's gas limit (tens of millions; ~130 ms of a node's time per request). A contract
 * wallet's check (a Safe's owners, a passkey's P-256 verification, an ERC-6492 wallet deployed
 * in the call) takes well under a million; one that does not answer within the cap is answered
 * as a signature the wallet did not accept.
 */
export const WALLET_CHECK_GAS = 2_000_000n;

type CallParams = [Record<string, unknown>, ...unknown[]];

/** The eth_call's own gas, never above the cap. */
function withGasCap(params: CallParams): CallParams {
  const [call, ...rest] = params;
  const asked = typeof call.gas === 'string' ? BigInt(call.gas) : WALLET_CHECK_GAS;
  const gas = asked < WALLET_CHECK_GAS ? asked : WALLET_CHECK_GAS;
  return [{ ...call, gas: `0x${gas.toString(16)}` }, ...rest];
}

const capped = new WeakMap<PublicClient, Client>();

/**
 * The client the wallet's check runs on: the same transport (so the same timeouts and request
 * deadline), with every eth_call it sends capped at WALLET_CHECK_GAS, whichever path of viem's
 * check (ERC-6492, ERC-1271, ERC-8010) sends it.
 */
function cappedClientOf(client: PublicClient): Client {
  let found = capped.get(client);
  if (!found) {
    const request = client.request as (args: { method: string; params?: unknown }) => Promise<unknown>;
    found = createClient({
      chain: client.chain,
      transport: custom(
        {
          request: ({ method, params }) => request({ method, params: method === 'eth_call' ? withGasCap(params as CallParams) : params }),
        },
        { retryCount: 0 },
      ),
    });
    capped.set(client, found);
  }
  return found;
}

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
      valid = await verifyMessage(cappedClientOf(client), { address: wallet, message, signature });
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
