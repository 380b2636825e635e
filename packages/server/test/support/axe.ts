import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** axe-core's browser bundle, evaluated in the page under test (its context needs `bypassCSP`: the pages allow nonce'd scripts only). */
const AXE_SOURCE: string = createRequire(import.meta.url)("axe-core").source;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/** Runs axe-core on the page as it is; returns the serious and critical violations, described. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run()).violations;
  })) as Violation[];
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ""}`).join("; ")}`);
}
