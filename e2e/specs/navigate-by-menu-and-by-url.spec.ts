import {
  breadcrumbs,
  displayNames,
  expect,
  mainNavigation,
  seededUser,
  signInToHome,
  test,
} from "../support/fixtures.js";

test.describe("navigating", () => {
  test.beforeEach(async ({ page, state }) => {
    await signInToHome(page, seededUser(state, "coordinator"), displayNames.coordinator);
  });

  test("the menu opens a page with its heading, title and breadcrumbs", async ({ page }) => {
    await mainNavigation(page).getByRole("link", { name: "Clients", exact: true }).click();

    await expect(page).toHaveURL(/#\/continuous-monitoring\/clients$/);
    await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
    await expect(page).toHaveTitle("Clients – Vigil");
    await expect(breadcrumbs(page)).toHaveText(/Home.*Continuous monitoring.*Clients/);
    await expect(mainNavigation(page).getByRole("link", { name: "Clients", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );

    await mainNavigation(page).getByRole("link", { name: "Reviewed", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Reviewed cases" })).toBeVisible();
    await expect(page).toHaveTitle("Reviewed cases – Vigil");
  });

  test("a typed URL opens its page, and the breadcrumbs lead back home", async ({ page }) => {
    await page.goto("/#/continuous-monitoring/cases/intake");

    await expect(page.getByRole("heading", { level: 1, name: "Intake cases" })).toBeVisible();
    await expect(page).toHaveTitle("Intake cases – Vigil");
    const trail = breadcrumbs(page);
    await expect(trail).toHaveText(/Home.*Continuous monitoring.*Cases.*Intake cases/);

    await trail.getByRole("link", { name: "Home" }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Welcome, ${displayNames.coordinator}` })).toBeVisible();
    await expect(page).toHaveTitle("Home – Vigil");
  });

  test("a page the user's groups do not allow sends them to Unauthorized", async ({ page }) => {
    await page.goto("/#/users");

    await expect(page).toHaveURL(/#\/unauthorized$/);
    await expect(page.getByRole("heading", { level: 1, name: "Unauthorized" })).toBeVisible();
    await expect(page.getByText("You do not have access to this page.")).toBeVisible();
  });
});
