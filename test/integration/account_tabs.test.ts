// Every account tab, taken from the one tab list: drawn in each page's navigation, and the page
// signing in returns to when a visitor without a session opened it.
import { ACCOUNT_TABS } from '../../src/domain/owner_sessions/account_tabs.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { type Harness, startSignet } from '../support/signet_harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startSignet();
});
afterAll(async () => {
  await h.close();
});

/** The page signing in returns to, as the sign-in page hands it to its script. */
async function signInReturn(signInUrl: string): Promise<string | undefined> {
  const page = await fetch(new URL(signInUrl, h.issuer));
  expect(page.status).toBe(200);
  return /data-next="([^"]*)"/.exec(await page.text())?.[1];
}

test.each(ACCOUNT_TABS.filter((tab) => tab.path !== '/account').map((tab) => [tab.label, tab.path]))(
  'the %s tab, opened without a session, is where signing in returns',
  async (_label, path) => {
    const opened = await fetch(`${h.issuer}${path}`, { redirect: 'manual' });
    expect(opened.status).toBe(302);
    const signIn = opened.headers.get('location')!;
    expect(signIn).toBe(`/account?next=${encodeURIComponent(path)}`);
    expect(await signInReturn(signIn)).toBe(path);
  },
);

test('a return to anything but a tab is the overview', async () => {
  for (const asked of ['https://evil.example/', '//evil.example', '/account/elsewhere', '/.well-known/openid-configuration']) {
    expect(await signInReturn(`/account?next=${encodeURIComponent(asked)}`)).toBe('/account');
  }
});

test("every page's navigation draws the tab list, in order", async () => {
  const owner = h.chain.accounts[0]!;
  await h.chain.createIdentityFor(owner.address);
  const { agent } = await signInToAccount(h.issuer, owner);
  for (const tab of ACCOUNT_TABS) {
    const page = await agent.fetch(`${h.issuer}${tab.path}`);
    expect(page.status).toBe(200);
    const nav = /<nav class="tabs"[\s\S]*?<\/nav>/.exec(await page.text())![0];
    const links = [...nav.matchAll(/<a href="([^"]+)"( aria-current="page")?>([^<]+)<\/a>/g)].map((link) => ({
      path: link[1],
      label: link[3],
      current: Boolean(link[2]),
    }));
    expect(links).toEqual(ACCOUNT_TABS.map((each) => ({ path: each.path, label: each.label, current: each.path === tab.path })));
  }
});
