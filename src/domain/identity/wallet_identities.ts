// The identities a wallet has on the chains Signet serves, looked up on every chain at once:
// one IdFactory read per chain, in parallel, all within the request's one chain deadline. A
// chain that does not answer hides only its own identity; when no chain names one and some
// chain did not answer, the outage is the answer (the wallet may have its identity there).
import type { Address } from 'viem';
import { refuse } from '../../base/errors.js';
import type { ChainSet, ServedChain } from '../../infra/chain/chains.js';
import type { IdentityRegistry } from './identity_registry.js';

export type WalletIdentity<C> = { chain: C; identity: Address };

export async function identitiesOfWallet<C extends ServedChain & { registry: IdentityRegistry }>(
  chains: ChainSet<C>,
  wallet: Address,
): Promise<WalletIdentity<C>[]> {
  const answers = await Promise.allSettled(chains.all.map(async (chain) => ({ chain, identity: await chain.registry.identityOf(wallet) })));
  const found = answers.flatMap((answer) => (answer.status === 'fulfilled' && answer.value.identity ? [answer.value as WalletIdentity<C>] : []));
  if (found.length) return found;
  const outage = answers.find((answer) => answer.status === 'rejected');
  if (outage) throw outage.reason;
  throw refuse(
    'wallet_without_identity',
    `wallet ${wallet} has no identity in the IdFactory of any chain; send the identity address as "identity" with its "chain_id"`,
  );
}
