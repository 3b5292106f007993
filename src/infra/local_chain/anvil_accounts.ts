// anvil's well-known development accounts (from its public test mnemonic). They hold no
// value anywhere; never use them outside a local chain.
import type { Hex } from 'viem';

/** Account #0: deploys the contracts and owns the IdFactory. */
export const DEPLOYER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
/** Account #1: the demo identity owner (its wallet holds the identity's MANAGEMENT key). */
export const DEMO_OWNER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
