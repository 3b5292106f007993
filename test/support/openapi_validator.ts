// Checks an HTTP answer against /openapi.json: the operation and status must be documented
// and the body must match the schema given there. A test helper calls it on every response.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/http/openapi.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(openApiDocument as unknown as object, 'openapi.json');

const templates = Object.keys(openApiDocument.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export function assertMatchesOpenApi(method: string, url: string, status: number, body: unknown): void {
  const path = new URL(url, 'http://signet.invalid').pathname;
  const found = templates.find(({ pattern }) => pattern.test(path));
  if (!found) throw new Error(`${method} ${path} is not in /openapi.json`);
  const operation = (openApiDocument.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[found.template]![method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${found.template} is not in /openapi.json`);
  const documented = operation.responses[String(status)] as { content?: unknown } | undefined;
  if (!documented) throw new Error(`${method} ${found.template} answered ${status}, which /openapi.json does not document`);
  if (!documented.content) {
    // A documented answer without content (204) must come without a body.
    if (body !== undefined && !(typeof body === 'object' && body !== null && Object.keys(body).length === 0)) {
      throw new Error(`${method} ${path} ${status} must have no body`);
    }
    return;
  }
  const validate = ajv.getSchema(`openapi.json#/${pointer('paths', found.template, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`);
  if (!validate) throw new Error(`no schema for ${method} ${found.template} ${status}`);
  if (!validate(body)) {
    throw new Error(`${method} ${path} ${status} does not match /openapi.json: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
  }
}
