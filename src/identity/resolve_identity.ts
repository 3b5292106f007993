// The identity a wallet acts for: the one given, or the one the IdFactory links to the
// wallet; either way known to the factory and with the wallet holding a linked key on it.
import type { Address } from 'viem';
import { notFound } from '../errors.js';
import type { IdentityRegistry } from './identity_registry.js';

export async function resolveIdentity(registry: IdentityRegistry, wallet: Address, given?: Address): Promise<Address> {
  const identity = given ?? (await registry.identityOf(wallet));
  if (!identity) {
    throw notFound(`wallet ${wallet} has no identity in the IdFactory; send the identity address as "identity"`);
  }
  await registry.assertKnown(identity);
  await registry.assertLinked(identity, wallet);
  return identity;
}
