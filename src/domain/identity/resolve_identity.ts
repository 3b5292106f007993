// The identity a wallet acts for: the one given, checked as known to the factory and holding
// the wallet's key (one chain round trip), or the one the IdFactory links to the wallet (one
// round trip: the factory knows its own identities). Either way the key is read again, live,
// where it counts: when the signature is checked.
import type { Address } from 'viem';
import { refuse } from '../../base/errors.js';
import type { IdentityRegistry } from './identity_registry.js';

/** A wallet the IdFactory links to no identity: the login names its identity instead. */
export const withoutIdentity = (wallet: Address) =>
  refuse('wallet_without_identity', `wallet ${wallet} has no identity in the IdFactory; send the identity address as "identity"`);

export async function resolveIdentity(registry: IdentityRegistry, wallet: Address, given?: Address): Promise<Address> {
  if (given) {
    await registry.assertKnownAndLinked(given, wallet);
    return given;
  }
  const identity = await registry.identityOf(wallet);
  if (!identity) throw withoutIdentity(wallet);
  return identity;
}
