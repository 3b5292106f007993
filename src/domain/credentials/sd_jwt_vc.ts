// SD-JWT VCs (`dc+sd-jwt`) signed with Signet's credential key, made with the SD-JWT
// library: every claim named disclosable is a disclosure of its own, with its own salt, so a
// wallet shows a verifier one answer and nothing else. Nothing here names the owner: the
// holder is the wallet's key (`cnf`), and times are whole days, shared by everyone issued
// that day, so they link no two presentations.
import { createHash, createPrivateKey, randomBytes, sign } from 'node:crypto';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import type { SigningJwk } from '../../infra/keys/signing_keys.js';
import type { HolderKey } from './proof_checks.js';
import type { StatusSlot } from './status_lists.js';

export type SdJwtVcInput = {
  vct: string;
  /** The wallet's key, its public members only (proof_checks.ts): `cnf.jwk` is exactly these. */
  holder: HolderKey;
  /** When it stops standing (ms); rounded down to the day. */
  expiresAt: number;
  /** When it is issued (ms); rounded down to the day. */
  issuedAt: number;
  status: { uri: string; slot: StatusSlot };
  /** Claims in clear: each member of `disclosed` becomes a disclosure of its own. */
  claims: Record<string, unknown>;
  /** Which claims are disclosures: a top-level name, or `{ name: [members] }` for members of an object. */
  disclosed: { top: string[]; members: Record<string, string[]> };
};

export type SdJwtVcSigner = { issue(input: SdJwtVcInput): Promise<string> };

const DAY_S = 86_400;
const dayOf = (ms: number) => Math.floor(ms / 1000 / DAY_S) * DAY_S;

const hasher = (data: string | ArrayBuffer, alg: string) => {
  if (alg.toLowerCase() !== 'sha-256') throw new Error(`unsupported digest ${alg}`);
  return new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );
};

export function createSdJwtVcSigner(deps: { issuer: string; key: SigningJwk & { kid: string } }): SdJwtVcSigner {
  const privateKey = createPrivateKey({ key: deps.key as never, format: 'jwk' });
  const instance = new SDJwtVcInstance({
    hasher,
    hashAlg: 'sha-256',
    // 128 bits of salt per disclosure, from the system's generator.
    saltGenerator: (length: number) => randomBytes(length).toString('base64url'),
    signer: (input: string) => sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url'),
    signAlg: 'ES256',
  });
  return {
    async issue(input) {
      const frame: Record<string, unknown> = { _sd: input.disclosed.top };
      for (const [name, members] of Object.entries(input.disclosed.members)) frame[name] = { _sd: members };
      return instance.issue(
        {
          iss: deps.issuer,
          vct: input.vct,
          iat: dayOf(input.issuedAt),
          exp: dayOf(input.expiresAt),
          cnf: { jwk: { kty: input.holder.kty, crv: input.holder.crv, x: input.holder.x, y: input.holder.y } },
          status: { status_list: { idx: input.status.slot.index, uri: input.status.uri } },
          ...input.claims,
        },
        frame as never,
        { header: { kid: deps.key.kid } },
      );
    },
  };
}
