// Which identity on which chain a wallet means, for a login and an account sign-in alike: the
// chain named; with an identity and no chain, the default chain (what a bare address means); with
// neither and several chains, the wallet looked up on every chain at once, several found
// answered as a choice. Each answer costs the chain round trips its building blocks say
// (resolve_identity.ts, wallet_identities.ts); none is added here.
import type { Address } from 'viem';
import { SignetError } from '../../base/errors.js';
import type { ChainSet, ServedChain } from '../../infra/chain/chains.js';
import type { ClaimsService } from '../claims/claims_service.js';
import { type IdentityRegistry, notAnIdentity, notLinked, notRegistered } from './identity_registry.js';
import { resolveIdentity, withoutIdentity } from './resolve_identity.js';
import { identitiesOfWallet } from './wallet_identities.js';

/** What a login or a sign-in names: the wallet that signs, and maybe its identity and that identity's chain. */
export type IdentityNamed = { address: Address; identity?: Address | undefined; chain_id?: number | undefined };

export type MeantIdentity<C> = { on: C; identity: Address };
/** Identities of the wallet on several chains, none named: the owner picks one. */
export type IdentityChoice<T> = { choose: MeantIdentity<T>[] };

/** Neither a chain nor an identity named, and several chains served: the wallet is looked up on all. */
const onEveryChain = (onChain: ChainSet<ServedChain>, named: IdentityNamed) => named.chain_id === undefined && !named.identity && onChain.several;

async function oneOrChoice<T extends ServedChain & { registry: IdentityRegistry }>(
  onChain: ChainSet<T>,
  wallet: Address,
): Promise<MeantIdentity<T> | IdentityChoice<T>> {
  const found = (await identitiesOfWallet(onChain, wallet)).map(({ chain, identity }) => ({ on: chain, identity }));
  return found.length === 1 ? found[0]! : { choose: found };
}

/** The identity a login means and its chain; a wallet with no identity is refused (wallet_without_identity). */
export async function loginIdentity<T extends ServedChain & { registry: IdentityRegistry }>(
  onChain: ChainSet<T>,
  named: IdentityNamed,
): Promise<MeantIdentity<T> | IdentityChoice<T>> {
  if (onEveryChain(onChain, named)) return oneOrChoice(onChain, named.address);
  const on = onChain.named(named.chain_id);
  return { on, identity: await resolveIdentity(on.registry, named.address, named.identity) };
}

/**
 * The identity an account sign-in means, as at login, except that a wallet with no identity
 * signs in to create one (identity null): on the chain named, else on the default chain.
 */
export async function signInIdentity<T extends ServedChain & { registry: IdentityRegistry }>(
  onChain: ChainSet<T>,
  named: IdentityNamed,
): Promise<{ on: T; identity: Address | null } | IdentityChoice<T>> {
  if (!onEveryChain(onChain, named)) {
    const on = onChain.named(named.chain_id);
    // No identity named: one read, and none found is an identity to create there.
    if (!named.identity) return { on, identity: (await on.registry.identityOf(named.address)) ?? null };
    return { on, identity: await resolveIdentity(on.registry, named.address, named.identity) };
  }
  try {
    return await oneOrChoice(onChain, named.address);
  } catch (error) {
    if (error instanceof SignetError && error.reason === 'wallet_without_identity') return { on: onChain.named(undefined), identity: null };
    throw error;
  }
}

type ClaimsOf = Pick<ClaimsService, 'listForLinked' | 'listForWallet'>;
export type IdentityWithClaims<T> = MeantIdentity<T> & { claims: Awaited<ReturnType<ClaimsService['listForWallet']>>['claims'] };

/**
 * With claim topics, the identity a login means and its claims of those topics in one chain
 * round trip: the wallet's identity read from the IdFactory, or the identity given checked as
 * known and linked (live), in the same eth_call as the claims. Undefined where the wallet is
 * looked up on every chain (loginIdentity answers that).
 */
export async function loginIdentityWithClaims<T extends ServedChain & { claims: ClaimsOf; settings: { identity_factory: Address } }>(
  onChain: ChainSet<T>,
  named: IdentityNamed,
  topics: number[],
): Promise<IdentityWithClaims<T> | undefined> {
  if (onEveryChain(onChain, named)) return undefined;
  const on = onChain.named(named.chain_id);
  const factory = on.settings.identity_factory;
  if (named.identity) {
    const { known, linked, claims } = await on.claims.listForLinked(factory, named.identity, named.address, topics);
    if (!known) throw notRegistered(named.identity, factory);
    if (linked === 'not_an_identity') throw notAnIdentity(named.identity, undefined);
    if (linked === 'not_linked') throw notLinked(named.identity, named.address);
    return { on, identity: named.identity, claims };
  }
  const { identity, claims } = await on.claims.listForWallet(factory, named.address, topics);
  if (!identity) throw withoutIdentity(named.address);
  return { on, identity, claims };
}
