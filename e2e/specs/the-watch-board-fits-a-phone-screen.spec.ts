import type { Locator, Page } from "@playwright/test";
import { displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";

/**
 * A technologist opens the watch board on a phone, at 390 × 844 (PRODUCT.md §10): each row is a card showing what is
 * due, the time left, the patient and the one action, all on the screen; nothing runs past its right edge, and the
 * filters are folded behind one button until asked for. The demo data's open cases run clocks from the first start.
 */

const phone = { width: 390, height: 844 };
test.use({ viewport: phone });

async function expectOnScreen(target: Locator): Promise<void> {
  await expect(target).toBeVisible();
  const box = await target.boundingBox();
  if (!box) throw new Error("The element has no box.");
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(phone.width);
}

async function expectNoSidewaysScrolling(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, "the page is wider than the phone").toBeLessThanOrEqual(phone.width);
}

test("a technologist reads the board on a phone: one card per clock, the filters folded", async ({ page, state }) => {
  await signInToHome(page, seededUser(state, "technologist"), displayNames.technologist);
  await page.goto("/#/watch");
  await expect(page.getByRole("heading", { level: 1, name: "Watch board" })).toBeVisible();
  const board = page.getByRole("list", { name: "Watch board" });
  await expect(board).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("table", { name: "Watch board" })).toHaveCount(0);
  await expect(page.getByRole("status")).toContainText(/[1-9]\d* clocks? running/);
  await expectNoSidewaysScrolling(page);

  const card = board.getByRole("listitem").first();
  // What is due, the state and time left, the patient and the one action, each on the screen.
  await expectOnScreen(card);
  await expectOnScreen(
    card.getByText(/Impedance check|Intermittent review|Review turnaround|STAT case|Critical finding/).first(),
  );
  await expectOnScreen(card.getByText(/ left$|^overdue by /));
  await expectOnScreen(card.getByText(/MRN /));
  await expectOnScreen(card.getByRole("link").first());
  // The first card is on the first screen, not below a wall of filters.
  const box = await card.boundingBox();
  expect(box && box.y + Math.min(box.height, 120)).toBeLessThanOrEqual(phone.height);

  const fold = page.getByRole("button", { name: "Filters" });
  await expect(fold).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByLabel("Stage")).toBeHidden();
  await fold.click();
  await expectOnScreen(page.getByLabel("Stage"));
  await expectNoSidewaysScrolling(page);
});
