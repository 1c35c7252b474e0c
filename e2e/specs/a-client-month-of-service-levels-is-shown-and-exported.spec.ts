import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";
import { signInThroughApi } from "../support/identity-api.js";

/**
 * The monthly service-level report (PRODUCT.md §10) on the demo data: an administrator picks a client and a month,
 * sees the promises table, the 12-month chart, the missed list and the per-person figures, and downloads the CSV.
 */

/** This month: the demo data's cases ran their clocks in the last days. */
function currentMonth(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}`;
}

test("an administrator reads a client's month of service levels and downloads it as CSV", async ({ page, state }) => {
  const { idToken } = await signInThroughApi(state.baseURL, state.userPoolClientId, seededUser(state, "admin"));
  const response = await fetch(`${state.baseURL}/api/continuous-monitoring/clients?limit=1`, {
    headers: { authorization: `Bearer ${idToken}` },
  });
  const client = ((await response.json()) as { data: { items: { id: string; code: string }[] } }).data.items[0];
  if (!client) throw new Error("The demo data has no client.");

  await signInToHome(page, seededUser(state, "admin"), displayNames.admin);
  const month = currentMonth();
  // Opened without a client or month (from the menu), it shows this month of the first client at once.
  await page.goto("/#/reporting/service-levels");
  await expect(page.getByRole("table", { name: "Promises kept and missed" })).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('input[type="month"]')).toHaveValue(month);
  await expect(page).toHaveURL(/client=[0-9a-f-]{36}/);
  await expect(page.getByText(/Percentiles are nearest rank/)).toBeVisible();

  await page.goto(`/#/reporting/service-levels?client=${client.id}&month=${month}`);
  await expect(page.getByRole("heading", { level: 1, name: "Service levels" })).toBeVisible();
  const kinds = page.getByRole("table", { name: "Promises kept and missed" });
  await expect(kinds).toBeVisible({ timeout: 15_000 });
  // A header row and one row per promise kind (STAT, impedance, intermittent review, turnaround, critical finding).
  await expect(kinds.getByRole("row")).toHaveCount(6);
  await expect(page.getByRole("figure", { name: /as a chart/ })).toBeVisible();
  await expect(page.getByRole("table", { name: "Missed promises", exact: true })).toBeVisible();
  await expect(page.getByRole("table", { name: "Promises per person" })).toBeVisible();

  // The report as rendered (tables, chart, legend) has no serious or critical WCAG 2.1 AA finding.
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .include("main")
    .analyze();
  const serious = violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(
    serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
  ).toEqual([]);

  const downloadStarted = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const download = await downloadStarted;
  expect(download.suggestedFilename()).toBe(
    `service-levels-${client.code.replace(/[^A-Za-z0-9_-]+/g, "-")}-${month}.csv`,
  );
  const csv = readFileSync((await download.path()) as string, "utf8").replace(/^\uFEFF/, "");
  expect(csv).toContain("Promise,Kept,Missed,Kept share (%),Not yet due,Time taken p50 (min)");
  expect(csv).toContain("Case,Promise,Due,Done,Outcome,Late by (min)");
  // The method is stated, durations are numbers and empty cells are empty, so a spreadsheet sums and sorts them.
  expect(csv).toContain("# Percentiles are nearest rank");
  expect(csv).not.toContain("—");
});
