// The identities a wallet has on the chains Signet serves, looked up on every chain at once:
// one IdFactory read per chain, in parallel, all within the request's one chain deadline. A
// chain that does not answer hides only its own identity; when no chain names one and some
// chain did not answer, the outage is the answer (the wallet may have its identity there).
import type { Address } from 'viem';
import { refuse } from '../../base/errors.js';
import type { Chain, OnChains } from '../../infra/chain/chains.js';
import type { IdentityRegistry } from './identity_registry.js';

export type WalletIdentity = { chain: Chain; identity: Address };

export async function identitiesOfWallet(onChain: OnChains<{ registry: IdentityRegistry }>, wallet: Address): Promise<WalletIdentity[]> {
  const answers = await Promise.allSettled(onChain.all.map(async ({ chain, registry }) => ({ chain, identity: await registry.identityOf(wallet) })));
  const found = answers.flatMap((answer) => (answer.status === 'fulfilled' && answer.value.identity ? [answer.value as WalletIdentity] : []));
  if (found.length) return found;
  const outage = answers.find((answer) => answer.status === 'rejected');
  if (outage) throw outage.reason;
  throw refuse(
    'wallet_without_identity',
    `wallet ${wallet} has no identity in the IdFactory of any chain; send the identity address as "identity" with its "chain_id"`,
  );
}
