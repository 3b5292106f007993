// axe-core on a page as it is, in the browser: the serious and critical violations it finds.
// The source is evaluated through the DevTools protocol, which the pages' strict CSP does not block.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type SevereViolation = { id: string; impact: string | null; help: string; nodes: string[] };

export async function severeAccessibilityViolations(page: Page): Promise<SevereViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    type AxeResult = { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] };
    const axe = (window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: AxeResult[]; passes: unknown[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    if (result.passes.length < 10) throw new Error(`axe-core checked only ${result.passes.length} rules`);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
