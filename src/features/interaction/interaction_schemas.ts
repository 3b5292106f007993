// The request and answer forms of the login's consent interaction, for the route table and
// /openapi.json.
import { z } from 'zod';
import { claimView } from '../../domain/claims/claim_schemas.js';
import { DATA_STATUS_NAMES } from '../../domain/claims/data_status.js';
import { address, addressField, bytes32, chainIdField, dateTime, LOGIN_ID_PATTERN, signatureBody, walletIdentities } from '../../http/schemas.js';

export const interactionPath = z.object({
  uid: z.string().regex(LOGIN_ID_PATTERN, 'must be the id of a login').meta({ description: 'The id of the login under way' }),
});

export const challengeBody = z.object({
  address: addressField.meta({ description: 'The wallet that will sign' }),
  identity: addressField.optional().meta({ description: 'The identity to sign in with (default: the one the IdFactory links to the wallet)' }),
  chain_id: chainIdField(
    "The identity's chain (default: with `identity`, the first configured chain; without it, the wallet is looked up on every chain, and several identities are answered as a choice)",
  ),
  fields: z
    .array(z.string({ error: 'must list field names' }), { error: 'must be a list of field names' })
    .optional()
    .meta({ description: 'The requested fields the owner keeps (default: all; required ones must stay)' }),
  claims: z
    .array(z.string({ error: 'must list claim ids' }), { error: 'must be a list of claim ids' })
    .optional()
    .meta({ description: 'The claims shared under the kept claim topics (default: every valid one)' }),
  verified: z
    .array(
      z.object({
        claim_id: z.string({ error: 'must be a claim id' }),
        claims: z.array(z.string({ error: 'must list verified claim names' }), { error: 'must be a list of verified claim names' }),
      }),
      { error: 'must be a list of { claim_id, claims }' },
    )
    .optional()
    .meta({ description: 'The verified claims shared, claim by claim, among those offered (default: every one offered)' }),
});

export type ChallengeBody = z.infer<typeof challengeBody>;

/** Why the website says it asks: shown as given (the drafts of OpenID Connect for Identity Assurance). */
const purpose = z.string().meta({ description: 'Why the website says it asks, as it wrote it (3 to 300 characters)' });

/** A client's logo: the id of the client whose consent page shows it. */
export const clientLogoPath = z.object({
  clientId: z.string().min(1).max(128).meta({ description: 'The client whose logo the consent page shows' }),
});

export const consentView = z
  .object({
    uid: z.string(),
    client: z.object({
      client_id: z.string(),
      name: z.string(),
      /** Where the answer of this login goes: the host of its redirect URI. */
      redirect_host: z.string(),
      /** Added while Signet runs (dynamic registration, the admin API), not listed by the operator in CLIENTS. */
      registered_at_run_time: z.boolean(),
      /** Its names by language (client_name#fr…), when it gave them. */
      names: z.record(z.string(), z.string()),
      /** Its home page, privacy policy and terms: https URLs on its redirect URIs' hosts only. */
      links: z.object({ client_uri: z.string().optional(), policy_uri: z.string().optional(), tos_uri: z.string().optional() }),
    }),
    purpose: purpose.optional(),
    fields: z.array(
      z.object({
        name: z.string().meta({ description: 'A profile field, claim:<topic>, or verified:<claim> for a claim an issuer verified' }),
        scope: z.string(),
        required: z.boolean(),
        description: z.string(),
        purpose: purpose.optional(),
      }),
    ),
  })
  .meta({ id: 'ConsentRequest' });

/** A claim holding verified data the owner may share, with the verified fields it offers. */
const offeredVerified = z
  .object({
    claim_id: bytes32,
    topic_name: z.string().nullable(),
    issuer: address,
    issuer_name: z.string().nullable().meta({ description: "The issuer's display name, if it has one" }),
    trust_framework: z.string(),
    trust_framework_name: z.string().meta({ description: 'The trust framework in words' }),
    claims: z.array(
      z.object({
        name: z.string().meta({ description: 'The claim inside verified_claims (birthdate)' }),
        field: z.string().meta({ description: 'Its field (verified:birthdate)' }),
        label: z.string(),
        required: z.boolean(),
        kept: z.boolean().meta({ description: 'Shared if the owner signs' }),
      }),
    ),
  })
  .meta({ id: 'OfferedVerifiedClaim' });

/** The claims the consent page lists (the identity is the answer's own). */
const offeredClaim = claimView.omit({ identity: true }).extend({ kept: z.boolean().meta({ description: 'Shared if the owner signs' }) });

/** A kept claim whose data another Information Provider holds: who, what is fetched, whether the wallet signs there too. */
const heldElsewhere = z
  .object({
    claim_id: bytes32,
    provider: z.string().meta({ description: "The provider's name (INFORMATION_PROVIDERS)" }),
    fetched: z.array(z.string()).meta({ description: "What Signet fetches there on your behalf: the claim's data" }),
    second_signature: z.boolean().meta({ description: "Whether the wallet signs the provider's challenge too (the first time only)" }),
  })
  .meta({ id: 'HeldElsewhere' });

export const loginChallenge = z
  .object({
    identity: address,
    chain_id: z.number().int().meta({ description: "The identity's chain, named in the text (`Chain ID`)" }),
    chain_name: z.string().meta({ description: 'The chain in words' }),
    fields: z.array(z.string()).meta({ description: 'The fields the owner shares by signing' }),
    claims: z.array(offeredClaim),
    verified: z.array(offeredVerified).meta({ description: 'The claims holding verified data for the kept verified fields' }),
    held_elsewhere: z
      .array(heldElsewhere)
      .optional()
      .meta({ description: 'The kept claims whose data another Information Provider holds (present when there are some)' }),
    challenge: z.string().meta({ description: 'The EIP-4361 text to sign' }),
    expires_at: dateTime,
  })
  .meta({ id: 'LoginChallenge' });

const dataStatus = z.enum(DATA_STATUS_NAMES);

/** The providers' challenges of a login, each for the wallet to sign after Signet's own text. */
export const providerChallenges = z
  .object({
    challenges: z.array(
      z.object({
        claim_id: bytes32,
        challenge: z.string().optional().meta({ description: "The provider's EIP-191 text for the owner to sign" }),
        data_status: dataStatus.optional().meta({ description: 'Why the provider gave no challenge: the claim is shared without its data' }),
      }),
    ),
  })
  .meta({ id: 'ProviderChallenges' });

/** The wallet's signature of Signet's text, and of each provider's challenge. */
export const loginSignatureBody = signatureBody.extend({
  provider_signatures: z
    .array(z.object({ claim_id: z.string({ error: 'must be a claim id' }).max(66), signature: z.string({ error: 'is required' }).min(1).max(1024) }), {
      error: 'must be a list of { claim_id, signature }',
    })
    .max(16)
    .optional()
    .meta({ description: "The owner's signatures of the providers' challenges (POST /interaction/{uid}/provider-challenges)" }),
});

/** The wallet has identities on several chains: the owner chooses one, and asks again with its chain_id. */
export const identityChoice = z
  .object({
    choose: walletIdentities,
  })
  .meta({ id: 'LoginIdentityChoice' });

export const loginRedirect = z
  .object({ redirect_to: z.string().meta({ description: 'Where the browser goes next: back through the engine to the website' }) })
  .meta({ id: 'LoginRedirect' });
