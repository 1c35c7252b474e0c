import { displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";

test.describe("an unknown path", () => {
  test("shows Page Not Found and the path, even before signing in", async ({ page }) => {
    await page.goto("/#/no/such/page");

    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
    await expect(page.getByText("/no/such/page", { exact: true })).toBeVisible();
    await expect(page.getByText("Error 404")).toBeVisible();
    await expect(page).toHaveTitle("Page Not Found – Vigil");
  });

  test("offers a way back home to a signed-in user", async ({ page, state }) => {
    await signInToHome(page, seededUser(state, "coordinator"), displayNames.coordinator);
    await page.goto("/#/continuous-monitoring/no-such-section");

    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
    await expect(page.getByText("/continuous-monitoring/no-such-section", { exact: true })).toBeVisible();
    await page.getByRole("link", { name: "Go to the home page" }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Welcome, ${displayNames.coordinator}` })).toBeVisible();
  });
});
