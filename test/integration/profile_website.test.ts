// The profile's website is a web address, or nothing: the form refuses any other, and one
// stored before the rule (a javascript: URL) is never released to a website nor shown.
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import type { UserAgent } from '../support/user_agent.js';

let h: Harness;
let agent: UserAgent;
let identity: `0x${string}`;

beforeAll(async () => {
  h = await startSignet();
  identity = await h.chain.createIdentityFor(h.chain.accounts[0]!.address);
  ({ agent } = await signInToAccount(h.issuer, h.chain.accounts[0]!));
});
afterAll(async () => {
  await h.close();
});

const saveProfile = (values: Record<string, string>) =>
  agent.fetch(`${h.issuer}/account/profile`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(values),
  });
const stored = async () => JSON.parse((await h.store.get(keys.profile(identity))) ?? '{}') as Record<string, unknown>;

async function released(): Promise<Record<string, unknown>> {
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile' });
  const { tokens } = await logIn(login, h.chain.accounts[0]!, { fields: ['given_name', 'website'] });
  return tokens.claims()!;
}

test.each(['javascript:alert(1)', 'data:text/html,hi', '//evil.example/', 'https://bank.example@evil.example/'])(
  'the form refuses %j with what to fix, and keeps the profile as it was',
  async (website) => {
    expect((await saveProfile({ given_name: 'Ada', website: 'https://ada.example/' })).status).toBe(302);
    const before = await stored();
    const answer = await saveProfile({ given_name: 'Eve', website });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('Enter a web address starting with https:// or http://');
    expect(await stored()).toEqual(before);
  },
);

test('https and http addresses are kept and released as the website claim', async () => {
  for (const website of ['https://ada.example/about', 'http://ada.example/']) {
    expect((await saveProfile({ given_name: 'Ada', website })).status).toBe(302);
    expect((await stored()).website).toBe(website);
    expect(await released()).toMatchObject({ given_name: 'Ada', website });
  }
});

test('a website stored before the rule is not released, and the profile page shows it empty', async () => {
  // As a version without the rule saved it.
  await h.store.set(keys.profile(identity), JSON.stringify({ given_name: 'Ada', website: 'javascript:alert(1)' }));
  const claims = await released();
  expect(claims.given_name).toBe('Ada');
  expect(claims).not.toHaveProperty('website');
  const page = await (await agent.fetch(`${h.issuer}/account/profile`)).text();
  expect(page).not.toContain('javascript:');
  expect(page).toContain('value="Ada"');
});
