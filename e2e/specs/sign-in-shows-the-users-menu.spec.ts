import {
  accountButton,
  displayNames,
  expect,
  mainNavigation,
  seededUser,
  signIn,
  signInToHome,
  test,
} from "../support/fixtures.js";

test.describe("signing in shows the menu the user's groups allow", () => {
  test("a coordinator sees clients, cases and reporting, but not users, billing or bugs", async ({ page, state }) => {
    await signInToHome(page, seededUser(state, "coordinator"), displayNames.coordinator);

    // Focus lands on the page the user arrived at, not on <body>.
    await expect(page.getByRole("heading", { level: 1, name: `Welcome, ${displayNames.coordinator}` })).toBeFocused();
    await expect(accountButton(page, displayNames.coordinator)).toBeVisible();
    const menu = mainNavigation(page);
    for (const entry of [
      "Home",
      "Continuous monitoring",
      "Clients",
      "New case",
      "Intake",
      "Monitoring",
      "Reviewed",
      "Reporting",
    ]) {
      await expect(menu.getByRole("link", { name: entry, exact: true }), `menu entry ${entry}`).toBeVisible();
    }
    for (const entry of ["Users", "Billing", "Bugs", "Integration testing", "Unauthorized"]) {
      await expect(menu.getByRole("link", { name: entry, exact: true }), `menu entry ${entry}`).toHaveCount(0);
    }
  });

  test("an administrator also sees users, billing and bugs", async ({ page, state }) => {
    await signInToHome(page, seededUser(state, "admin"), displayNames.admin);

    const menu = mainNavigation(page);
    for (const entry of ["Users", "Clients", "Billing", "Reporting", "Bugs", "Integration testing"]) {
      await expect(menu.getByRole("link", { name: entry, exact: true }), `menu entry ${entry}`).toBeVisible();
    }
  });

  test("a developer sees bugs but none of the clinical sections", async ({ page, state }) => {
    await signInToHome(page, seededUser(state, "developer"), displayNames.developer);

    const menu = mainNavigation(page);
    await expect(menu.getByRole("link", { name: "Bugs", exact: true })).toBeVisible();
    for (const entry of ["Clients", "Continuous monitoring", "Users", "Billing"]) {
      await expect(menu.getByRole("link", { name: entry, exact: true }), `menu entry ${entry}`).toHaveCount(0);
    }
  });

  test("a wrong password is refused with Cognito's message and the user stays on the sign-in form", async ({
    page,
    state,
  }) => {
    await signIn(page, { username: seededUser(state, "billing").username, password: "not-the-right-password" });

    await expect(page.getByText("Incorrect username or password.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
    await expect(page).toHaveURL(/#\/signin/);
  });
});
