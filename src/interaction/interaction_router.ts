// The login interaction (DESIGN §2): one consent page and its JSON twin. The owner picks the
// fields to share, gets the exact EIP-4361 text naming them, signs it with a linked wallet,
// and Signet turns that signature into the engine's login and consent results.
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { z } from 'zod';
import { accessDenied, invalidRequest, notFound } from '../errors.js';
import type { RenderPage } from '../http/pages.js';
import { parseBody } from '../http/parse_body.js';
import { addressField, signatureBody } from '../http/schemas.js';
import type { IdentityRegistry } from '../identity/identity_registry.js';
import { resolveIdentity } from '../identity/resolve_identity.js';
import { subjectOf } from '../identity/subject.js';
import { fieldNamed, type RequestedField, requestedFields } from '../oidc/fields.js';
import type { IssueChallenge, IssuedChallenge } from '../wallet/challenge.js';
import type { SignedChallenge } from '../wallet/verify_challenge.js';
import { saveConsentGrant } from './consent_grant.js';
import type { ConsentReceipts } from './consent_receipts.js';

export type InteractionDeps = {
  provider: Provider;
  issuer: string;
  chainId: number;
  grantTtlSeconds: number;
  registry: IdentityRegistry;
  receipts: ConsentReceipts;
  issueChallenge: IssueChallenge;
  verifyChallenge: (signed: SignedChallenge) => Promise<IssuedChallenge>;
  renderPage: RenderPage;
  demoWallet: boolean;
  now: () => number;
};

const challengeBody = z.object({
  address: addressField,
  identity: addressField.optional(),
  fields: z.array(z.string({ error: 'must list field names' }), { error: 'must be a list of field names' }).optional(),
});

const binding = (uid: string) => `interaction:${uid}`;

async function interactionOf(provider: Provider, ctx: Context): Promise<Interaction> {
  const details = await provider.interactionDetails(ctx.req, ctx.res);
  if (details.uid !== ctx.params.uid) {
    throw accessDenied('the interaction cookie belongs to another login: continue in the browser that started it');
  }
  return details;
}

function requestedOf(details: Interaction): RequestedField[] {
  let claims: unknown;
  const raw = details.params.claims;
  if (typeof raw === 'string') {
    try {
      claims = JSON.parse(raw);
    } catch {
      claims = undefined;
    }
  }
  return requestedFields(String(details.params.scope ?? ''), claims);
}

/** The subset of requested fields the owner keeps; unknown, unrequested or missing required fields are refused. */
function keptFields(requested: RequestedField[], asked: string[] | undefined): RequestedField[] {
  if (asked === undefined) return requested;
  const names = new Set(requested.map((field) => field.name));
  for (const name of asked) {
    if (!fieldNamed(name)) throw invalidRequest(`"fields" names "${name}", which is not a field Signet knows`);
    if (!names.has(name)) throw invalidRequest(`"fields" names "${name}", which this website did not ask for`);
  }
  const keep = new Set(asked);
  for (const field of requested) {
    if (field.required && !keep.has(field.name)) {
      throw invalidRequest(`"fields" must keep "${field.name}", which this website requires`);
    }
  }
  return requested.filter((field) => keep.has(field.name));
}

function statementFor(clientName: string, kept: RequestedField[]): string {
  const name = clientName.replace(/[^\p{L}\p{N} .,'&()-]/gu, '').slice(0, 80) || 'A website';
  const shared = kept.length ? kept.map((field) => field.label).join(', ') : 'nothing but your identity';
  return `${name} asks you to sign in with your identity. By signing you share: ${shared}.`;
}

export function createInteractionRouter(deps: InteractionDeps): Router {
  const { provider } = deps;
  const router = new Router({ prefix: '/interaction/:uid' });
  // Only Signet's own routes parse bodies: the engine parses its own.
  router.use(bodyParser({ enableTypes: ['json'], jsonLimit: '64kb' }));

  const clientOf = async (details: Interaction) => {
    const client = await provider.Client.find(String(details.params.client_id));
    if (!client) throw notFound('the website of this login is no longer registered');
    return client;
  };

  router.get('/', async (ctx) => {
    const details = await interactionOf(provider, ctx);
    const client = await clientOf(details);
    const fields = requestedOf(details);
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
    });
  });

  router.post('/challenge', async (ctx) => {
    const details = await interactionOf(provider, ctx);
    const body = parseBody(ctx, challengeBody);
    const client = await clientOf(details);
    const kept = keptFields(requestedOf(details), body.fields);
    const identity = await resolveIdentity(deps.registry, body.address, body.identity);
    const challenge = await deps.issueChallenge({
      binding: binding(details.uid),
      wallet: body.address,
      identity,
      statement: statementFor(client.clientName ?? client.clientId, kept),
      fields: kept.map((field) => field.name),
      resources: [
        subjectOf(deps.chainId, identity),
        ...kept.map((field) => `${deps.issuer}/identities/${identity}/profile#${field.name}`),
      ],
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      identity,
      fields: challenge.fields,
      challenge: challenge.message,
      expires_at: new Date(challenge.expiresAt).toISOString(),
    };
  });

  router.post('/signature', async (ctx) => {
    const details = await interactionOf(provider, ctx);
    const body = parseBody(ctx, signatureBody);
    const challenge = await deps.verifyChallenge({ binding: binding(details.uid), ...body });
    // Read live: a key removed after the challenge was issued no longer counts.
    await deps.registry.assertKnown(challenge.identity);
    await deps.registry.assertLinked(challenge.identity, challenge.wallet);

    const accountId = subjectOf(deps.chainId, challenge.identity);
    const clientId = String(details.params.client_id);
    const grantId = await saveConsentGrant(provider, {
      accountId,
      clientId,
      scope: String(details.params.scope ?? ''),
      requested: requestedOf(details),
      kept: challenge.fields,
    });
    await deps.receipts.save(
      {
        grant_id: grantId,
        client_id: clientId,
        identity: challenge.identity,
        wallet: challenge.wallet,
        fields: challenge.fields,
        message: challenge.message,
        signature: body.signature,
        signed_at: new Date(deps.now()).toISOString(),
      },
      deps.grantTtlSeconds,
    );
    const redirectTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    ctx.body = { redirect_to: redirectTo };
  });

  router.post('/abort', async (ctx) => {
    await interactionOf(provider, ctx);
    const redirectTo = await provider.interactionResult(
      ctx.req,
      ctx.res,
      { error: 'access_denied', error_description: 'the identity owner declined the login' },
      { mergeWithLastSubmission: false },
    );
    ctx.body = { redirect_to: redirectTo };
  });

  return router;
}
