// The leaving page (src/features/oidc/leaving_page.ts) as a test reads it: where its "Continue"
// link sends the browser, HTML entities decoded as the browser decodes them.
export const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);

/** The page's continue link; throws, showing the page, when it has none. */
export function continueLink(html: string): string {
  const href = /<a class="button primary" id="continue" href="([^"]*)">/.exec(html)?.[1];
  if (href === undefined) throw new Error(`no continue link in the page:\n${html}`);
  return unescapeHtml(href);
}
