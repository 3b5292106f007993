// The login interaction (docs/decisions.md, 17) as route declarations: one consent page and its JSON twin.
// The owner picks the fields to share (verified ones claim by claim, docs/verified-claims.md),
// gets the exact EIP-4361 text naming them, signs it with a linked wallet, and Signet turns
// that signature into the engine's login and consent results.
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { z } from 'zod';
import { refuse } from '../../base/errors.js';
import type { Chains } from '../../domain/chains/chains.js';
import type { ClaimTopics } from '../../domain/claims/claim_topics.js';
import type { DisplayNames } from '../../domain/claims/display_names.js';
import { CLIENT_LINK_FIELDS, isOwnPage, LOCALIZED_NAME_FIELDS, redirectHostsOf } from '../../domain/clients/client_presentation.js';
import type { ClientLogos } from '../../domain/clients/client_logos.js';
import type { ClientRegistry } from '../../domain/clients/client_registry.js';
import type { Fetched, HeldElsewhere } from '../../domain/providers/held_elsewhere.js';
import type { CompleteConsent } from '../../domain/consent/complete_consent.js';
import { type FieldDefinition, loginFields, type RequestedField, requestedFields } from '../../domain/fields/fields.js';
import { parseClaimsParameter, verifiedRequestsOf } from '../../domain/fields/verified_claims_request.js';
import { verifiedClaimLabel, verifiedFieldName } from '../../domain/fields/verified_fields.js';
import { LINK_REFUSALS } from '../../domain/identity/identity_registry.js';
import { loginIdentity, loginIdentityWithClaims } from '../../domain/identity/login_identity.js';
import { subjectOf } from '../../domain/identity/subject.js';
import type { VerifiedSources } from '../../domain/verified_claims/verified_sources.js';
import type { IssueChallenge, IssuedChallenge } from '../../domain/wallet/challenge.js';
import { type BeforeUse, CHALLENGE_REFUSALS, type SignedChallenge } from '../../domain/wallet/verify_challenge.js';
import type { RenderPage } from '../../http/pages.js';
import { anyone } from '../../http/authenticators.js';
import { type AnyRoute, route } from '../../http/route.js';
import { loginResources, loginStatement, type VerifiedShare } from './challenge_text.js';
import { keptClaims, keptFields, keptVerified, type VerifiedOffer, verifiedOffers } from './consent_selection.js';
import { finishInteraction } from './finish_interaction.js';
import { interactionCookie } from './interaction_cookie.js';
import * as forms from './interaction_schemas.js';

export type InteractionRoutesDeps = {
  provider: Provider;
  issuer: string;
  /** On each chain: its identity reads, its claims and the verified data they hold (src/domain/verified_claims/verified_sources.ts). */
  chains: Chains;
  topics: ClaimTopics;
  issueChallenge: IssueChallenge;
  verifyChallenge: (signed: SignedChallenge, beforeUse?: BeforeUse) => Promise<IssuedChallenge>;
  completeConsent: CompleteConsent;
  renderPage: RenderPage;
  demoWallet: boolean;
  /** Issuer, topic and trust framework names the page shows instead of addresses and codes. */
  names: DisplayNames;
  /** Whether a client is the operator's (CLIENTS) or was added at run time. */
  clients: Pick<ClientRegistry, 'isConfigured'>;
  /** The credentials a wallet may ask for (their scopes), beside the login's fields. */
  credentialFields?: readonly FieldDefinition[];
  /** Claim data other Information Providers hold (src/domain/providers/): asked for while the owner reads, fetched at the signature. */
  heldElsewhere: HeldElsewhere;
  /** How long a login's Grant lives (ttl.grant): data fetched for it is kept no longer. */
  grantSeconds: number;
  /** Clients' logos, fetched through the outbound guard and served from Signet's origin (decision 81). */
  logos: ClientLogos;
  now: () => number;
};

const TAG = 'Login';

/** How long a browser and a cache may keep a client's logo. */
const LOGO_MAX_AGE_SECONDS = 300;

/** What a login's challenges and its rate limit are bound to. */
const binding = (uid: string) => `interaction:${uid}`;

export function interactionRoutes(deps: InteractionRoutesDeps): AnyRoute[] {
  const { provider } = deps;
  const known = [...loginFields(deps.topics), ...(deps.credentialFields ?? [])];
  const auth = interactionCookie(provider, deps.issuer);

  const requestedOf = (details: Interaction): RequestedField[] =>
    requestedFields(known, String(details.params.scope ?? ''), parseClaimsParameter(details.params.claims));

  /** The request's `purpose` parameter (checked by the engine: 3 to 300 characters). */
  const purposeOf = (details: Interaction) => (typeof details.params.purpose === 'string' ? { purpose: details.params.purpose } : {});

  /** The claims offering the kept verified fields, read fresh: only what could be released is offered. */
  const offersFor = async (details: Interaction, verified: VerifiedSources, identity: `0x${string}`, fields: RequestedField[]): Promise<VerifiedOffer[]> => {
    if (!fields.some((field) => field.kind === 'verified')) return [];
    const requests = verifiedRequestsOf(String(details.params.scope ?? ''), parseClaimsParameter(details.params.claims));
    return verifiedOffers(fields, await verified.of(identity), requests, deps.now());
  };

  const sharesOf = (offers: VerifiedOffer[], picks: { claim_id: string; claims: string[] }[]): VerifiedShare[] =>
    picks.flatMap((pick) => {
      const offer = offers.find((each) => each.source.claim.claim_id === pick.claim_id)!;
      const { claim, trustFramework } = offer.source;
      return offer.claims
        .filter((name) => pick.claims.includes(name))
        .map((name) => ({
          claim,
          name,
          issuerWords: deps.names.issuer(claim.issuer) ?? claim.issuer,
          trustFrameworkWords: deps.names.trustFramework(trustFramework),
        }));
    });

  /** The chain a challenge names (one from before several chains names none: the default chain). */
  const onChainOf = (issued: IssuedChallenge) => deps.chains.named(issued.chainId);

  type Client = Awaited<ReturnType<typeof clientOf>>;

  /** Who asks, as the signed text names it (decision 81): its name, the host its answer goes to, whether it was added at run time. */
  const askerOf = (client: Client, details: Interaction, hosts = redirectHostsOf(client.redirectUris ?? [])) => ({
    name: client.clientName ?? client.clientId,
    host: URL.parse(String(details.params.redirect_uri ?? ''))?.hostname || hosts[0] || '',
    runTime: !deps.clients.isConfigured(client.clientId),
  });

  /** Who asks as the consent page shows it: the asker, its names by language and its own pages (read from its metadata). */
  const consentClientOf = (client: Client, details: Interaction, metadata: Record<string, unknown>) => {
    const hosts = redirectHostsOf(client.redirectUris ?? []);
    const asker = askerOf(client, details, hosts);
    const names: Record<string, string> = {};
    for (const field of LOCALIZED_NAME_FIELDS) {
      const value = metadata[field];
      if (typeof value === 'string' && value.trim()) names[field.slice('client_name#'.length)] = value;
    }
    const links: Partial<Record<(typeof CLIENT_LINK_FIELDS)[number], string>> = {};
    for (const field of CLIENT_LINK_FIELDS) if (isOwnPage(metadata[field], hosts)) links[field] = metadata[field] as string;
    return { client_id: client.clientId, name: asker.name, redirect_host: asker.host, registered_at_run_time: asker.runTime, names, links };
  };

  const clientOf = async (details: Interaction) => {
    const client = await provider.Client.find(String(details.params.client_id));
    if (!client) throw refuse('client_not_found', 'the website of this login is no longer registered', { previous: 'login_client_unknown' });
    return client;
  };

  return [
    route({
      method: 'get',
      path: '/clients/{clientId}/logo',
      summary: "A client's logo, fetched by Signet from its logo_uri (https, on a redirect URI's host) and served from Signet's origin",
      tag: TAG,
      auth: anyone,
      params: forms.clientLogoPath,
      cache: { publicMaxAgeSeconds: LOGO_MAX_AGE_SECONDS },
      responses: {
        200: {
          description: 'The logo: a PNG, JPEG, WebP or GIF of at most 100 KiB, its type read from its bytes',
          headers: { 'Content-Type': 'image/png, image/jpeg, image/webp or image/gif' },
        },
      },
      refusals: ['client_logo_unavailable'],
      async handle({ params }) {
        const client = await provider.Client.find(params.clientId);
        const logo = client ? await deps.logos.logoOf(client.metadata() as Record<string, unknown>) : undefined;
        if (!logo) throw refuse('client_logo_unavailable', 'this client has no logo Signet serves');
        // The type read from the bytes; pixels only: no script, no style, nothing loaded, even opened on its own.
        return { status: 200, body: Buffer.from(logo.bytes), headers: { 'Content-Type': logo.type, 'Content-Security-Policy': "default-src 'none'; sandbox" } };
      },
    }),

    route({
      method: 'get',
      path: '/interaction/{uid}',
      summary: 'The consent request of a login: the website and the fields it asks for (the consent page to browsers)',
      tag: TAG,
      auth,
      params: forms.interactionPath,
      bodyLimit: 'interaction',
      responses: { 200: { description: 'The website and the requested fields', schema: forms.consentView } },
      refusals: ['client_not_found'],
      async handle({ ctx, caller: details }) {
        const client = await clientOf(details);
        const metadata = client.metadata() as Record<string, unknown>;
        const view = {
          uid: details.uid,
          client: consentClientOf(client, details, metadata),
          ...purposeOf(details),
          fields: requestedOf(details).map(({ name, scope, required, description, purpose }) => ({
            name,
            scope,
            required,
            description,
            ...(purpose === undefined ? {} : { purpose }),
          })),
        };
        if (ctx.accepts('html', 'json') === 'json') return { body: view };
        deps.renderPage(ctx, 'interaction', {
          languageHint: { uiLocales: details.params.ui_locales, loginUid: details.uid },
          ...view,
          chainId: deps.chains.idOf(undefined),
          chains: deps.chains.all.map((chain) => ({ chain_id: chain.chainId, name: chain.name })),
          demoWallet: deps.demoWallet,
          // The operator's names and descriptions, in every language given (decision 82).
          localizedNames: deps.names.localized,
          requestPurpose: view.purpose ?? null,
          // Served from Signet's origin, and only for a logo_uri on a redirect URI's host.
          logoPath: deps.logos.shownUri(metadata) ? `/clients/${encodeURIComponent(client.clientId)}/logo` : null,
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
      responses: {
        200: {
          description: 'The challenge and what signing it shares; or, when the wallet has identities on several chains and none was named, the choice',
          schema: z.union([forms.loginChallenge, forms.identityChoice]),
        },
      },
      refusals: [
        'client_not_found',
        'field_unknown',
        'consent_field_not_requested',
        'consent_field_required',
        'consent_claim_not_shareable',
        'consent_verified_not_offered',
        'wallet_without_identity',
        'chain_not_configured',
        ...LINK_REFUSALS,
      ],
      async handle({ body, caller: details }) {
        const client = await clientOf(details);
        const requested = keptFields(known, requestedOf(details), body.fields);
        const claimTopics = requested.flatMap((field) => deps.topics.topicOfScope(field.scope)?.topic ?? []);
        const found = claimTopics.length ? await loginIdentityWithClaims(deps.chains, body, claimTopics) : undefined;
        const resolved = found ?? (await loginIdentity(deps.chains, body));
        if ('choose' in resolved) {
          const choose = resolved.choose.map(({ on, identity }) => ({ chain_id: on.chainId, chain_name: on.name, identity }));
          return { body: { choose } };
        }
        const { on, identity } = resolved;
        const available = found ? found.claims : claimTopics.length ? await on.claims.listForTopics(identity, claimTopics) : [];
        const kept = keptClaims(requested, available, body.claims);
        const offers = await offersFor(details, on.verified, identity, kept.fields);
        const verified = keptVerified(kept.fields, offers, body.verified);
        const shares = sharesOf(offers, verified.picks);
        // Verified fields travel claim by claim in `verified`; `fields` stays what it was (profile fields and topics).
        const fields = verified.fields.filter((field) => field.kind !== 'verified');
        // Claims whose data another provider holds: their access requests leave now, while the owner reads.
        const heldClaims = deps.heldElsewhere.heldAmong(kept.claims);
        const held = heldClaims.length ? await deps.heldElsewhere.prepare(details.uid, subjectOf(on.chainId, identity), identity, heldClaims) : [];
        const heldBy = new Map(held.map((offer) => [offer.claim_id, offer.provider]));
        const challenge = await deps.issueChallenge({
          binding: binding(details.uid),
          wallet: body.address,
          identity,
          statement: loginStatement(askerOf(client, details), fields, kept.claims, shares, heldBy),
          held,
          fields: fields.map((field) => field.name),
          claims: kept.claims.map((claim) => claim.claim_id),
          verified: verified.picks,
          resources: loginResources(deps.issuer, on.chainId, identity, fields, kept.claims, shares),
          chainId: on.chainId,
        });
        const keptIds = new Set(challenge.claims);
        const required = new Set(requested.filter((field) => field.required).map((field) => field.name));
        return {
          body: {
            identity,
            chain_id: on.chainId,
            chain_name: on.name,
            fields: challenge.fields,
            claims: available.map((claim) => ({ ...claim, kept: keptIds.has(claim.claim_id) })),
            verified: offers.map(({ source, claims }) => ({
              claim_id: source.claim.claim_id,
              topic_name: source.claim.topic_name,
              issuer: source.claim.issuer,
              issuer_name: deps.names.issuer(source.claim.issuer) ?? null,
              trust_framework: source.trustFramework,
              trust_framework_name: deps.names.trustFramework(source.trustFramework),
              claims: claims.map((name) => ({
                name,
                field: verifiedFieldName(name),
                label: verifiedClaimLabel(name),
                required: required.has(verifiedFieldName(name)),
                kept: shares.some((share) => share.claim.claim_id === source.claim.claim_id && share.name === name),
              })),
            })),
            ...(held.length
              ? {
                  held_elsewhere: held.map((offer) => ({
                    claim_id: offer.claim_id,
                    provider: offer.provider,
                    fetched: ['data'],
                    second_signature: offer.signs,
                  })),
                }
              : {}),
            challenge: challenge.message,
            expires_at: new Date(challenge.expiresAt).toISOString(),
          },
        };
      },
    }),

    route({
      method: 'post',
      path: '/interaction/{uid}/provider-challenges',
      summary: "The challenges of the Information Providers holding kept claims' data, for the wallet to sign after Signet's own text",
      tag: TAG,
      auth,
      params: forms.interactionPath,
      bodyLimit: 'interaction',
      rateLimits: [{ limit: 'challengesPerInteraction', key: (details) => binding(details.uid) }],
      responses: { 200: { description: "Each provider's challenge, or why it gave none", schema: forms.providerChallenges } },
      async handle({ caller: details }) {
        return { body: { challenges: await deps.heldElsewhere.challenges(details.uid) } };
      },
    }),

    route({
      method: 'post',
      path: '/interaction/{uid}/signature',
      summary: "The wallet's signature of the challenge: the login and its consent are recorded",
      tag: TAG,
      auth,
      params: forms.interactionPath,
      body: forms.loginSignatureBody,
      bodyLimit: 'interaction',
      // Before the eth_call a contract wallet's signature costs.
      rateLimits: [
        { limit: 'signaturesPerAddress', key: 'client_address' },
        { limit: 'signaturesPerInteraction', key: (details) => binding(details.uid) },
      ],
      responses: { 200: { description: 'Signed: the browser continues to the website', schema: forms.loginRedirect } },
      refusals: [...CHALLENGE_REFUSALS, 'challenge_identity_missing', 'chain_not_configured', ...LINK_REFUSALS],
      async handle({ body, caller: details }) {
        let fetching: Promise<Fetched> | undefined;
        const { provider_signatures: providerSignatures, ...signed } = body;
        const verified = await deps.verifyChallenge({ binding: binding(details.uid), ...signed }, async (issued) => {
          // Login challenges always name an identity; only account sign-ins may not.
          if (!issued.identity) throw refuse('challenge_identity_missing', 'the challenge names no identity');
          // Data held elsewhere is fetched beside Signet's own chain reads, never after them.
          if (issued.held?.length) {
            const subject = subjectOf(onChainOf(issued).chainId, issued.identity);
            fetching = deps.heldElsewhere.fetchAtLogin(details.uid, subject, issued.identity, issued.wallet, issued.held, providerSignatures ?? []);
            fetching.catch(() => {}); // awaited below, once the signature stands
          }
          // Read live (both in one round trip): a key removed after the challenge was issued no longer counts.
          await onChainOf(issued).registry.assertKnownAndLinked(issued.identity, issued.wallet);
        });
        const { accountId, grantId } = await deps.completeConsent({
          identity: verified.identity!,
          chainId: onChainOf(verified).chainId,
          wallet: verified.wallet,
          clientId: String(details.params.client_id),
          scope: String(details.params.scope ?? ''),
          requested: requestedOf(details),
          fields: verified.fields,
          claims: verified.claims,
          verified: verified.verified ?? [],
          message: verified.message,
          signature: body.signature,
        });
        const finishing = () => finishInteraction(details, { login: { accountId }, consent: { grantId } });
        if (!fetching) return { body: { redirect_to: await finishing() } };
        // A provider's failure is the claim's data_status, never the login's (fetchAtLogin does not throw for it).
        // The interaction's result is written while the provider answers; the browser is sent on only once the
        // copy is kept, so no token is issued before the data it releases is there.
        const fetched = fetching;
        const [redirectTo] = await Promise.all([
          finishing(),
          fetched.then((data) => deps.heldElsewhere.keep(grantId, deps.now() + deps.grantSeconds * 1000, data)),
        ]);
        return { body: { redirect_to: redirectTo } };
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
