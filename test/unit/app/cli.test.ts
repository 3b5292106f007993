// `signet keys` makes production secrets that the configuration accepts (a JWKS whose key has
// a kid, cookie keys), rotates with --previous (new key first), and every command answers
// --help with exit 0 and its own usage.

import { CHAIN_RETRY_MS, runCli } from '../../../src/app/cli.js';
import { loadConfig } from '../../../src/config/config.js';

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function settingsOf(output: string) {
  const jwks = /^JWKS='(.*)'$/m.exec(output)![1]!;
  const cookieKeys = /^COOKIE_KEYS=(.*)$/m.exec(output)![1]!;
  return { jwks, cookieKeys };
}

const PRODUCTION = {
  NODE_ENV: 'production',
  ISSUER: 'https://signet.example',
  REDIS_URL: 'redis://127.0.0.1:6379',
  CHAIN_RPC_URL: 'http://127.0.0.1:8545',
  CHAIN_ID: '31337',
  IDENTITY_FACTORY: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
};

test('signet keys prints a JWKS with a kid and cookie keys that production accepts', async () => {
  const result = await cli('keys', '--kid', 'k-2026');
  expect(result.code).toBe(0);
  const { jwks, cookieKeys } = settingsOf(result.out);
  const config = loadConfig({ ...PRODUCTION, JWKS: jwks, COOKIE_KEYS: cookieKeys });
  expect(config.jwks!.keys).toEqual([expect.objectContaining({ kty: 'RSA', kid: 'k-2026', alg: 'RS256', use: 'sig', d: expect.any(String) })]);
  expect(config.cookieKeys).toHaveLength(1);
  expect(config.cookieKeys[0]!.length).toBeGreaterThanOrEqual(43);
  // Two runs never make the same secrets.
  const again = settingsOf((await cli('keys', '--kid', 'k-2026')).out);
  expect(again.cookieKeys).not.toBe(cookieKeys);
  expect(JSON.parse(again.jwks).keys[0].d).not.toBe(JSON.parse(jwks).keys[0].d);
});

test('signet keys --previous rotates: the new key first, the current ones after it', async () => {
  const current = settingsOf((await cli('keys', '--kid', 'old', '--alg', 'ES256')).out).jwks;
  const rotated = settingsOf((await cli('keys', '--kid', 'new', '--previous', current)).out).jwks;
  const config = loadConfig({ ...PRODUCTION, JWKS: rotated, COOKIE_KEYS: 'a-production-cookie-key-0123456789' });
  expect(config.jwks!.keys.map((key) => [key.kid, key.kty])).toEqual([
    ['new', 'RSA'],
    ['old', 'EC'],
  ]);
  expect(await cli('keys', '--alg', 'HS256')).toEqual(
    expect.objectContaining({ code: 2, err: expect.stringMatching(/^signet: --alg must be RS256 or ES256\n/) }),
  );
  expect((await cli('keys', '--previous', '{')).err.split('\n')[0]).toBe('signet: --previous must be the current JWKS as JSON');
});

test.each([
  [['--help'], /signet keys[\s\S]*signet deploy-onchainid[\s\S]*signet claims issue[\s\S]*signet api-keys create/],
  [['help'], /signet keys/],
  [['keys', '--help'], /^usage:\n {2}signet keys /],
  [['deploy-onchainid', '--help'], /^usage:\n {2}signet deploy-onchainid --rpc <url>/],
  [['claims', '--help'], /^usage:\n {2}signet claims issue/],
  [['claims', 'issue', '--help'], /^usage:\n {2}signet claims issue/],
  [['api-keys', '--help'], /^usage:\n {2}signet api-keys create/],
  [['api-keys', 'rotate', '-h'], /^usage:\n {2}signet api-keys create/],
])('signet %j answers its usage with exit 0', async (argv, usage) => {
  const result = await cli(...argv);
  expect(result).toEqual({ code: 0, out: expect.stringMatching(usage), err: '' });
});

test('deploy-onchainid --wait asks again every CHAIN_RETRY_MS, then gives up with a clear message when the chain never answers', async () => {
  // A clock that moves by what the command sleeps, so the second of --wait takes no real time.
  const slept: number[] = [];
  const clock = {
    ms: 0,
    now: () => clock.ms,
    sleep: async (ms: number) => {
      slept.push(ms);
      clock.ms += ms;
    },
  };
  const err: string[] = [];
  const code = await runCli(['deploy-onchainid', '--rpc', 'http://127.0.0.1:9', '--wait', '1'], { out: () => {}, err: (line) => err.push(line), clock });
  expect(code).toBe(1);
  expect(err.join('\n')).toMatch(/^signet: the chain at http:\/\/127\.0\.0\.1:9 does not answer: /);
  // Tries at 0, 500 and 1000 ms: the last one is at the deadline, and then it gives up.
  expect(slept).toEqual([CHAIN_RETRY_MS, CHAIN_RETRY_MS]);
  expect(clock.ms).toBe(1000);
});
