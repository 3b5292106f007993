// Layout checks a person would notice: a page wider than the screen (sideways scroll), and
// words split across two lines (a text that breaks mid-word instead of at spaces).
import type { Page } from 'playwright-core';

/** The page's scroll width next to its client width; equal when nothing scrolls sideways. */
export function noSidewaysScroll(page: Page) {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
}

/**
 * The words (runs of letters, up to 20) of the matched elements' text that the browser drew
 * on more than one line. Long tokens such as URLs and addresses may break anywhere; words may not.
 */
export function wordsSplitAcrossLines(page: Page, selector: string) {
  return page.evaluate((selector) => {
    const split: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        // Words standing alone: between spaces or punctuation, never inside a longer token.
        for (const match of text.matchAll(/(?<=^|[\s(,.:;])[A-Za-z]{2,20}(?=$|[\s),.:;])/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
          if (lines.size > 1) split.push(match[0]);
        }
      }
    }
    return split;
  }, selector);
}
