// The logger's last filter: whatever a message, a field or an error carries, a JWT, Signet's
// grant tokens and API key secrets, a signature-sized hex string, an e-mail address or an
// account address never reaches the output; hashes stay readable; errors are one line (viem's
// shortMessage, not its request dump).
import { Writable } from 'node:stream';
import { createLogHash } from '../../../../src/infra/observability/log_hash.js';
import { createLogger } from '../../../../src/infra/observability/logger.js';
import { requestContext } from '../../../../src/infra/observability/request_context.js';

function capture() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    logger: createLogger({ level: 'debug', destination }),
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJlaXAxNTUifQ.c2lnbmF0dXJlLWJ5dGVz';
const SIGNATURE = `0x${'ab'.repeat(65)}`;
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TX_HASH = `0x${'cd'.repeat(32)}`;
const GRANT_TOKEN = `sgt_${'Zx9-_'.repeat(9)}`;
const API_KEY = `sgk_AbCdEf012345_${'k'.repeat(20)}-_${'q'.repeat(21)}`;

test('tokens, signatures, e-mail and account addresses are blanked wherever they appear; hashes stay', () => {
  const { logger, text, lines } = capture();
  logger.info(`token ${JWT} from ada@example.org`);
  logger.warn('a field', { header: `Bearer ${JWT}`, signature: SIGNATURE, wallet: ADDRESS, tx: TX_HASH });
  const viemLike = Object.assign(new Error(`Execution reverted.\n\nRaw Call Arguments:\n  data: ${SIGNATURE}`), { shortMessage: 'Execution reverted.' });
  logger.error('chain call failed', viemLike);
  logger.info(`GET /identities/${ADDRESS.toLowerCase()}/profile`, { grant: GRANT_TOKEN, key: API_KEY });
  const out = text();
  for (const secret of [JWT, SIGNATURE, 'ada@example.org', 'Raw Call Arguments', ADDRESS, ADDRESS.toLowerCase(), GRANT_TOKEN, API_KEY])
    expect(out).not.toContain(secret);
  expect(out).toContain(TX_HASH);
  const [first, second, third, fourth] = lines();
  expect(first!.msg).toBe('token [jwt] from [email]');
  expect(second).toEqual(expect.objectContaining({ level: 'warn', header: 'Bearer [jwt]', signature: '0x[long hex]', wallet: '0x[address]', tx: TX_HASH }));
  expect(third).toEqual(expect.objectContaining({ level: 'error', err: expect.objectContaining({ type: 'Error', message: 'Execution reverted.' }) }));
  expect(fourth).toEqual(expect.objectContaining({ msg: 'GET /identities/0x[address]/profile', grant: 'sgt_[token]', key: 'sgk_AbCdEf012345_[secret]' }));
});

test('the keyed hash: the same for an address in any case and under the same key, another under another key', () => {
  const hash = createLogHash('a-log-hash-key-of-the-test');
  expect(hash(ADDRESS)).toMatch(/^[0-9a-f]{16}$/);
  expect(hash(ADDRESS.toLowerCase())).toBe(hash(ADDRESS));
  expect(createLogHash('a-log-hash-key-of-the-test')(ADDRESS)).toBe(hash(ADDRESS));
  expect(createLogHash('another-log-hash-key-entirely')(ADDRESS)).not.toBe(hash(ADDRESS));
  // Without a key, one random key per process: the same in every part of it.
  expect(createLogHash()(ADDRESS)).toBe(createLogHash()(ADDRESS));
  expect(createLogHash()(ADDRESS)).not.toBe(hash(ADDRESS));
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
