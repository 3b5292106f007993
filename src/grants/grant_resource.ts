// The two shareable resources of DESIGN §3 and their fields: an identity's profile (one field
// per profile value) and one onchain claim (its off-chain "data"). Reads the private part.
import { type Address, getAddress, type Hex, isAddress } from 'viem';
import type { ClaimsService } from '../claims/claims_service.js';
import { invalidRequest, notFound } from '../errors.js';
import { PROFILE_FIELDS } from '../oidc/fields.js';
import type { ProfileStore } from '../profile/profile.js';

export type ResourceRef =
  | { kind: 'profile'; identity: Address; path: string }
  | { kind: 'claim'; identity: Address; claimId: Hex; path: string };

const PROFILE_NAMES = PROFILE_FIELDS.map((field) => field.name);
/** The one field of a claim resource: the claim's off-chain data. */
export const CLAIM_FIELDS = ['data'];

export function profileRef(identity: string): ResourceRef {
  if (!isAddress(identity)) throw invalidRequest('the identity in the path must be a 0x-prefixed 20-byte address');
  const address = getAddress(identity);
  return { kind: 'profile', identity: address, path: `/identities/${address}/profile` };
}

export function claimRef(identity: string, claimId: string): ResourceRef {
  if (!isAddress(identity)) throw invalidRequest('the identity in the path must be a 0x-prefixed 20-byte address');
  if (!/^0x[0-9a-fA-F]{64}$/.test(claimId)) throw invalidRequest('the claim id in the path must be a 0x-prefixed 32-byte hex value');
  const address = getAddress(identity);
  const id = claimId.toLowerCase() as Hex;
  return { kind: 'claim', identity: address, claimId: id, path: `/identities/${address}/claims/${id}` };
}

export function createGrantResources(deps: { profiles: ProfileStore; claims: ClaimsService }) {
  /** The fields this resource has now. */
  const fieldsOf = async (ref: ResourceRef): Promise<string[]> => {
    if (ref.kind === 'claim') {
      await deps.claims.publicView(ref.identity, ref.claimId);
      return CLAIM_FIELDS;
    }
    const profile = await deps.profiles.get(ref.identity);
    return PROFILE_NAMES.filter((name) => profile[name as keyof typeof profile] !== undefined);
  };

  return {
    fieldsOf,

    /** The fields a request asks for: all the resource has, or the named subset of them. */
    async requestedFields(ref: ResourceRef, asked: string[] | undefined): Promise<string[]> {
      const available = await fieldsOf(ref);
      if (asked === undefined) {
        if (available.length === 0) throw notFound('this resource has no data to share');
        return available;
      }
      if (asked.length === 0) throw invalidRequest('"fields" must name at least one field');
      for (const name of asked) {
        if (!available.includes(name)) throw invalidRequest(`"fields" names "${name}", which this resource does not have`);
      }
      return available.filter((name) => asked.includes(name));
    },

    /** The public part: what exists, never a value. */
    async publicPart(ref: ResourceRef): Promise<Record<string, unknown>> {
      if (ref.kind === 'claim') return { identity: ref.identity, ...(await deps.claims.publicView(ref.identity, ref.claimId)) };
      return { identity: ref.identity, fields: await fieldsOf(ref) };
    },

    /** The private part limited to `fields`, read fresh (profiles change; claims are re-checked). */
    async privatePart(ref: ResourceRef, fields: readonly string[]): Promise<Record<string, unknown>> {
      if (ref.kind === 'claim') return { identity: ref.identity, ...(await deps.claims.release(ref.identity, ref.claimId)) };
      const profile = (await deps.profiles.get(ref.identity)) as Record<string, unknown>;
      const values = Object.fromEntries(fields.filter((name) => profile[name] !== undefined).map((name) => [name, profile[name]]));
      return { identity: ref.identity, fields: Object.keys(values), values };
    },
  };
}

export type GrantResources = ReturnType<typeof createGrantResources>;
