// The harness's answer check on the routes kept out of the document (a page's form posts): an
// API caller's refusal in JSON passes when the route's declaration gives its reason, with the
// reason's status, and fails otherwise; any other JSON answer of such a route fails.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { z } from 'zod';
import { anyone } from '../../src/http/authenticators.js';
import { openApiDocumentOf } from '../../src/http/openapi.js';
import { route } from '../../src/http/route.js';
import { contractCheck } from '../support/contract_check.js';

const form = route({
  method: 'post',
  path: '/pages/{id}/form',
  summary: 'A form',
  tag: 'Pages',
  auth: anyone,
  bodyLimit: 'form',
  body: z.object({ topic: z.string() }),
  responses: { 302: { description: 'Back' } },
  refusals: ['claim_topic_unknown'],
  undocumented: true,
  handle: async () => ({}),
});
const check = contractCheck(openApiDocumentOf([form]), [form]);
/** What the app answers next: status and body. */
let next: { status: number; body: unknown } = { status: 302, body: undefined };

let server: Server;
let base: string;
beforeAll(async () => {
  const app = new Koa();
  app.use(check.middleware);
  app.use((ctx) => {
    ctx.status = next.status;
    if (next.body !== undefined) ctx.body = next.body;
  });
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function answered(status: number, body: unknown, path = '/pages/abc/form') {
  next = { status, body };
  check.violations.length = 0;
  await fetch(`${base}${path}`, { method: 'POST' });
  return [...check.violations];
}

const refusal = (reason: string, error = 'invalid_request') => ({ error, error_description: 'no', reason });

test("a declared refusal (its own, or the pipeline's) with its reason's status passes", async () => {
  expect(await answered(400, refusal('claim_topic_unknown'))).toEqual([]);
  expect(await answered(400, refusal('invalid_body'))).toEqual([]);
  expect(await answered(413, refusal('body_too_large', 'payload_too_large'))).toEqual([]);
});

test('a reason the declaration does not give, a wrong status, or any other JSON answer fails', async () => {
  expect(await answered(404, refusal('grant_not_found', 'not_found'))).toEqual([
    'POST /pages/{id}/form answered 404 with reason grant_not_found, which its declaration does not give',
  ]);
  expect(await answered(409, refusal('claim_topic_unknown'))).toEqual(['POST /pages/{id}/form answered claim_topic_unknown with 409']);
  expect(await answered(200, { ok: true })).toEqual(['POST /pages/{id}/form answered 200 JSON that is not a refusal, and is not in /openapi.json']);
  expect(await answered(400, refusal('claim_topic_unknown'), '/elsewhere')).toEqual(['POST /elsewhere answered 400 JSON, and is not in /openapi.json']);
});
