// The engine's CIBA (poll mode) hooks: the login_hint names the identity (its address, which
// means the default chain, or its CAIP-10 id on any chain served); the "authentication device"
// is the owner's Signet inbox.
import { type Configuration, errors } from 'oidc-provider';
import { getAddress } from 'viem';
import { refuse, SignetError } from '../../base/errors.js';
import { isEthereumAddress } from '../../base/ethereum_address.js';
import type { RateLimitSettings } from '../../config/config.js';
import { type BackchannelInbox, backchannelChallenge } from '../../domain/backchannel/backchannel_inbox.js';
import type { FieldDefinition } from '../../domain/fields/fields.js';
import { requestedFields } from '../../domain/fields/fields.js';
import type { IdentityRegistry } from '../../domain/identity/identity_registry.js';
import { parseSubject, subjectOf } from '../../domain/identity/subject.js';
import { clientAddress } from '../../http/client_address.js';
import type { ChainSet, ServedChain } from '../../infra/chain/chains.js';
import type { RateLimits } from '../../infra/rate_limits/rate_limits.js';

export type CibaDeps = {
  issuer: string;
  /** Each chain's identity reads. */
  chains: Pick<ChainSet<ServedChain & { registry: IdentityRegistry }>, 'named' | 'get'>;
  inbox: BackchannelInbox;
  fields: () => readonly FieldDefinition[];
  now: () => number;
  limits: Pick<RateLimits, 'consumeAll'>;
  config: { rateLimits: Pick<RateLimitSettings, 'backchannelPendingPerIdentity'> };
};

/** 429 for an inbox already holding its bound, with the time until its first request expires. */
function inboxFull(atMost: number, secondsLeft: number) {
  const retryAfterSeconds = Math.max(1, Math.ceil(secondsLeft));
  return refuse('rate_limited', `at most ${atMost} backchannel login requests wait for one identity; try again in ${retryAfterSeconds} s`, {
    retryAfterSeconds,
  });
}

export function cibaFeature(deps: CibaDeps): NonNullable<NonNullable<Configuration['features']>['ciba']> {
  return {
    enabled: true,
    deliveryModes: ['poll'],
    async processLoginHint(ctx, loginHint) {
      if (!loginHint) throw new errors.UnknownUserId('login_hint must name the identity');
      // A bare address means the default chain; a CAIP-10 id names its chain.
      const named = isEthereumAddress(loginHint) ? { chainId: undefined, identity: getAddress(loginHint) } : parseSubject(loginHint);
      if (!named) throw new errors.UnknownUserId('login_hint must be an identity address or its CAIP-10 id');
      const on = named.chainId === undefined ? deps.chains.named(undefined) : deps.chains.get(named.chainId);
      if (!on) throw new errors.UnknownUserId(`chain ${named.chainId} is not one this Signet serves`);
      const { chainId } = on;
      const { identity } = named;
      // Counted, and the inbox's bound checked, before the chain is asked whether the identity
      // exists (decision 63): a refused start costs a few Redis reads and no eth_call.
      const subject = subjectOf(chainId, identity);
      await deps.limits.consumeAll([
        ['backchannelStartsPerAddress', clientAddress(ctx)],
        ['backchannelStartsPerClient', ctx.oidc.client?.clientId ?? '-'],
        ['backchannelStartsPerIdentity', subject],
      ]);
      const atMost = deps.config.rateLimits.backchannelPendingPerIdentity;
      const waiting = await deps.inbox.pendingFor(identity, on.idInRecords);
      if (waiting.length >= atMost) {
        const firstEnds = Math.min(...waiting.map((request) => Date.parse(request.expires_at)));
        throw inboxFull(atMost, (firstEnds - deps.now()) / 1000);
      }
      try {
        await on.registry.assertKnown(identity);
      } catch (error) {
        // Only the factory's "unknown" is the client's problem; a chain outage stays a 503.
        if (error instanceof SignetError && error.reason === 'identity_not_found') {
          throw new errors.UnknownUserId('the identity is not registered with the IdFactory');
        }
        throw error;
      }
      return subject;
    },
    async processLoginHintToken() {
      throw new errors.InvalidRequest('login_hint_token is not supported: send login_hint');
    },
    async verifyUserCode(_ctx, _account, userCode) {
      if (userCode) throw new errors.InvalidRequest('user_code is not supported');
    },
    async validateRequestContext() {},
    // Shown to the owner beside the text to sign: short, and plain characters only.
    async validateBindingMessage(_ctx, bindingMessage) {
      if (bindingMessage !== undefined && !/^[a-zA-Z0-9-._+/!?#]{1,20}$/.test(bindingMessage)) {
        throw new errors.InvalidBindingMessage('binding_message must be 1 to 20 letters, digits or -._+/!?#');
      }
    },
    async triggerAuthenticationDevice(_ctx, request, account, client) {
      const { chainId, identity } = parseSubject(account.accountId)!;
      const { idInRecords } = deps.chains.named(chainId);
      const claimsParameter = request.claims ? request.claims : undefined;
      const fields = requestedFields(deps.fields(), String(request.params?.scope ?? request.scope ?? ''), claimsParameter);
      const created = deps.now();
      // The engine's `expiration` is the request's life in seconds, not an epoch time.
      const expiresIn = request.expiration || 600;
      const base = {
        id: request.jti,
        identity,
        ...(idInRecords === undefined ? {} : { chain_id: idInRecords }),
        client_id: client.clientId,
        client_name: client.clientName ?? client.clientId,
        fields: fields.map((field) => field.name),
        scope: String(request.params?.scope ?? ''),
        binding_message: (request.params?.binding_message as string | undefined) ?? null,
        created_at: new Date(created).toISOString(),
        expires_at: new Date(created + expiresIn * 1000).toISOString(),
      };
      const challenge = backchannelChallenge(
        base,
        deps.issuer,
        account.accountId,
        fields.map((field) => field.label),
      );
      // The bound again, atomically: of starts racing past the check above, at most the bound are filed.
      const atMost = deps.config.rateLimits.backchannelPendingPerIdentity;
      if (!(await deps.inbox.file({ ...base, challenge }, expiresIn, atMost))) throw inboxFull(atMost, expiresIn);
    },
  };
}
