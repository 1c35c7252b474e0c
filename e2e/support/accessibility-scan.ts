import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { untilAnimationsEnd } from "./animations.js";

/**
 * axe-core as the journeys run it: WCAG 2.1 A and AA rules, plus "label in name" (2.5.3), which axe keeps out of its
 * defaults; only serious and critical findings count, listed by where, rule and element.
 */
export type AccessibilityFinding = { where: string; rule: string; impact: string; help: string; targets: string[] };

const wcagTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const failingImpacts = new Set(["serious", "critical"]);

/** The serious and critical findings on the page as it is now (or inside `include`, a dialog). */
export async function scanAccessibility(page: Page, where: string, include?: string): Promise<AccessibilityFinding[]> {
  // The page as it rests: a button turning enabled fades its colour for 250 ms, and axe measuring the contrast
  // halfway through reports a colour no one sees for long.
  await untilAnimationsEnd(page);
  const findings = await findingsNow(page, where, include);
  if (findings.length === 0) return findings;
  // A finding must hold at rest. Data that arrives without a loading bar (a list's export button enabled by its rows)
  // can start such a fade during the scan itself; what is still there once it has ended is real.
  await page.waitForTimeout(500);
  await untilAnimationsEnd(page);
  return findingsNow(page, where, include);
}

async function findingsNow(page: Page, where: string, include?: string): Promise<AccessibilityFinding[]> {
  let builder = new AxeBuilder({ page }).withTags(wcagTags).options({
    rules: { "label-content-name-mismatch": { enabled: true } },
  });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter((violation) => failingImpacts.has(violation.impact ?? ""))
    .map((violation) => ({
      where,
      rule: violation.id,
      impact: violation.impact ?? "",
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
    }));
}

/** The findings as an assertion message: one line each, its elements under it. */
export function reportAccessibility(findings: AccessibilityFinding[]): string {
  return findings
    .map(
      (finding) =>
        `${finding.where}: ${finding.rule} (${finding.impact}) ${finding.help}\n    ${finding.targets.join("\n    ")}`,
    )
    .join("\n");
}
