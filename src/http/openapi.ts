// The OpenAPI 3.1 document of Signet's own routes, made from the route table: paths, callers,
// parameters, bodies, answers and every refusal with its reasons. Nothing here is written per
// route. The engine's OIDC endpoints are described by discovery, not here. Served at
// /openapi.json; the test harness checks every answer of the test suite against it.
import { z } from 'zod';
import { type ErrorCode, statusOfCode } from '../base/error_codes.js';
import { PREVIOUS_REASON_UNTIL, REASONS, REPLACED_REASONS, type Reason } from '../base/reasons.js';
import type { AuthKind } from './authenticators.js';
import { BODY_LIMITS } from './body.js';
import type { AnyRoute } from './route.js';

type JsonSchema = Record<string, unknown>;

const securityOf: Record<AuthKind, Record<string, string[]>[] | undefined> = {
  none: undefined,
  owner_session: [{ ownerSession: [] }],
  wallet_session: [{ ownerSession: [] }],
  sign_in: [{ signInCookie: [] }],
  api_key: [{ apiKey: [] }],
  api_key_or_owner_session: [{ apiKey: [] }, { ownerSession: [] }],
  grant_credential: [{}, { bearer: [] }, { apiKey: [] }],
  admin_token: [{ adminToken: [] }],
  interaction_cookie: [{ interactionCookie: [] }],
  ssf_token: [{ ssfToken: [] }],
};

const securitySchemes = {
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: "A service's API key (sgk_…)" },
  bearer: { type: 'http', scheme: 'bearer', description: 'A grant token (sgt_…) or an OIDC access token' },
  ownerSession: { type: 'apiKey', in: 'cookie', name: 'signet_account', description: 'From POST /account/session' },
  signInCookie: { type: 'apiKey', in: 'cookie', name: 'signet_account_login', description: 'From POST /account/challenge' },
  adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
  interactionCookie: { type: 'apiKey', in: 'cookie', name: '_interaction', description: "The engine's cookie of the login under way" },
  ssfToken: { type: 'http', scheme: 'bearer', description: 'An access token of the client credentials grant with scope ssf (POST /token)' },
};

/** Refusals every route may answer with, whatever its logic. */
const EVERY_ROUTE: Reason[] = ['store_unavailable', 'server_error'];
/** The bounded body read runs on every route (a body sent where none is expected is bounded too). */
const BODY_READ: Reason[] = [
  'body_too_large',
  'content_encoding_unsupported',
  'content_type_unsupported',
  'charset_unsupported',
  'body_length_mismatch',
  'request_aborted',
  'invalid_utf8',
  'invalid_json',
  'json_too_deep',
  'string_too_long',
];
const FORM_READ: Reason[] = [...BODY_READ.filter((reason) => !['invalid_json', 'json_too_deep'].includes(reason)), 'form_too_many_fields'];

/** Every route checks its query's shape, one with no query schema too (each parameter once). */
const QUERY_SHAPE: Reason[] = ['query_parameter_repeated'];

/** Every refusal a route can answer with: its own, its caller check's, its inputs', the common ones. */
export function refusalsOf(route: AnyRoute): Reason[] {
  const all = new Set<Reason>([
    ...(route.bodyLimit === 'form' ? FORM_READ : BODY_READ),
    ...QUERY_SHAPE,
    ...route.auth.refusals,
    ...(route.rateLimits?.length ? (['rate_limited'] as const) : []),
    ...(route.params ? (['invalid_path'] as const) : []),
    ...(route.query ? (['invalid_query'] as const) : []),
    ...(route.body ? (['invalid_body'] as const) : []),
    ...(route.refusals ?? []),
    ...EVERY_ROUTE,
  ]);
  return [...all];
}

/** Converts one zod schema, moving its named parts ($defs) into the document's components. */
function converter(components: Record<string, JsonSchema>) {
  return (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
    const rewritten = JSON.parse(JSON.stringify(converted).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
    const { $schema: _, $defs, ...rest } = rewritten as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [name, definition] of Object.entries($defs ?? {})) {
      const key = io === 'input' && components[name] && JSON.stringify(components[name]) !== JSON.stringify(definition) ? `${name}Input` : name;
      components[key] = definition;
    }
    return rest;
  };
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query', convert: ReturnType<typeof converter>) {
  if (!schema) return [];
  const object = convert(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

const errorSchema = (reasons: Reason[]) => ({
  allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { reason: { enum: reasons } } }],
});

function errorResponses(route: AnyRoute): Record<string, unknown> {
  const byStatus = new Map<number, { codes: Set<ErrorCode>; reasons: Reason[] }>();
  for (const reason of refusalsOf(route)) {
    const code = REASONS[reason].error;
    const status = statusOfCode(code);
    const entry = byStatus.get(status) ?? { codes: new Set(), reasons: [] };
    entry.codes.add(code);
    entry.reasons.push(reason);
    byStatus.set(status, entry);
  }
  const retryAfter = { 'Retry-After': { description: 'Seconds after which trying again may succeed', schema: { type: 'integer' } } };
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, { reasons }]) => [
        String(status),
        {
          description: reasons.map((reason) => `\`${reason}\`: ${REASONS[reason].meaning}`).join(' '),
          ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
          content: { 'application/json': { schema: errorSchema(reasons) } },
        },
      ]),
  );
}

function operationOf(route: AnyRoute, convert: ReturnType<typeof converter>) {
  const limit = route.bodyLimit ?? 'api';
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(route.responses)) {
    responses[status] = {
      description: answer.description,
      ...(answer.headers
        ? { headers: Object.fromEntries(Object.entries(answer.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) }
        : {}),
      ...(answer.schema ? { content: { 'application/json': { schema: convert(answer.schema, 'output') } } } : {}),
    };
  }
  return {
    summary: route.summary,
    tags: [route.tag],
    ...(securityOf[route.auth.kind] ? { security: securityOf[route.auth.kind] } : {}),
    parameters: [...parametersOf(route.params, 'path', convert), ...parametersOf(route.query, 'query', convert)],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            description: `At most ${BODY_LIMITS[limit].bytes} bytes`,
            content: { [limit === 'form' ? 'application/x-www-form-urlencoded' : 'application/json']: { schema: convert(route.body, 'input') } },
          },
        }
      : {}),
    ...(route.rateLimits?.length ? { 'x-rate-limits': route.rateLimits.map(({ limit }) => limit) } : {}),
    // A refusal the route answers in its own form (readiness) is documented as declared.
    responses: { ...errorResponses(route), ...responses },
  };
}

/** The document of these routes, as served at /openapi.json. */
export function openApiDocumentOf(routes: readonly AnyRoute[], options: { issuer?: string } = {}) {
  const components: Record<string, JsonSchema> = {};
  const convert = converter(components);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.undocumented) continue;
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operationOf(route, convert);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Signet API',
      version: '1.0.0',
      description:
        "Signet's own routes: the login's consent interaction, the owner's account, access grants to identity data, CIBA decisions, the admin API and health. Errors are { error, error_description, reason }: match on `reason`, never on the sentence. Every query parameter is sent once, by its plain name: one sent twice, or in a list form (`name[]`, `name[key]`), is refused on every route (`query_parameter_repeated`).",
    },
    ...(options.issuer ? { servers: [{ url: options.issuer }] } : {}),
    components: {
      securitySchemes,
      schemas: {
        Error: {
          type: 'object',
          required: ['error', 'error_description', 'reason'],
          additionalProperties: false,
          properties: {
            error: { enum: [...new Set(Object.values(REASONS).map((entry) => entry.error))] },
            error_description: { type: 'string', description: 'A sentence for people; it may change' },
            reason: { enum: Object.keys(REASONS), description: 'Stable code of this refusal; match on it' },
            previous_reason: {
              enum: Object.keys(REPLACED_REASONS),
              description: `The older word \`reason\` replaced, sent until ${PREVIOUS_REASON_UNTIL}; match on \`reason\``,
              deprecated: true,
            },
          },
        },
        ...components,
      },
    },
    paths,
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocumentOf>;
