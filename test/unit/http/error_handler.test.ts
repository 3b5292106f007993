// Client errors a library throws (http-errors, as raw-body and co-body do) keep their 4xx in
// Signet's shape with a reason; anything else is a 500 that shows nothing of its cause.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { refuse } from '../../../src/base/errors.js';
import { PREVIOUS_REASON_UNTIL } from '../../../src/base/reasons.js';
import { errorHandler } from '../../../src/http/error_handler.js';
import { silentLogger } from '../../../src/infra/observability/logger.js';

async function answerTo(thrown: unknown) {
  const app = new Koa();
  app.use(errorHandler(() => {}, silentLogger));
  app.use(() => {
    throw thrown;
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: 'POST' });
    return { status: response.status, json: await response.json() };
  } finally {
    server.close();
  }
}

const httpError = (status: number, expose = true) => Object.assign(new Error('raw library message'), { status, expose });

test.each([
  [413, { error: 'payload_too_large', error_description: 'the request body is too large', reason: 'body_too_large' }],
  [415, { error: 'unsupported_media_type', error_description: 'the request body is in a form Signet does not read', reason: 'content_type_unsupported' }],
  [400, { error: 'invalid_request', error_description: 'the request body cannot be read', reason: 'unreadable_body' }],
])('a library client error %i keeps its status', async (status, json) => {
  expect(await answerTo(httpError(status))).toEqual({ status, json });
});

test('an unexposed or unknown error is a 500 without its message', async () => {
  const hidden = { status: 500, json: { error: 'server_error', error_description: 'Signet could not complete the request', reason: 'server_error' } };
  expect(await answerTo(httpError(413, false))).toEqual(hidden);
  expect(await answerTo(new RangeError('Maximum call stack size exceeded'))).toEqual(hidden);
});

test('a reason that replaced an older word names that word as previous_reason until the transition ends', async () => {
  const merged = refuse('token_revoked', 'the access grant of this token was revoked', { previous: 'grant_revoked' });
  expect(await answerTo(merged)).toEqual({
    status: 401,
    json: {
      error: 'invalid_token',
      error_description: 'the access grant of this token was revoked',
      reason: 'token_revoked',
      previous_reason: 'grant_revoked',
    },
  });
  // The same reason thrown where it was always sent carries no previous_reason.
  expect((await answerTo(refuse('token_invalid', 'the access token is invalid'))).json).not.toHaveProperty('previous_reason');
  // @ts-expect-error: grant_revoked was replaced by token_revoked, not by client_not_found.
  expect(() => refuse('client_not_found', 'x', { previous: 'grant_revoked' })).toThrow('replaced by token_revoked');

  const realNow = Date.now;
  const lastSecond = Date.parse(`${PREVIOUS_REASON_UNTIL}T23:59:59Z`);
  try {
    Date.now = () => lastSecond;
    expect(merged.toJSON()).toHaveProperty('previous_reason', 'grant_revoked');
    Date.now = () => lastSecond + 1000;
    expect(merged.toJSON()).toEqual({ error: 'invalid_token', error_description: 'the access grant of this token was revoked', reason: 'token_revoked' });
  } finally {
    Date.now = realNow;
  }
});
