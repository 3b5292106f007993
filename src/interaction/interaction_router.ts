// The login interaction (DESIGN §2): one consent page and its JSON twin. The owner picks the
// fields to share, gets the exact EIP-4361 text naming them, signs it with a linked wallet,
// and Signet turns that signature into the engine's login and consent results.
import Router from '@koa/router';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { z } from 'zod';
import { accessDenied, invalidRequest, notFound } from '../errors.js';
import { clientAddress } from '../http/client_address.js';
import { BODY_LIMITS, jsonBody } from '../http/body.js';
import type { RenderPage } from '../http/pages.js';
import type { RateLimits } from '../http/rate_limits.js';
import { parseBody } from '../http/parse_body.js';
import { addressField, signatureBody } from '../http/schemas.js';
import type { IdentityRegistry } from '../identity/identity_registry.js';
import { resolveIdentity } from '../identity/resolve_identity.js';
import { subjectOf } from '../identity/subject.js';
import { loginResources, loginStatement } from './challenge_text.js';
import type { ClaimsService } from '../claims/claims_service.js';
import type { ClaimTopics } from '../claims/claim_topics.js';
import type { DisplayNames } from '../claims/display_names.js';
import { allFields, type FieldDefinition, type RequestedField, requestedFields } from '../oidc/fields.js';
import type { IssueChallenge, IssuedChallenge } from '../wallet/challenge.js';
import type { BeforeUse, SignedChallenge } from '../wallet/verify_challenge.js';
import { saveConsentGrant } from './consent_grant.js';
import { finishInteraction } from './finish_interaction.js';
import type { ConsentReceipts } from './consent_receipts.js';
import { keptClaims, keptFields } from './consent_selection.js';

export type InteractionDeps = {
  provider: Provider;
  issuer: string;
  chainId: number;
  grantTtlSeconds: number;
  registry: IdentityRegistry;
  receipts: ConsentReceipts;
  topics: ClaimTopics;
  claims: ClaimsService;
  issueChallenge: IssueChallenge;
  verifyChallenge: (signed: SignedChallenge, beforeUse?: BeforeUse) => Promise<IssuedChallenge>;
  limits: Pick<RateLimits, 'consume' | 'consumeAll'>;
  renderPage: RenderPage;
  demoWallet: boolean;
  /** Issuer and topic names the page shows instead of addresses and codes. */
  names: DisplayNames;
  now: () => number;
};

const challengeBody = z.object({
  address: addressField,
  identity: addressField.optional(),
  fields: z.array(z.string({ error: 'must list field names' }), { error: 'must be a list of field names' }).optional(),
  claims: z.array(z.string({ error: 'must list claim ids' }), { error: 'must be a list of claim ids' }).optional(),
});

const binding = (uid: string) => `interaction:${uid}`;

async function interactionOf(provider: Provider, ctx: Context): Promise<Interaction> {
  const details = await provider.interactionDetails(ctx.req, ctx.res);
  if (details.uid !== ctx.params.uid) {
    throw accessDenied('the interaction cookie belongs to another login: continue in the browser that started it');
  }
  return details;
}

function requestedOf(known: readonly FieldDefinition[], details: Interaction): RequestedField[] {
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
}

export function createInteractionRouter(deps: InteractionDeps): Router {
  const { provider } = deps;
  const known = allFields(deps.topics);
  const router = new Router({ prefix: '/interaction/:uid' });
  // Only Signet's own routes parse bodies: the engine parses its own.
  router.use(jsonBody(BODY_LIMITS.interaction));

  const clientOf = async (details: Interaction) => {
    const client = await provider.Client.find(String(details.params.client_id));
    if (!client) throw notFound('the website of this login is no longer registered');
    return client;
  };

  router.get('/', async (ctx) => {
    const details = await interactionOf(provider, ctx);
    const client = await clientOf(details);
    const fields = requestedOf(known, details);
    const view = {
      uid: details.uid,
      client: { client_id: client.clientId, name: client.clientName ?? client.clientId },
      fields: fields.map(({ name, scope, required, description }) => ({ name, scope, required, description })),
    };
    ctx.set('Cache-Control', 'no-store');
    if (ctx.accepts('html', 'json') === 'json') {
      ctx.body = view;
      return;
    }
    deps.renderPage(ctx, 'interaction', {
      title: `Sign in to ${view.client.name}`,
      ...view,
      logoUri: client.logoUri,
      chainId: deps.chainId,
      demoWallet: deps.demoWallet,
      issuerNames: deps.names.issuers,
      topicNames: deps.names.topics,
    });
  });

  // Limits before any chain read (a challenge costs chain reads, a signature an eth_call); the
  // interaction is read first so both counters of the step go to Redis together, and one
  // that belongs to no login of this browser is refused (403/404) without counting.
  router.post('/challenge', async (ctx) => {
    const details = await interactionOf(provider, ctx);
    await deps.limits.consumeAll([
      ['challengesPerAddress', clientAddress(ctx)],
      ['challengesPerInteraction', binding(details.uid)],
    ]);
    const body = parseBody(ctx, challengeBody);
    const client = await clientOf(details);
    const requested = keptFields(known, requestedOf(known, details), body.fields);
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
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      identity,
      fields: challenge.fields,
      claims: available.map((claim) => ({ ...claim, kept: keptIds.has(claim.claim_id) })),
      challenge: challenge.message,
      expires_at: new Date(challenge.expiresAt).toISOString(),
    };
  });

  router.post('/signature', async (ctx) => {
    const details = await interactionOf(provider, ctx);
    await deps.limits.consumeAll([
      ['signaturesPerAddress', clientAddress(ctx)],
      ['signaturesPerInteraction', binding(details.uid)],
    ]);
    const body = parseBody(ctx, signatureBody);
    const verified = await deps.verifyChallenge({ binding: binding(details.uid), ...body }, async (issued) => {
      // Login challenges always name an identity; only account sign-ins may not.
      if (!issued.identity) throw invalidRequest('the challenge names no identity');
      // Read live (both in one round trip): a key removed after the challenge was issued no longer counts.
      await deps.registry.assertKnownAndLinked(issued.identity, issued.wallet);
    });
    const challenge = { ...verified, identity: verified.identity! };

    const accountId = subjectOf(deps.chainId, challenge.identity);
    const clientId = String(details.params.client_id);
    const grantId = await saveConsentGrant(provider, {
      accountId,
      clientId,
      scope: String(details.params.scope ?? ''),
      requested: requestedOf(known, details),
      kept: challenge.fields,
    });
    await deps.receipts.save(
      {
        grant_id: grantId,
        client_id: clientId,
        identity: challenge.identity,
        wallet: challenge.wallet,
        fields: challenge.fields,
        claims: challenge.claims,
        message: challenge.message,
        signature: body.signature,
        signed_at: new Date(deps.now()).toISOString(),
      },
      deps.grantTtlSeconds,
    );
    const redirectTo = await finishInteraction(details, { login: { accountId }, consent: { grantId } });
    ctx.body = { redirect_to: redirectTo };
  });

  router.post('/abort', async (ctx) => {
    const details = await interactionOf(provider, ctx);
    const redirectTo = await finishInteraction(details, {
      error: 'access_denied',
      error_description: 'the identity owner declined the login',
    });
    ctx.body = { redirect_to: redirectTo };
  });

  return router;
}
