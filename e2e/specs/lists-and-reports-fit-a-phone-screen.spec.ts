import type { Locator, Page } from "@playwright/test";
import { displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";
import { signInThroughApi } from "../support/identity-api.js";

/**
 * The screens a coordinator opens on a phone, at 390 × 844: nothing runs past the screen's right edge (a wide table
 * scrolls inside its own box, which a keyboard can reach and which says it scrolls), the pager's arrows and the
 * row actions are on screen, the case tabs have scroll arrows, and the chart's labels are whole.
 */

const phone = { width: 390, height: 844 };
test.use({ viewport: phone });

async function demoIds(baseURL: string, clientId: string, credential: { username: string; password: string }) {
  const { idToken } = await signInThroughApi(baseURL, clientId, credential);
  const first = async (path: string) => {
    const response = await fetch(`${baseURL}/api${path}?limit=1`, { headers: { authorization: `Bearer ${idToken}` } });
    expect(response.status, path).toBe(200);
    const id = ((await response.json()) as { data: { items: { id: string }[] } }).data.items[0]?.id;
    if (!id) throw new Error(`The demo data has nothing at ${path}.`);
    return id;
  };
  return {
    client: await first("/continuous-monitoring/clients"),
    monitoringCase: await first("/continuous-monitoring/cases/monitoring"),
  };
}

async function open(page: Page, url: string, heading: string | RegExp): Promise<void> {
  await page.goto(`/#${url}`);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  // Loaded: nothing is loading any more (a determinate bar would be content).
  await expect(page.locator('[role="progressbar"]:not([aria-valuenow])')).toHaveCount(0, { timeout: 15_000 });
}

async function expectNoSidewaysScrolling(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, "the page is wider than the phone").toBeLessThanOrEqual(phone.width);
}

async function expectOnScreen(target: Locator): Promise<void> {
  await expect(target).toBeVisible();
  const box = await target.boundingBox();
  if (!box) throw new Error("The element has no box.");
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(phone.width);
}

/** How far a box has been scrolled sideways. */
const scrolledBy = (target: Locator) => target.evaluate((element) => element.scrollLeft);

test.describe("on a phone", () => {
  test.beforeEach(async ({ page, state }) => {
    await signInToHome(page, seededUser(state, "admin"), displayNames.admin);
  });

  test("the case queue and the users list keep their pager and row actions on screen", async ({ page }) => {
    await open(page, "/continuous-monitoring/cases/intake", "Intake cases");
    await expectNoSidewaysScrolling(page);
    await expectOnScreen(page.getByRole("button", { name: "Go to next page" }));

    await open(page, "/users", "Users");
    await expectNoSidewaysScrolling(page);
    await expectOnScreen(page.getByRole("button", { name: "Go to next page" }));
    await expectOnScreen(page.getByRole("button", { name: "Actions for admin" }));
    await page.getByRole("button", { name: "Actions for admin" }).click();
    await expect(page.getByRole("menuitem", { name: "Edit access groups" })).toBeVisible();
    await page.keyboard.press("Escape");

    // The wide table scrolls in its own box, which the keyboard reaches and which says so.
    const table = page.getByRole("region", { name: "Users" });
    await expect(page.getByText("Scroll sideways for more").first()).toBeVisible();
    await table.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => scrolledBy(table)).toBeGreaterThan(0);
  });

  test("a case's tabs have scroll arrows that bring the hidden tabs on screen", async ({ page, state }) => {
    const { monitoringCase } = await demoIds(state.baseURL, state.userPoolClientId, seededUser(state, "admin"));
    await open(page, `/continuous-monitoring/cases/monitoring/${monitoringCase}/overview`, /./);
    await expectNoSidewaysScrolling(page);
    const tabs = page.getByRole("tablist");
    const lastTab = tabs.getByRole("tab").last();
    await expect(lastTab).not.toBeInViewport({ ratio: 1 });

    const forward = page.locator(".MuiTabs-root .MuiTabScrollButton-root").last();
    await expectOnScreen(forward);
    // Each click scrolls (smoothly) by a screen's width of tabs; the arrow turns off at the end.
    await expect(async () => {
      const atEnd = await forward.evaluate((button) => button.classList.contains("Mui-disabled"));
      if (!atEnd) await forward.click({ timeout: 1_000 });
      await expect(lastTab).toBeInViewport({ ratio: 1, timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expectOnScreen(lastTab);
  });

  test("the billing statement's columns are on screen or in a labelled box the keyboard scrolls", async ({
    page,
    state,
  }) => {
    const { client } = await demoIds(state.baseURL, state.userPoolClientId, seededUser(state, "admin"));
    const now = new Date();
    const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    await open(page, `/billing/continuous-monitoring/${client}/${month}`, /statement/i);
    await expectNoSidewaysScrolling(page);

    const table = page.getByRole("table", { name: /^Cases billed in / });
    const box = table.locator("xpath=..");
    const headers = table.getByRole("columnheader");
    const wider = await box.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
    if (!wider) {
      // The cells wrapped to fit: every column, Amount and CPT included, is on the screen itself.
      for (const header of await headers.all()) await expectOnScreen(header);
      return;
    }
    const cases = page.getByRole("region", { name: /^Cases billed in / });
    await expect(cases).toHaveAttribute("tabindex", "0");
    await expect(page.getByText("Scroll sideways for more")).toBeVisible();
    await cases.focus();
    // The arrow keys scroll the focused box to its right end.
    for (let step = 0; step < 30; step++) await page.keyboard.press("ArrowRight");
    await expect.poll(() => scrolledBy(cases)).toBeGreaterThan(0);
    await expect(headers.last()).toBeInViewport();
  });

  test("the report's filters fit and the chart's day labels are whole", async ({ page }) => {
    // Two weeks to today rather than the default month to date, which is a single day on the 1st of a month.
    const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
    await open(page, `/reporting/continuous-monitoring?from=${day(13)}&to=${day(0)}`, "Billable hours");
    await expectNoSidewaysScrolling(page);
    const groupBy = page.getByRole("group", { name: "Group by" });
    for (const grouping of ["Day", "Week", "Month", "Client", "Technologist"])
      await expectOnScreen(groupBy.getByRole("button", { name: grouping }));

    const ticks = page.locator("figure .MuiChartsAxis-directionX .MuiChartsAxis-tickLabel");
    await expect(ticks.first()).toBeVisible();
    const labels = await ticks.allTextContents();
    expect(labels.length).toBeGreaterThan(1);
    expect(labels.filter((label) => label.includes("…"))).toEqual([]);
  });
});
