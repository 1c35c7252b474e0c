import { accountButton, displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";

test("reloading the page keeps the user signed in on the same page", async ({ page, state }) => {
  await signInToHome(page, seededUser(state, "reviewer"), displayNames.reviewer);
  await page.goto("/#/continuous-monitoring/cases/monitoring");
  await expect(page.getByRole("heading", { level: 1, name: "Monitoring cases" })).toBeVisible();

  await page.reload();

  await expect(page).toHaveURL(/#\/continuous-monitoring\/cases\/monitoring$/);
  await expect(page.getByRole("heading", { level: 1, name: "Monitoring cases" })).toBeVisible();
  await expect(accountButton(page, displayNames.reviewer)).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toHaveCount(0);

  // A fresh tab of the same browser profile shares the stored session as well.
  const secondTab = await page.context().newPage();
  await secondTab.goto("/");
  await expect(secondTab.getByRole("heading", { level: 1, name: `Welcome, ${displayNames.reviewer}` })).toBeVisible();
});
