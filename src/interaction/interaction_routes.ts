// The login interaction (docs/decisions.md, 17) as route declarations: one consent page and its JSON twin.
// The owner picks the fields to share, gets the exact EIP-4361 text naming them, signs it with
// a linked wallet, and Signet turns that signature into the engine's login and consent results.
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import type { ClaimsService } from '../claims/claims_service.js';
import type { ClaimTopics } from '../claims/claim_topics.js';
import type { DisplayNames } from '../claims/display_names.js';
import { refuse } from '../errors.js';
import type { RenderPage } from '../http/pages.js';
import { type AnyRoute, route } from '../http/route.js';
import { signatureBody } from '../http/schemas.js';
import { type IdentityRegistry, LINK_REFUSALS } from '../identity/identity_registry.js';
import { resolveIdentity } from '../identity/resolve_identity.js';
import { allFields, type RequestedField, requestedFields } from '../fields/fields.js';
import type { IssueChallenge, IssuedChallenge } from '../wallet/challenge.js';
import { type BeforeUse, CHALLENGE_REFUSALS, type SignedChallenge } from '../wallet/verify_challenge.js';
import { loginResources, loginStatement } from './challenge_text.js';
import type { CompleteConsent } from '../consent/complete_consent.js';
import { keptClaims, keptFields } from './consent_selection.js';
import { finishInteraction } from './finish_interaction.js';
import { interactionCookie } from './interaction_cookie.js';
import * as forms from './interaction_schemas.js';

export type InteractionRoutesDeps = {
  provider: Provider;
  issuer: string;
  chainId: number;
  registry: IdentityRegistry;
  topics: ClaimTopics;
  claims: ClaimsService;
  issueChallenge: IssueChallenge;
  verifyChallenge: (signed: SignedChallenge, beforeUse?: BeforeUse) => Promise<IssuedChallenge>;
  completeConsent: CompleteConsent;
  renderPage: RenderPage;
  demoWallet: boolean;
  /** Issuer and topic names the page shows instead of addresses and codes. */
  names: DisplayNames;
};

const TAG = 'Login';

/** What a login's challenges and its rate limit are bound to. */
const binding = (uid: string) => `interaction:${uid}`;

export function interactionRoutes(deps: InteractionRoutesDeps): AnyRoute[] {
  const { provider } = deps;
  const known = allFields(deps.topics);
  const auth = interactionCookie(provider);

  const requestedOf = (details: Interaction): RequestedField[] => {
    let claims: unknown;
    const raw = details.params.claims;
    if (typeof raw === 'string') {
      try {
        claims = JSON.parse(raw);
      } catch {
        claims = undefined;
      }
    }
    return requestedFields(known, String(details.params.scope ?? ''), claims);
  };

  const clientOf = async (details: Interaction) => {
    const client = await provider.Client.find(String(details.params.client_id));
    if (!client) throw refuse('login_client_unknown', 'the website of this login is no longer registered');
    return client;
  };

  return [
    route({
      method: 'get',
      path: '/interaction/{uid}',
      summary: 'The consent request of a login: the website and the fields it asks for (the consent page to browsers)',
      tag: TAG,
      auth,
      params: forms.interactionPath,
      bodyLimit: 'interaction',
      responses: { 200: { description: 'The website and the requested fields', schema: forms.consentView } },
      refusals: ['login_client_unknown'],
      async handle({ ctx, caller: details }) {
        const client = await clientOf(details);
        const view = {
          uid: details.uid,
          client: { client_id: client.clientId, name: client.clientName ?? client.clientId },
          fields: requestedOf(details).map(({ name, scope, required, description }) => ({ name, scope, required, description })),
        };
        if (ctx.accepts('html', 'json') === 'json') return { body: view };
        deps.renderPage(ctx, 'interaction', {
          title: `Sign in to ${view.client.name}`,
          ...view,
          logoUri: client.logoUri,
          chainId: deps.chainId,
          demoWallet: deps.demoWallet,
          issuerNames: deps.names.issuers,
          topicNames: deps.names.topics,
        });
        return {};
      },
    }),

    route({
      method: 'post',
      path: '/interaction/{uid}/challenge',
      summary: 'The EIP-4361 text naming the fields and claims the owner keeps, for the wallet to sign',
      tag: TAG,
      auth,
      params: forms.interactionPath,
      body: forms.challengeBody,
      bodyLimit: 'interaction',
      // Before the chain reads a challenge costs.
      rateLimits: [
        { limit: 'challengesPerAddress', key: 'client_address' },
        { limit: 'challengesPerInteraction', key: (details) => binding(details.uid) },
      ],
      responses: { 200: { description: 'The challenge and what signing it shares', schema: forms.loginChallenge } },
      refusals: [
        'login_client_unknown',
        'consent_field_unknown',
        'consent_field_not_requested',
        'consent_field_required',
        'consent_claim_not_shareable',
        'wallet_without_identity',
        ...LINK_REFUSALS,
      ],
      async handle({ body, caller: details }) {
        const client = await clientOf(details);
        const requested = keptFields(known, requestedOf(details), body.fields);
        const identity = await resolveIdentity(deps.registry, body.address, body.identity);
        const claimTopics = requested.flatMap((field) => deps.topics.topicOfScope(field.scope)?.topic ?? []);
        const available = claimTopics.length ? await deps.claims.listForTopics(identity, claimTopics) : [];
        const kept = keptClaims(requested, available, body.claims);
        const challenge = await deps.issueChallenge({
          binding: binding(details.uid),
          wallet: body.address,
          identity,
          statement: loginStatement(client.clientName ?? client.clientId, kept.fields, kept.claims),
          fields: kept.fields.map((field) => field.name),
          claims: kept.claims.map((claim) => claim.claim_id),
          resources: loginResources(deps.issuer, deps.chainId, identity, kept.fields, kept.claims),
        });
        const keptIds = new Set(challenge.claims);
        return {
          body: {
            identity,
            fields: challenge.fields,
            claims: available.map((claim) => ({ ...claim, kept: keptIds.has(claim.claim_id) })),
            challenge: challenge.message,
            expires_at: new Date(challenge.expiresAt).toISOString(),
          },
        };
      },
    }),

    route({
      method: 'post',
      path: '/interaction/{uid}/signature',
      summary: "The wallet's signature of the challenge: the login and its consent are recorded",
      tag: TAG,
      auth,
      params: forms.interactionPath,
      body: signatureBody,
      bodyLimit: 'interaction',
      // Before the eth_call a contract wallet's signature costs.
      rateLimits: [
        { limit: 'signaturesPerAddress', key: 'client_address' },
        { limit: 'signaturesPerInteraction', key: (details) => binding(details.uid) },
      ],
      responses: { 200: { description: 'Signed: the browser continues to the website', schema: forms.loginRedirect } },
      refusals: [...CHALLENGE_REFUSALS, 'challenge_identity_missing', ...LINK_REFUSALS],
      async handle({ body, caller: details }) {
        const verified = await deps.verifyChallenge({ binding: binding(details.uid), ...body }, async (issued) => {
          // Login challenges always name an identity; only account sign-ins may not.
          if (!issued.identity) throw refuse('challenge_identity_missing', 'the challenge names no identity');
          // Read live (both in one round trip): a key removed after the challenge was issued no longer counts.
          await deps.registry.assertKnownAndLinked(issued.identity, issued.wallet);
        });
        const { accountId, grantId } = await deps.completeConsent({
          identity: verified.identity!,
          wallet: verified.wallet,
          clientId: String(details.params.client_id),
          scope: String(details.params.scope ?? ''),
          requested: requestedOf(details),
          fields: verified.fields,
          claims: verified.claims,
          message: verified.message,
          signature: body.signature,
        });
        return { body: { redirect_to: await finishInteraction(details, { login: { accountId }, consent: { grantId } }) } };
      },
    }),

    route({
      method: 'post',
      path: '/interaction/{uid}/abort',
      summary: 'The owner declines: the website gets access_denied',
      tag: TAG,
      auth,
      params: forms.interactionPath,
      bodyLimit: 'interaction',
      responses: { 200: { description: 'Declined: the browser continues to the website', schema: forms.loginRedirect } },
      async handle({ caller: details }) {
        const redirectTo = await finishInteraction(details, {
          error: 'access_denied',
          error_description: 'the identity owner declined the login',
        });
        return { body: { redirect_to: redirectTo } };
      },
    }),
  ];
}
