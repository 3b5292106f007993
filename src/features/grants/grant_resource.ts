// The two shareable resources (docs/decisions.md, 15) and their fields: an identity's profile (one field
// per profile value) and one onchain claim (its off-chain "data"). Reads the private part.
// An address that is no identity of its chain's IdFactory has no resource: 404 identity_not_found,
// told from the profile kept in Redis when there is one, else by the factory (a claim's own
// read tells it for a claim's public part).
import type { Address, Hex } from 'viem';
import { refuse } from '../../base/errors.js';
import type { ClaimsService } from '../../domain/claims/claims_service.js';
import { PROFILE_FIELDS } from '../../domain/fields/fields.js';
import type { IdentityRegistry } from '../../domain/identity/identity_registry.js';
import type { Profile, ProfileStore } from '../../domain/profile/profile.js';
import { identityKeyOf } from '../../infra/chain/identity_key.js';

/** chainId: the identity's chain as records name it (absent: the default chain, named by its bare address; src/infra/chain/chains.ts). */
export type ResourceRef =
  | { kind: 'profile'; identity: Address; chainId?: number; path: string }
  | { kind: 'claim'; identity: Address; chainId?: number; claimId: Hex; path: string };

/** How a path names an identity: a bare address on the default chain, its CAIP-10 id on another. */
const named = identityKeyOf;
const onChain = (chainId?: number) => (chainId === undefined ? {} : { chainId });

/** The one field of a claim resource: the claim's off-chain data. */
export const CLAIM_FIELDS = ['data'];

/** A profile resource; the identity comes checked and checksummed from the path. */
export function profileRef(identity: Address, chainId?: number): ResourceRef {
  return { kind: 'profile', identity, ...onChain(chainId), path: `/identities/${named(identity, chainId)}/profile` };
}

/** A claim resource; the claim id comes checked and lower-cased from the path. */
export function claimRef(identity: Address, claimId: Hex, chainId?: number): ResourceRef {
  return { kind: 'claim', identity, ...onChain(chainId), claimId, path: `/identities/${named(identity, chainId)}/claims/${claimId}` };
}

type ChainResources = { profiles: ProfileStore; claims: ClaimsService; registry: Pick<IdentityRegistry, 'isKnown'> };

const noIdentity = (ref: ResourceRef) => refuse('identity_not_found', `${ref.identity} is not an identity of this chain's IdFactory`);

/** Each chain's profiles and claims, found by the chain a ref names. */
export function createGrantResources(chains: { named(chainId: number | undefined): ChainResources }) {
  const of = (ref: ResourceRef): ChainResources => chains.named(ref.chainId);

  /**
   * The identity's profile, refusing 404 identity_not_found when the address is no identity: a
   * stored profile was saved by the identity's signed-in owner, so Redis alone answers; without
   * one, the factory does (one chain read, kept a while; an outage is 503, never 404).
   */
  const profileOf = async (ref: ResourceRef): Promise<Profile> => {
    const stored = await of(ref).profiles.find(ref.identity);
    if (stored) return stored;
    if (!(await of(ref).registry.isKnown(ref.identity))) throw noIdentity(ref);
    return {};
  };

  const namesOf = (profile: Profile) => PROFILE_FIELDS.filter((field) => profile[field.name] !== undefined).map((field) => field.name);

  /** The fields this resource has now. */
  const fieldsOf = async (ref: ResourceRef): Promise<string[]> => {
    if (ref.kind === 'claim') {
      await of(ref).claims.publicView(ref.identity, ref.claimId);
      return CLAIM_FIELDS;
    }
    return namesOf(await of(ref).profiles.get(ref.identity));
  };

  return {
    fieldsOf,

    /** Refuses 404 identity_not_found when the resource's address is no identity of its chain (as profileOf tells it). */
    async assertIdentity(ref: ResourceRef): Promise<void> {
      await profileOf(ref);
    },

    /** The fields a request asks for: all the resource has, or the named subset of them. */
    async requestedFields(ref: ResourceRef, asked: string[] | undefined): Promise<string[]> {
      const available = await fieldsOf(ref);
      if (asked === undefined) {
        if (available.length === 0) throw refuse('resource_empty', 'this resource has no data to share');
        return available;
      }
      if (asked.length === 0) throw refuse('fields_empty', '"fields" must name at least one field');
      for (const name of asked) {
        if (!available.includes(name)) throw refuse('field_unknown', `"fields" names "${name}", which this resource does not have`);
      }
      return available.filter((name) => asked.includes(name));
    },

    /** A claim as a login's grant shares it: read fresh, with its data where Signet holds it (else its view alone). */
    async claimAsShared(ref: ResourceRef & { kind: 'claim' }) {
      const [view] = await of(ref).claims.shared(ref.identity, [ref.claimId]);
      if (!view) throw refuse('claim_not_found', `identity ${ref.identity} has no claim ${ref.claimId}`);
      return view;
    },

    /** The public part: what exists, never a value; 404 identity_not_found at an address that is no identity. */
    async publicPart(ref: ResourceRef): Promise<Record<string, unknown>> {
      if (ref.kind === 'claim') return { identity: ref.identity, ...(await of(ref).claims.publicView(ref.identity, ref.claimId)) };
      return { identity: ref.identity, fields: namesOf(await profileOf(ref)) };
    },

    /**
     * The private part limited to `fields`, read fresh (profiles change; claims are re-checked).
     * `proof`: a claim's salt and hashed chain too, so its reader can check the onchain hash.
     */
    async privatePart(ref: ResourceRef, fields: readonly string[], options: { proof?: boolean } = {}): Promise<Record<string, unknown>> {
      if (ref.kind === 'claim') return { identity: ref.identity, ...(await of(ref).claims.release(ref.identity, ref.claimId, options)) };
      const profile = (await of(ref).profiles.get(ref.identity)) as Record<string, unknown>;
      const values = Object.fromEntries(fields.filter((name) => profile[name] !== undefined).map((name) => [name, profile[name]]));
      return { identity: ref.identity, fields: Object.keys(values), values };
    },
  };
}

export type GrantResources = ReturnType<typeof createGrantResources>;
