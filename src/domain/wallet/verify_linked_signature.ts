// Checks a signature over a plain (EIP-191) text and that its signer is a wallet linked to
// the identity. A contract wallet (EIP-1271, EIP-6492) names itself with `address`; without
// it the signer is recovered (EOAs).
import type { Address, PublicClient } from 'viem';
import { refuse } from '../../base/errors.js';
import type { Reason } from '../../base/reasons.js';
import type { IdentityRegistry } from '../identity/identity_registry.js';
import { recoverMessageSigner } from './recover_message_signer.js';
import { assertSignatureShape } from './signature_shape.js';
import { verifyWalletSignature } from './verify_wallet_signature.js';

/** What checking a signature by a wallet linked to the identity can refuse with. */
export const LINKED_SIGNATURE_REFUSALS: Reason[] = ['signature_malformed', 'signature_invalid', 'wallet_not_linked', 'identity_not_found', 'chain_unavailable'];

export function createLinkedSignatureVerifier(client: PublicClient, registry: IdentityRegistry) {
  return async function verifyLinkedSignature(identity: Address, message: string, signature: string, address?: Address): Promise<Address> {
    assertSignatureShape(signature);
    let signer: Address;
    if (address) {
      const valid = await verifyWalletSignature(client, address, message, signature);
      if (!valid) throw refuse('signature_invalid', `the signature was not made by wallet ${address} over the challenge`);
      signer = address;
    } else {
      signer = await recoverMessageSigner(message, signature).catch((error) => {
        throw refuse('signature_invalid', 'the signature could not be read', { cause: error });
      });
    }
    await registry.assertLinked(identity, signer);
    return signer;
  };
}

export type VerifyLinkedSignature = ReturnType<typeof createLinkedSignatureVerifier>;
