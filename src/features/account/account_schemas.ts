// The request and answer forms of the owner's account API, for the route table and /openapi.json.
import { z } from 'zod';
import { address, addressField, bytes32, bytes32Field, chainIdField, dateTime, identityChainId, walletIdentities } from '../../http/schemas.js';

const hexField = (what: string) => z.string({ error: `must be ${what}` }).regex(/^0x([0-9a-fA-F]{2})*$/, `must be ${what}`);

// Requests.
export const challengeBody = z.object({
  address: addressField,
  identity: addressField.optional(),
  chain_id: chainIdField(
    "The identity's chain (default: with `identity`, the first configured chain; without it, with several chains, the wallet is looked up on every chain, and several identities are answered as a choice)",
  ),
});

export const walletChangeBody = z.object({
  address: addressField,
  purpose: z.enum(['management', 'action'], { error: 'must be "management" or "action"' }),
  action: z.enum(['add', 'remove'], { error: 'must be "add" or "remove"' }),
});

export const claimChangeBody = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('remove'), claim_id: bytes32Field('a 0x-prefixed 32-byte claim id') }),
    z.object({
      action: z.literal('add'),
      claim: z.object({
        topic: z.number({ error: 'must be a number' }).int().nonnegative(),
        scheme: z.number({ error: 'must be a number' }).int().nonnegative(),
        issuer: addressField,
        signature: hexField('0x-prefixed hex'),
        data: hexField('0x-prefixed hex'),
        uri: z.string({ error: 'must be a string' }),
      }),
    }),
  ],
  { error: 'must be "add" or "remove"' },
);

export const webhookBody = z.object({
  url: z.url({ error: 'must be an absolute URL' }).refine((url) => /^https?:/.test(url), 'must be an http(s) URL'),
  secret: z.string().min(16, 'needs at least 16 characters').optional(),
});

export const transactionPath = z.object({ hash: bytes32Field('a 0x-prefixed 32-byte transaction hash') });
export const consentPath = z.object({ grantId: z.string().min(1).max(256) });

// Answers.
export const signInChallenge = z
  .strictObject({
    identity: address.nullable().meta({ description: 'The identity signed in to; null for a wallet that will create one' }),
    chain_id: z.number().int().optional().meta({ description: "With several chains: the identity's chain, named in the text (`Chain ID`)" }),
    chain_name: z.string().optional().meta({ description: "With several chains: the chain's name" }),
    challenge: z.string().meta({ description: 'EIP-4361 text for the wallet to sign' }),
    expires_at: dateTime,
  })
  .meta({ id: 'AccountChallenge' });

/** The wallet has identities on several chains: the owner chooses one, and asks again with its chain_id. */
export const signInChoice = z
  .strictObject({
    choose: walletIdentities,
  })
  .meta({ id: 'AccountIdentityChoice' });

export const accountSession = z
  .strictObject({
    identity: address.nullable(),
    wallet: address,
    created_at: dateTime,
    chain_id: z.number().int().optional().meta({ description: "With several chains: the identity's chain" }),
    csrf_token: z.string().meta({
      description: "The session's form token: send it as X-CSRF-Token with every request that changes something under the session (the account's pages do)",
    }),
  })
  .meta({ id: 'AccountSession' });

export const identityCreation = z
  .strictObject({
    wallet: address,
    status: z.enum(['pending', 'deployed', 'failed']),
    transaction: bytes32.nullable().meta({ description: 'The deployment transaction; null for an identity deployed earlier' }),
    identity: address.nullable(),
    error: z.string().optional(),
    started_at: dateTime,
  })
  .meta({ id: 'IdentityCreation' });

export const preparedTransaction = z
  .strictObject({
    to: address,
    data: z.string().regex(/^0x[0-9a-f]*$/),
    description: z.string(),
  })
  .meta({ id: 'PreparedTransaction', description: "A transaction for the owner's wallet to send to the identity" });

export const transactionStatus = z.strictObject({ hash: bytes32, status: z.enum(['pending', 'confirmed', 'failed']) }).meta({ id: 'TransactionStatus' });

export const ownerWebhook = z.strictObject({ url: z.string().nullable() }).meta({ id: 'OwnerWebhook' });

export const ownerWebhookSet = z
  .strictObject({
    url: z.string(),
    secret: z.string().meta({ description: 'Signs each delivery; shown only in this answer' }),
    events: z.array(z.literal('access_request.created')),
  })
  .meta({ id: 'OwnerWebhookSet' });

export const consentReceipt = z
  .strictObject({
    grant_id: z.string(),
    client_id: z.string(),
    identity: address,
    chain_id: identityChainId,
    wallet: address,
    fields: z.array(z.string()),
    claims: z.array(bytes32),
    verified: z
      .array(z.strictObject({ claim_id: bytes32, claims: z.array(z.string()) }))
      .optional()
      .meta({ description: 'The verified claims shared as verified_claims, claim by claim; the text names each as a resource' }),
    message: z.string().meta({ description: 'The exact text the owner signed' }),
    signature: z.string(),
    signed_at: dateTime,
  })
  .meta({ id: 'ConsentReceipt' });

export const consentList = z.strictObject({ identity: address, consents: z.array(consentReceipt) }).meta({ id: 'ConsentList' });
export type ChallengeBody = z.infer<typeof challengeBody>;
