// Checks an HTTP answer against Signet's /openapi.json: the operation and status must be
// documented and the body must match the schema given there. The test harness runs it on
// every answer of every app it starts (contract_check.ts); tests may call it directly too.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from '../../src/http/openapi.js';

type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export type OpenApiValidator = {
  /** The documented path template a concrete path falls under, if any. */
  templateOf(path: string): string | undefined;
  /** Throws, naming what is wrong, unless the answer is what the document says. */
  assertMatches(method: string, url: string, status: number, body: unknown): void;
};

export function openApiValidator(document: OpenApiDocument): OpenApiValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document as unknown as object, 'openapi.json');
  const paths = document.paths as Record<string, Record<string, Operation>>;
  // Literal segments first, so /account/inbox is not taken for a parameter.
  const templates = Object.keys(paths)
    .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }))
    .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));

  const templateOf = (path: string) => templates.find(({ pattern }) => pattern.test(path))?.template;

  return {
    templateOf,
    assertMatches(method, url, status, body) {
      const path = new URL(url, 'http://signet.invalid').pathname;
      const template = templateOf(path);
      if (!template) throw new Error(`${method} ${path} is not in /openapi.json`);
      const operation = paths[template]![method.toLowerCase()];
      if (!operation) throw new Error(`${method} ${template} is not in /openapi.json`);
      const documented = operation.responses[String(status)];
      if (!documented) throw new Error(`${method} ${template} answered ${status}, which /openapi.json does not document`);
      if (!documented.content) {
        // A documented answer without content (204) must come without a body.
        if (body !== undefined && body !== null && body !== '' && !(typeof body === 'object' && Object.keys(body).length === 0)) {
          throw new Error(`${method} ${path} ${status} must have no body`);
        }
        return;
      }
      const where = pointer('paths', template, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema');
      const validate = ajv.getSchema(`openapi.json#/${where}`);
      if (!validate) throw new Error(`no schema for ${method} ${template} ${status}`);
      if (!validate(body)) {
        throw new Error(`${method} ${path} ${status} does not match /openapi.json: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
      }
    },
  };
}
