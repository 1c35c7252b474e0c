import {
  displayNames,
  expect,
  mainNavigation,
  seededUser,
  signInToHome,
  submitSignIn,
  test,
} from "../support/fixtures.js";

test("after the stored session is wiped outside the app, the next user in the same tab sees only their own menu", async ({
  page,
  state,
}) => {
  await signInToHome(page, seededUser(state, "admin"), displayNames.admin);
  const menu = mainNavigation(page);
  await expect(menu.getByRole("link", { name: "Users", exact: true })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Audit log", exact: true })).toBeVisible();

  // The stored session goes away without the app being told (storage cleared, another tab's doing), and the
  // coordinator signs in in this same tab: no reload in between, as the marker left on the page shows.
  await page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
    window.localStorage.clear();
    window.location.hash = "#/signin";
  });
  await submitSignIn(page, seededUser(state, "coordinator"));
  await expect(page.getByRole("heading", { level: 1, name: `Welcome, ${displayNames.coordinator}` })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

  await expect(menu.getByRole("link", { name: "Clients", exact: true })).toBeVisible();
  const sections = page.getByRole("region", { name: "Your sections" });
  await expect(sections.getByRole("link", { name: "Clients" })).toBeVisible();
  for (const adminOnly of ["Users", "Audit log", "Billing", "Bugs"]) {
    await expect(menu.getByRole("link", { name: adminOnly, exact: true }), `menu entry ${adminOnly}`).toHaveCount(0);
    await expect(sections.getByRole("link", { name: adminOnly }), `home section ${adminOnly}`).toHaveCount(0);
  }
});
