// The logger's last filter: whatever a message, a field or an error carries, a JWT, a
// signature-sized hex string or an e-mail address never reaches the output; addresses and
// hashes stay readable; errors are one line (viem's shortMessage, not its request dump).
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/observability/logger.js';
import { requestContext } from '../../../src/observability/request_context.js';

function capture() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger({ level: 'debug', destination }), text: () => chunks.join(''), lines: () => chunks.join('').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJlaXAxNTUifQ.c2lnbmF0dXJlLWJ5dGVz';
const SIGNATURE = `0x${'ab'.repeat(65)}`;
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TX_HASH = `0x${'cd'.repeat(32)}`;

test('tokens, signatures and e-mail addresses are blanked wherever they appear', () => {
  const { logger, text, lines } = capture();
  logger.info(`token ${JWT} from ada@example.org`);
  logger.warn('a field', { header: `Bearer ${JWT}`, signature: SIGNATURE, wallet: ADDRESS, tx: TX_HASH });
  const viemLike = Object.assign(new Error(`Execution reverted.\n\nRaw Call Arguments:\n  data: ${SIGNATURE}`), { shortMessage: 'Execution reverted.' });
  logger.error('chain call failed', viemLike);
  const out = text();
  for (const secret of [JWT, SIGNATURE, 'ada@example.org', 'Raw Call Arguments']) expect(out).not.toContain(secret);
  expect(out).toContain(ADDRESS);
  expect(out).toContain(TX_HASH);
  const [first, second, third] = lines();
  expect(first!.msg).toBe('token [jwt] from [email]');
  expect(second).toEqual(expect.objectContaining({ level: 'warn', header: 'Bearer [jwt]', signature: '0x[long hex]' }));
  expect(third).toEqual(expect.objectContaining({ level: 'error', err: expect.objectContaining({ type: 'Error', message: 'Execution reverted.' }) }));
});

test('lines written inside a request carry its id, and only those', () => {
  const { logger, lines } = capture();
  logger.info('outside');
  requestContext.run({ request_id: 'req-1' }, () => logger.info('inside', { extra: 1 }));
  requestContext.run({ request_id: 'req-1' }, () => logger.info('again'));
  expect(lines().map((line) => [line.msg, line.request_id, line.extra])).toEqual([
    ['outside', undefined, undefined],
    ['inside', 'req-1', 1],
    ['again', 'req-1', undefined],
  ]);
});
