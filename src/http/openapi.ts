// The OpenAPI 3.1 description of Signet's own JSON API (access grants, resources, the owner's
// inbox, CIBA decisions, admin). The engine's OIDC endpoints are described by discovery.
// Served at /openapi.json; the tests validate every response they get against it.

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(ref('Error'), description);
const address = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' };
const bytes32 = { type: 'string', pattern: '^0x[0-9a-f]{64}$' };
const dateTime = { type: 'string', format: 'date-time' };
const apiKey = [{ apiKey: [] }];
const ownerSession = [{ ownerSession: [] }];
const admin = [{ adminToken: [] }];

/** One claim's view; with `data` when a grant releases its off-chain data. */
function claimSchema(withData: boolean) {
  const required = ['identity', 'claim_id', 'topic', 'topic_name', 'issuer', 'trusted', 'valid', 'status', 'scheme', 'data_hash', 'uri', 'expires_at'];
  return {
    type: 'object',
    required: withData ? [...required, 'data'] : required,
    additionalProperties: false,
    properties: {
      identity: address,
      claim_id: bytes32,
      topic: { type: 'integer' },
      topic_name: { type: ['string', 'null'] },
      issuer: address,
      trusted: { type: 'boolean' },
      valid: { type: 'boolean' },
      status: { enum: ['valid', 'untrusted_issuer', 'not_confirmed_by_issuer', 'expired'] },
      scheme: { type: 'integer' },
      data_hash: { type: 'string' },
      uri: { type: 'string' },
      expires_at: { oneOf: [dateTime, { type: 'null' }] },
      ...(withData ? { data: { type: 'object' } } : {}),
    },
  };
}

const identityParam = { name: 'identity', in: 'path', required: true, schema: address };
const claimIdParam = { name: 'claimId', in: 'path', required: true, schema: bytes32 };
const serviceIdParam = { name: 'serviceId', in: 'path', required: true, schema: { type: 'string' } };
const keyIdParam = { name: 'keyId', in: 'path', required: true, schema: { type: 'string' } };
const grantIdParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

const accessRequest = (what: string, parameters: object[]) => ({
  post: {
    summary: `Request an access grant to ${what}`,
    security: apiKey,
    parameters,
    requestBody: { required: true, content: { 'application/json': { schema: ref('AccessRequestBody') } } },
    responses: {
      201: {
        ...json(ref('AccessRequestCreated'), 'The pending grant and the challenge for the owner to sign'),
        headers: { Location: { description: '/access-grants/{id}', schema: { type: 'string' } } },
      },
      400: error('Bad body, or fields the resource does not have'),
      401: error('Missing or invalid API key'),
      404: error('Unknown identity or claim'),
    },
  },
});

const resourceRead = (what: string, parameters: object[], publicSchema: string, privateSchema: string) => ({
  get: {
    summary: `Read ${what}: the public part, or the private part with a credential`,
    security: [{}, { bearer: [] }, ...apiKey],
    parameters,
    responses: {
      200: json({ oneOf: [ref(publicSchema), ref(privateSchema)] }, 'The resource'),
      400: error('Bad path'),
      401: error('Invalid token or API key'),
      403: error('No grant covers this resource, the grant was revoked, or the claim is not valid'),
      404: error('Unknown identity or claim'),
      409: error('The immediate grant was already used, or claim data does not match its hash'),
      410: error('The claim expired'),
    },
  },
});

const document = {
  openapi: '3.1.0',
  info: {
    title: 'Signet access-grant API',
    version: '1.0.0',
    description:
      'Immediate and persistent access grants to identity data (profile fields, onchain claims), signed by the identity owner. Errors are { error, error_description }.',
  },
  components: {
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      bearer: { type: 'http', scheme: 'bearer', description: 'A grant token (sgt_…) or an OIDC access token' },
      ownerSession: { type: 'apiKey', in: 'cookie', name: 'signet_account', description: 'From POST /account/session' },
      adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
    },
    schemas: {
      Error: {
        type: 'object',
        required: ['error', 'error_description'],
        additionalProperties: false,
        properties: {
          error: {
            enum: [
              'invalid_request',
              'invalid_token',
              'invalid_client',
              'access_denied',
              'insufficient_scope',
              'not_found',
              'conflict',
              'expired',
              'invalid_signature',
              'payload_too_large',
              'unsupported_media_type',
              'rate_limited',
              'temporarily_unavailable',
              'server_error',
            ],
          },
          error_description: { type: 'string' },
          reason: { type: 'string', pattern: '^[a-z][a-z0-9_]*$', description: 'Stable code of this refusal; match on it, not on the sentence' },
        },
      },
      Readiness: {
        type: 'object',
        required: ['checks'],
        properties: {
          status: { const: 'ready' },
          error: { const: 'temporarily_unavailable' },
          error_description: { type: 'string' },
          reason: { enum: ['store_unavailable', 'chain_unavailable'] },
          checks: {
            type: 'object',
            required: ['store', 'chain'],
            properties: { store: { enum: ['ok', 'unreachable'] }, chain: { enum: ['ok', 'unreachable'] } },
          },
        },
      },
      AccessRequestBody: {
        type: 'object',
        required: ['kind'],
        properties: { kind: { enum: ['immediate', 'persistent'] }, fields: { type: 'array', items: { type: 'string' } } },
      },
      AccessRequestCreated: {
        type: 'object',
        required: ['id', 'kind', 'status', 'fields', 'challenge', 'expires_at'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          kind: { enum: ['immediate', 'persistent'] },
          status: { const: 'pending' },
          fields: { type: 'array', items: { type: 'string' } },
          challenge: { type: 'string', description: 'EIP-191 text for the owner to sign' },
          expires_at: dateTime,
        },
      },
      AccessGrant: {
        type: 'object',
        required: ['id', 'kind', 'status', 'identity', 'service', 'resource', 'fields', 'challenge', 'created_at', 'expires_at'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          kind: { enum: ['immediate', 'persistent'] },
          status: { enum: ['pending', 'active', 'used', 'revoked', 'expired', 'denied'] },
          identity: address,
          service: { type: 'string' },
          resource: { type: 'string' },
          fields: { type: 'array', items: { type: 'string' } },
          challenge: { type: 'string' },
          signature: { type: 'string' },
          signer: address,
          created_at: dateTime,
          expires_at: dateTime,
          granted_at: dateTime,
          used_at: dateTime,
          revoked_at: dateTime,
          denied_at: dateTime,
        },
      },
      LoginGrant: {
        type: 'object',
        description: 'An OIDC login, listed with the access grants for its owner',
        required: ['id', 'kind', 'status', 'identity', 'service', 'resource', 'fields', 'claims', 'challenge', 'signature', 'signer', 'created_at', 'granted_at'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          kind: { const: 'login' },
          status: { enum: ['active', 'revoked'] },
          identity: address,
          service: { type: 'string' },
          resource: { type: 'null' },
          fields: { type: 'array', items: { type: 'string' } },
          claims: { type: 'array', items: bytes32 },
          challenge: { type: 'string' },
          signature: { type: 'string' },
          signer: address,
          created_at: dateTime,
          granted_at: dateTime,
        },
      },
      Validation: {
        type: 'object',
        required: ['grant', 'access_token', 'token_type', 'expires_in'],
        additionalProperties: false,
        properties: {
          grant: ref('AccessGrant'),
          access_token: { type: 'string', pattern: '^sgt_' },
          token_type: { const: 'Bearer' },
          expires_in: { type: 'integer' },
        },
      },
      GrantPage: {
        type: 'object',
        required: ['items', 'next_cursor'],
        additionalProperties: false,
        properties: {
          items: { type: 'array', items: { oneOf: [ref('AccessGrant'), ref('LoginGrant')] } },
          next_cursor: { type: ['string', 'null'] },
        },
      },
      ProfilePublic: {
        type: 'object',
        required: ['identity', 'fields'],
        additionalProperties: false,
        properties: { identity: address, fields: { type: 'array', items: { type: 'string' } } },
      },
      ProfilePrivate: {
        type: 'object',
        required: ['identity', 'fields', 'values'],
        additionalProperties: false,
        properties: { identity: address, fields: { type: 'array', items: { type: 'string' } }, values: { type: 'object' } },
      },
      Claim: claimSchema(false),
      ClaimWithData: claimSchema(true),
      BackchannelRequest: {
        type: 'object',
        required: ['id', 'identity', 'client_id', 'client_name', 'fields', 'scope', 'binding_message', 'challenge', 'created_at', 'expires_at'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          identity: address,
          client_id: { type: 'string' },
          client_name: { type: 'string' },
          fields: { type: 'array', items: { type: 'string' } },
          scope: { type: 'string' },
          binding_message: { type: ['string', 'null'] },
          challenge: { type: 'string' },
          created_at: dateTime,
          expires_at: dateTime,
        },
      },
      Inbox: {
        type: 'object',
        required: ['identity', 'pending', 'backchannel'],
        additionalProperties: false,
        properties: {
          identity: address,
          pending: { type: 'array', items: ref('AccessGrant') },
          backchannel: { type: 'array', items: ref('BackchannelRequest') },
        },
      },
      ApiKey: {
        type: 'object',
        required: ['id', 'prefix', 'service', 'label', 'created_at'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          prefix: { type: 'string', pattern: '^sgk_' },
          service: { type: 'string' },
          label: { type: ['string', 'null'] },
          created_at: dateTime,
          last_used_at: dateTime,
          revoked_at: dateTime,
          replaced_by: { type: 'string' },
        },
      },
      NewApiKey: {
        type: 'object',
        required: ['id', 'key', 'prefix', 'service', 'label', 'created_at'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          key: { type: 'string', pattern: '^sgk_', description: 'Shown once' },
          prefix: { type: 'string' },
          service: { type: 'string' },
          label: { type: ['string', 'null'] },
          created_at: dateTime,
        },
      },
    },
  },
  paths: {
    '/healthz': {
      get: {
        summary: 'Liveness: the process runs',
        responses: { 200: json({ type: 'object', required: ['status'], properties: { status: { const: 'ok' } } }, 'Alive') },
      },
    },
    '/readyz': {
      get: {
        summary: 'Readiness: Redis and the chain answer within the deadline',
        responses: {
          200: json(ref('Readiness'), 'Ready'),
          503: json({ allOf: [ref('Readiness')], type: 'object', required: ['error', 'error_description', 'reason', 'checks'] }, 'Redis or the chain does not answer'),
        },
      },
    },
    '/identities/{identity}/profile': resourceRead('the profile', [identityParam], 'ProfilePublic', 'ProfilePrivate'),
    '/identities/{identity}/profile/access-requests': accessRequest('the profile', [identityParam]),
    '/identities/{identity}/claims/{claimId}': resourceRead('one claim', [identityParam, claimIdParam], 'Claim', 'ClaimWithData'),
    '/identities/{identity}/claims/{claimId}/access-requests': accessRequest('one claim', [identityParam, claimIdParam]),
    '/access-grants': {
      get: {
        summary: "List grants: the owner's (access grants and OIDC logins) or the service's own",
        security: [...apiKey, ...ownerSession],
        parameters: [
          { name: 'identity', in: 'query', schema: address },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
        ],
        responses: { 200: json(ref('GrantPage'), 'One page, newest first'), 400: error('Bad cursor or limit'), 401: error('No credential'), 403: error('Another identity') },
      },
    },
    '/access-grants/{id}': {
      get: {
        summary: 'One grant, to its service or its owner',
        security: [...apiKey, ...ownerSession],
        parameters: [grantIdParam],
        responses: { 200: json(ref('AccessGrant'), 'The grant'), 401: error('No credential'), 404: error('No such grant for the caller') },
      },
    },
    '/access-grants/{id}/validations': {
      post: {
        summary: "Validate a pending grant with the owner's signature of its challenge",
        parameters: [grantIdParam],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['signature'], properties: { signature: { type: 'string' }, address } } } },
        },
        responses: {
          200: json(ref('Validation'), 'The active grant and its bearer token'),
          400: error('Bad body'),
          403: error('The signer is not linked to the identity'),
          404: error('No such grant'),
          409: error('The grant is not pending'),
          410: error('The request expired'),
          422: error('The signature does not verify'),
        },
      },
    },
    '/access-grants/{id}/denials': {
      post: {
        summary: 'The owner denies a pending grant',
        security: ownerSession,
        parameters: [grantIdParam],
        responses: { 200: json(ref('AccessGrant'), 'The denied grant'), 401: error('No session'), 404: error('No such grant'), 409: error('Not pending'), 410: error('Expired') },
      },
    },
    '/access-grants/{id}/revocations': {
      post: {
        summary: 'The owner revokes a grant (an access grant or an OIDC login)',
        security: [...ownerSession, {}],
        parameters: [grantIdParam],
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { signature: { type: 'string' } } } } } },
        responses: {
          200: json({ oneOf: [ref('AccessGrant'), ref('LoginGrant')] }, 'The revoked grant'),
          401: error('Neither a session nor a signature'),
          403: error('The signer is not linked'),
          404: error('No such grant'),
          409: error('Not active'),
        },
      },
    },
    '/account/inbox': {
      get: {
        summary: "The owner's pending requests: access grants and CIBA logins",
        security: ownerSession,
        responses: { 200: json(ref('Inbox'), 'Pending requests'), 401: error('No session') },
      },
    },
    '/account/webhook': {
      get: {
        summary: "The owner's webhook URL, if any",
        security: ownerSession,
        responses: { 200: json({ type: 'object', required: ['url'], additionalProperties: false, properties: { url: { type: ['string', 'null'] } } }, 'The URL'), 401: error('No session') },
      },
      put: {
        summary: 'Set the owner\'s webhook: access_request.created events, signed with the secret (shown once)',
        security: ownerSession,
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['url'], properties: { url: { type: 'string' }, secret: { type: 'string' } } } } } },
        responses: {
          200: json(
            { type: 'object', required: ['url', 'secret', 'events'], additionalProperties: false, properties: { url: { type: 'string' }, secret: { type: 'string' }, events: { type: 'array', items: { type: 'string' } } } },
            'The webhook',
          ),
          400: error('Bad URL or secret; reason webhook_url_not_public (it resolves to a loopback, private, link-local or metadata address) or webhook_url_unresolvable'),
          401: error('No session'),
          503: error('The URL\'s host could not be resolved now (reason dns_unavailable)'),
        },
      },
      delete: { summary: "Remove the owner's webhook", security: ownerSession, responses: { 204: { description: 'Removed' }, 401: error('No session') } },
    },
    '/account/backchannel/{id}/approvals': {
      post: {
        summary: 'Approve a CIBA login request by signing its challenge',
        parameters: [grantIdParam],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['signature'], properties: { signature: { type: 'string' }, address } } } } },
        responses: {
          200: json({ type: 'object', required: ['id', 'status', 'grant_id'], properties: { id: { type: 'string' }, status: { const: 'approved' }, grant_id: { type: 'string' } } }, 'Approved'),
          403: error('The signer is not linked'),
          404: error('No such request'),
          409: error('Already decided'),
        },
      },
    },
    '/account/backchannel/{id}/denials': {
      post: {
        summary: 'Deny a CIBA login request',
        security: ownerSession,
        parameters: [grantIdParam],
        responses: {
          200: json({ type: 'object', required: ['id', 'status'], properties: { id: { type: 'string' }, status: { const: 'denied' } } }, 'Denied'),
          401: error('No session'),
          404: error('No such request'),
          409: error('Already decided'),
        },
      },
    },
    '/admin/services/{serviceId}/api-keys': {
      get: {
        summary: "A service's API keys (never the secrets)",
        security: admin,
        parameters: [serviceIdParam],
        responses: {
          200: json({ type: 'object', required: ['api_keys'], properties: { api_keys: { type: 'array', items: ref('ApiKey') } } }, 'Keys'),
          401: error('Bad admin token'),
          404: error('Unknown service'),
        },
      },
      post: {
        summary: 'Create an API key (shown once)',
        security: admin,
        parameters: [serviceIdParam],
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { label: { type: 'string' } } } } } },
        responses: { 201: json(ref('NewApiKey'), 'The new key'), 400: error('Bad body'), 401: error('Bad admin token'), 404: error('Unknown service') },
      },
    },
    '/admin/services/{serviceId}/api-keys/{keyId}/rotations': {
      post: {
        summary: 'Rotate a key: a new one, the old one revoked',
        security: admin,
        parameters: [
          serviceIdParam,
          keyIdParam,
        ],
        responses: { 201: json(ref('NewApiKey'), 'The new key'), 401: error('Bad admin token'), 404: error('Unknown key'), 409: error('Already revoked') },
      },
    },
    '/admin/services/{serviceId}/api-keys/{keyId}': {
      delete: {
        summary: 'Revoke a key',
        security: admin,
        parameters: [
          serviceIdParam,
          keyIdParam,
        ],
        responses: { 200: json(ref('ApiKey'), 'The revoked key'), 401: error('Bad admin token'), 404: error('Unknown key'), 409: error('Already revoked') },
      },
    },
  },
} as const;

/** Every operation that takes a body may also refuse it whole (src/http/body.ts): derived here. */
function withBodyRefusals<D extends { paths: Record<string, Record<string, object>> }>(doc: D): D {
  const paths = Object.fromEntries(
    Object.entries(doc.paths).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations).map(([method, operation]) => {
          const op = operation as { requestBody?: unknown; responses?: Record<string, unknown> };
          if (!op.requestBody) return [method, operation];
          const refusals = { 413: error('The body is larger than the route allows'), 415: error('A Content-Encoding or content type the route does not read') };
          return [method, { ...op, responses: { ...op.responses, ...refusals } }];
        }),
      ),
    ]),
  );
  return { ...doc, paths };
}

export const openApiDocument = withBodyRefusals(document);
