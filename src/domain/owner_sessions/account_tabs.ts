// The account's tabs, in order: the navigation every account page draws, and the only pages
// signing in returns to. One list, so a new tab is both drawn and returned to.
export const ACCOUNT_TABS = [
  { path: '/account', label: 'Overview' },
  { path: '/account/profile', label: 'Profile' },
  { path: '/account/wallets', label: 'Wallets' },
  { path: '/account/claims', label: 'Claims' },
  { path: '/account/accesses', label: 'Accesses' },
  { path: '/account/wallet-credentials', label: 'Credentials' },
  { path: '/account/data', label: 'Your data' },
] as const;

export type AccountTabPath = (typeof ACCOUNT_TABS)[number]['path'];

/** Where signing in returns: the tab asked for, or the overview for anything else. */
export function signInReturnPath(asked: string | undefined): AccountTabPath {
  return ACCOUNT_TABS.find((tab) => tab.path === asked)?.path ?? '/account';
}
