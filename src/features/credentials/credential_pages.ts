// The account's page of credentials: offer one to a wallet (the QR code, the link and the
// transaction code, shown once, on this answer only), the credentials issued with their state,
// and revoking one. Plain forms: the page works without scripts.
import type { Context } from 'koa';
import { z } from 'zod';
import type { CredentialRecord, CredentialRecords, RevocationCause } from '../../domain/credentials/credential_records.js';
import type { CredentialRevocation } from '../../domain/credentials/credential_revocation.js';
import type { CredentialType } from '../../domain/credentials/credential_types.js';
import type { AccountSessions, IdentitySession } from '../../domain/owner_sessions/account_sessions.js';
import type { AccountTabPath } from '../../domain/owner_sessions/account_tabs.js';
import { sessionCallers, toSignIn } from '../../domain/owner_sessions/session_callers.js';
import type { RenderPage } from '../../http/pages.js';
import { type AnyRoute, route } from '../../http/route.js';
import type { Chains } from '../../domain/chains/chains.js';
import { identityKeyOf } from '../../infra/chain/identity_key.js';
import type { CredentialOffer, CredentialOffers } from './credential_offers.js';

const TAG = 'Account pages';
export const CREDENTIALS_PAGE = '/account/wallet-credentials' satisfies AccountTabPath;

/** A credential's state on the page: a message of the catalogs (locales/), one per revocation cause. */
const REVOKED_KEYS: Record<RevocationCause, string> = {
  owner_revoked: 'account.credentials.revoked_owner_revoked',
  claim_removed: 'account.credentials.revoked_claim_removed',
  claim_changed: 'account.credentials.revoked_claim_changed',
  claim_revoked: 'account.credentials.revoked_claim_revoked',
  erasure: 'account.credentials.revoked_erasure',
};
const VALID_KEY = 'account.credentials.state_valid';

export function credentialPages(deps: {
  sessions: AccountSessions;
  renderPage: RenderPage;
  /** The chain an owner session names (none: the default chain). */
  chains: Pick<Chains, 'idOf'>;
  demoWallet: boolean;
  types: readonly CredentialType[];
  /** Undefined: Signet issues no credentials here (no ES256 key). */
  issuing?: { offers: CredentialOffers; records: CredentialRecords; revocation: CredentialRevocation };
}): AnyRoute[] {
  const { visitor } = sessionCallers(deps.sessions);
  const nameOf = (id: string) => deps.types.find((type) => type.id === id)?.name ?? id;
  const show = async (ctx: Context, session: IdentitySession, data: { offer?: CredentialOffer; notice?: { key: string } }) => {
    const entries: CredentialRecord[] = deps.issuing ? await deps.issuing.records.listOf(identityKeyOf(session.identity, session.chain_id)) : [];
    deps.renderPage(ctx, 'account/credentials', {
      identity: session.identity,
      wallet: session.wallet,
      chainId: deps.chains.idOf(session.chain_id),
      demoWallet: deps.demoWallet,
      issuing: Boolean(deps.issuing),
      types: deps.types,
      credentials: entries.map((entry) => ({
        ...entry,
        name: nameOf(entry.configuration),
        stateKey: entry.revoked ? REVOKED_KEYS[entry.revoked.cause] : VALID_KEY,
      })),
      offer: data.offer && { ...data.offer, name: nameOf(data.offer.credential_configuration_id) },
      notice: data.notice,
    });
    return {};
  };

  return [
    route({
      method: 'get',
      path: CREDENTIALS_PAGE,
      summary: 'The credentials page: offers for a wallet, the credentials issued',
      tag: TAG,
      auth: visitor,
      query: z.object({ done: z.string().optional().catch(undefined) }),
      responses: { 200: { description: 'The page' } },
      undocumented: true,
      handle: async ({ ctx, query, caller }) =>
        caller ? show(ctx, caller, { notice: query.done === 'revoked' ? { key: 'account.notice.credential_revoked' } : undefined }) : toSignIn(ctx),
    }),

    route({
      method: 'post',
      path: `${CREDENTIALS_PAGE}/offers`,
      summary: 'Make an offer for a wallet (the form of the credentials page)',
      tag: TAG,
      auth: visitor,
      bodyLimit: 'form',
      body: z.object({ credential_configuration_id: z.string({ error: 'choose a credential' }).max(100) }),
      responses: { 200: { description: 'The page with the offer' } },
      refusals: ['credential_type_unknown'],
      undocumented: true,
      async handle({ ctx, body, caller }) {
        if (!caller) return toSignIn(ctx);
        if (!deps.issuing) return show(ctx, caller, {});
        ctx.set('cache-control', 'no-store');
        return show(ctx, caller, { offer: await deps.issuing.offers.make(caller, body.credential_configuration_id) });
      },
    }),

    route({
      method: 'post',
      path: `${CREDENTIALS_PAGE}/{id}/revoke`,
      summary: 'Revoke a credential (the form of the credentials page)',
      tag: TAG,
      auth: visitor,
      bodyLimit: 'form',
      params: z.strictObject({ id: z.string().min(1).max(64) }),
      responses: { 302: { description: 'Revoked: back to the credentials page' } },
      refusals: ['credential_not_found'],
      undocumented: true,
      async handle({ ctx, params, caller }) {
        if (!caller) return toSignIn(ctx);
        await deps.issuing?.revocation.revoke(identityKeyOf(caller.identity, caller.chain_id), params.id, 'owner_revoked');
        ctx.redirect(`${CREDENTIALS_PAGE}?done=revoked`);
        return {};
      },
    }),
  ];
}
