// The credentials' routes. For the owner, signed in to the account: an offer for a wallet (the
// `openid-credential-offer://` link and its QR code, with a pre-authorized code and the
// transaction code shown only here), the credentials issued with their state, and revoking one.
// For verifiers, without a credential: the status lists (signed tokens), the type metadata of
// each `vct`, and the issuer's keys (JWT VC Issuer Metadata).
import { importJWK, SignJWT } from 'jose';
import { z } from 'zod';
import { refuse } from '../../base/errors.js';
import type { CredentialRecord, CredentialRecords } from '../../domain/credentials/credential_records.js';
import type { CredentialRevocation } from '../../domain/credentials/credential_revocation.js';
import { type CredentialType, typeMetadataOf } from '../../domain/credentials/credential_types.js';
import { STATUS_LISTS, type StatusLists } from '../../domain/credentials/status_lists.js';
import type { SessionCallers } from '../../domain/owner_sessions/session_callers.js';
import { anyone } from '../../http/authenticators.js';
import { type AnyRoute, route } from '../../http/route.js';
import { identityKeyOf } from '../../infra/chain/identity_key.js';
import { publicJwkOf, type SigningJwk } from '../../infra/keys/signing_keys.js';
import type { CredentialOffers } from './credential_offers.js';
import { keptStatusTokens } from './kept_status_tokens.js';

const TAG = 'Credentials';
/** A status list token is good for five minutes: a verifier asks again after, and sees a revocation the watcher set since. */
const STATUS_TOKEN_SECONDS = 300;
/** How long a shared cache may keep a status list token after it was signed. */
export const STATUS_MAX_AGE_SECONDS = 60;
/** How long a process answers a list with the token it signed last, rather than signing anew (decision 67). */
export const STATUS_KEPT_SECONDS = 5;

export type CredentialRoutesDeps = {
  issuer: string;
  offers: CredentialOffers;
  types: readonly CredentialType[];
  thresholds: readonly number[];
  key: SigningJwk & { kid: string };
  statusLists: StatusLists;
  statusUri: (list: number) => string;
  records: CredentialRecords;
  revocation: CredentialRevocation;
  callers: SessionCallers;
  now: () => number;
};

const offerBody = z.strictObject({
  credential_configuration_id: z.string().min(1).max(100).meta({ description: 'Which credential: an id of the issuer metadata (`age`, `verified_<topic>`)' }),
});
const offer = z.object({
  credential_configuration_id: z.string(),
  link: z.string().meta({ description: 'The `openid-credential-offer://` link a wallet opens or scans' }),
  credential_offer_uri: z.string().meta({ description: 'Where the wallet reads the offer (the link names it): JSON, for the offer’s life' }),
  qr_svg: z.string().meta({ description: 'The link as a QR code (SVG) for a wallet on another device' }),
  tx_code: z.string().meta({ description: 'The transaction code the wallet asks for: show it to the owner, never put it in the link' }),
  expires_at: z.string(),
});
const credentialView = z.object({
  id: z.string(),
  credential_configuration_id: z.string(),
  name: z.string(),
  claim_id: z.string(),
  issued_at: z.string(),
  expires_at: z.string(),
  state: z.enum(['valid', 'revoked']),
  revoked: z.object({ at: z.string(), cause: z.string() }).optional(),
});
const idParams = z.strictObject({ id: z.string().min(1).max(64) });
// A list's one name: its number as written in credentials, `0` to `999`, no sign, exponent,
// leading zero or fraction (`1e2`, `0x10`, `007`, `5.0` would be other URLs of one list).
const listParams = z.strictObject({
  list: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,8})$/, 'a status list is named by its number, 0 or a number without leading zeros')
    .refine((list) => Number(list) < STATUS_LISTS, `status lists are numbered 0 to ${STATUS_LISTS - 1}`)
    .meta({ description: `The list's number, 0 to ${STATUS_LISTS - 1}, as the credential's \`status.status_list.uri\` writes it` }),
});
const typeParams = z.strictObject({ type: z.string().min(1).max(100) });

export function credentialRoutes(deps: CredentialRoutesDeps): AnyRoute[] {
  const { owner } = deps.callers;
  const byId = new Map(deps.types.map((type) => [type.id, type]));
  const nameOf = (id: string) => byId.get(id)?.name ?? id;
  const viewOf = (entry: CredentialRecord) => ({
    id: entry.id,
    credential_configuration_id: entry.configuration,
    name: nameOf(entry.configuration),
    claim_id: entry.claim_id,
    issued_at: entry.issued_at,
    expires_at: entry.expires_at,
    state: entry.revoked ? ('revoked' as const) : ('valid' as const),
    ...(entry.revoked ? { revoked: entry.revoked } : {}),
  });
  const signingKey = importJWK(deps.key as never, 'ES256');
  const statusPath = (list: number) => `/credentials/status/${list}`;
  const statusTokens = keptStatusTokens(
    { keptSeconds: STATUS_KEPT_SECONDS, lists: STATUS_LISTS, now: deps.now, revisionOf: deps.statusLists.revision },
    async (list, now) =>
      new SignJWT({ status_list: { bits: 1, lst: await deps.statusLists.encoded(list) }, ttl: STATUS_TOKEN_SECONDS })
        .setProtectedHeader({ alg: 'ES256', typ: 'statuslist+jwt', kid: deps.key.kid })
        .setIssuer(deps.issuer)
        .setSubject(deps.statusUri(list))
        .setIssuedAt(now)
        .setExpirationTime(now + STATUS_TOKEN_SECONDS)
        .sign(await signingKey),
  );

  return [
    route({
      method: 'post',
      path: '/account/credential-offers',
      summary: 'Offer a credential to the owner’s wallet: the link, its QR code and the transaction code',
      tag: TAG,
      auth: owner,
      body: offerBody,
      responses: { 201: { description: 'The offer, for one wallet, once', schema: offer } },
      refusals: ['credential_type_unknown'],
      async handle({ body, caller }) {
        return { status: 201, body: await deps.offers.make(caller, body.credential_configuration_id) };
      },
    }),

    route({
      method: 'get',
      path: '/account/credentials',
      summary: 'The credentials issued to the signed-in identity’s wallets, with their state',
      tag: TAG,
      auth: owner,
      responses: { 200: { description: 'Newest first', schema: z.object({ credentials: z.array(credentialView) }) } },
      async handle({ caller }) {
        const entries = await deps.records.listOf(identityKeyOf(caller.identity, caller.chain_id));
        return { body: { credentials: entries.map(viewOf) } };
      },
    }),

    route({
      method: 'post',
      path: '/account/credentials/{id}/revocation',
      summary: 'Revoke a credential: its status list says so to every verifier',
      tag: TAG,
      auth: owner,
      params: idParams,
      responses: { 200: { description: 'The credential, revoked', schema: credentialView } },
      refusals: ['credential_not_found'],
      async handle({ params, caller }) {
        const revoked = await deps.revocation.revoke(identityKeyOf(caller.identity, caller.chain_id), params.id, 'owner_revoked');
        if (!revoked) throw refuse('credential_not_found', 'no such credential for the signed-in identity');
        return { body: viewOf(revoked) };
      },
    }),

    route({
      method: 'get',
      path: '/credential-offers/{id}',
      summary: 'A credential offer, read by the wallet its link was given to (OpenID4VCI `credential_offer_uri`)',
      tag: TAG,
      auth: anyone,
      params: idParams,
      responses: { 200: { description: 'The offer', schema: z.record(z.string(), z.unknown()) } },
      refusals: ['credential_offer_not_found'],
      async handle({ params }) {
        const found = await deps.offers.find(params.id);
        if (!found) throw refuse('credential_offer_not_found', 'no credential offer here: ask the owner for a new one');
        return { body: found };
      },
    }),

    route({
      method: 'get',
      path: '/credentials/status/{list}',
      summary: 'A status list token (IETF Token Status List): one bit per credential, set when revoked',
      tag: TAG,
      auth: anyone,
      params: listParams,
      cache: { publicMaxAgeSeconds: STATUS_MAX_AGE_SECONDS },
      responses: { 200: { description: 'A signed JWT, `application/statuslist+jwt`' } },
      refusals: ['route_not_found'],
      async handle({ ctx, params }) {
        const list = Number(params.list);
        // The router takes `/CREDENTIALS/status/1`, `/credentials/status/%31` and a trailing slash as well: one URL per list.
        if (ctx.path !== statusPath(list)) throw refuse('route_not_found', `a status list is read at ${statusPath(list)} only`);
        const { token, signedAt } = await statusTokens.of(list);
        // A cache keeps it no longer after it was signed than STATUS_MAX_AGE_SECONDS, whichever process signed it when.
        const age = Math.max(0, Math.floor(deps.now() / 1000) - signedAt);
        return {
          body: token,
          headers: {
            'content-type': 'application/statuslist+jwt',
            'cache-control': `public, max-age=${Math.max(0, STATUS_MAX_AGE_SECONDS - age)}`,
            'last-modified': new Date(signedAt * 1000).toUTCString(),
          },
        };
      },
    }),

    route({
      method: 'get',
      path: '/credentials/types/{type}',
      summary: 'The SD-JWT VC type metadata of a credential Signet issues (its `vct`)',
      tag: TAG,
      auth: anyone,
      params: typeParams,
      cache: { publicMaxAgeSeconds: 3600 },
      responses: { 200: { description: 'Type metadata', schema: z.record(z.string(), z.unknown()) } },
      refusals: ['credential_type_unknown'],
      async handle({ params }) {
        const type = deps.types.find((each) => each.vct.endsWith(`/${params.type}`));
        if (!type) throw refuse('credential_type_unknown', `no credential type "${params.type}"`);
        return { body: typeMetadataOf(type, deps.thresholds) };
      },
    }),

    route({
      method: 'get',
      path: '/.well-known/jwt-vc-issuer',
      summary: 'The keys Signet signs credentials with (JWT VC Issuer Metadata)',
      tag: TAG,
      auth: anyone,
      cache: { publicMaxAgeSeconds: 300 },
      responses: {
        200: { description: 'issuer and jwks', schema: z.object({ issuer: z.string(), jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) }) },
      },
      async handle() {
        return { body: { issuer: deps.issuer, jwks: { keys: [{ ...publicJwkOf(deps.key), kid: deps.key.kid, alg: 'ES256', use: 'sig' }] } } };
      },
    }),
  ];
}
