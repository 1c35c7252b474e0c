import { expect, mainNavigation, signIn, test } from "../support/fixtures.js";

test("a user without any access group lands on Unauthorized and can sign out from there", async ({ page, state }) => {
  await signIn(page, state.userWithoutGroup);

  await expect(page).toHaveURL(/#\/unauthorized$/);
  await expect(page.getByRole("heading", { level: 1, name: "Unauthorized" })).toBeVisible();
  await expect(page.getByText("You do not have access to this page.")).toBeVisible();
  await expect(mainNavigation(page).getByRole("link", { name: "Clients", exact: true })).toHaveCount(0);

  // Typing the address of a section does not get around it.
  await page.goto("/#/continuous-monitoring/clients");
  await expect(page).toHaveURL(/#\/unauthorized$/);
  await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toHaveCount(0);

  await page.getByRole("main").getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
});
