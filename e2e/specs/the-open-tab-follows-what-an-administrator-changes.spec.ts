import type { Browser, Page } from "@playwright/test";
import { expectWelcome } from "../support/authenticator.js";
import type { Credential } from "../support/environment.js";
import {
  displayNames,
  mainNavigation,
  seededUser,
  signIn,
  signInToHome,
  signOutThroughMenu,
} from "../support/fixtures.js";
import { choosePasswordThroughApi } from "../support/identity-api.js";
import { expect, test } from "../support/identity-fixtures.js";
import { chooseMenuItem } from "../support/menus.js";

const accountChanged = "Your session ended: an administrator changed your account. Sign in again or ask them.";

/** The administrator, in a browser of their own, on the users screen filtered to one user. */
async function openAdminOn(browser: Browser, baseURL: string, admin: Credential, username: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInToHome(page, admin, displayNames.admin);
  await page.goto(`/#/users?search=${encodeURIComponent(username)}`);
  await expect(page.getByRole("rowheader", { name: username })).toBeVisible();
  return { context, page };
}

async function setGroups(admin: Page, username: string, change: Record<string, boolean>) {
  await admin.getByRole("button", { name: `Actions for ${username}` }).click();
  await chooseMenuItem(admin, "Edit access groups");
  const dialog = admin.getByRole("dialog", { name: `Access groups of ${username}` });
  for (const [label, ticked] of Object.entries(change)) {
    await dialog.getByRole("checkbox", { name: new RegExp(`^${label}`) }).setChecked(ticked);
  }
  await dialog.getByRole("button", { name: "Save groups" }).click();
  await expect(admin.getByText(`Access groups of ${username} were saved.`)).toBeVisible();
}

/** Marks the page's JavaScript world: the mark is gone after a reload, so its presence proves there was none. */
async function markThisPageLoad(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { stillTheSameLoad?: boolean }).stillTheSameLoad = true;
  });
}
/** Types an address of the app in the address bar: only the hash changes, so the page is not loaded again. */
async function typeAppAddress(page: Page, path: string) {
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, `#${path}`);
}
async function expectNoReloadSinceMark(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { stillTheSameLoad?: boolean }).stillTheSameLoad)).toBe(true);
}

test("a group an administrator grants reaches the user's open tab without a reload, and a removed one leaves it", async ({
  page,
  browser,
  admin,
  state,
}) => {
  const user = { username: "e2e-granted", name: "Gale Granted", email: "e2e-granted@vigil.example" };
  const password = "harbour-quill-meadow-52";
  const created = await admin.createUser({ ...user, groups: ["technologist"] });
  await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, password);

  // The user's browser keeps real time; the clock is only taken forward to stand for minutes of work.
  await page.clock.install();
  await signIn(page, { username: user.username, password });
  await expectWelcome(page, user.name);
  await expect(mainNavigation(page).getByRole("link", { name: "Billing" })).toHaveCount(0);
  await markThisPageLoad(page);

  const administrator = await openAdminOn(browser, state.baseURL, seededUser(state, "admin"), user.username);
  try {
    await setGroups(administrator.page, user.username, { Billing: true });

    // Within the periodic re-read, the menu offers the new section.
    await page.clock.fastForward("02:05");
    await expect(mainNavigation(page).getByRole("link", { name: "Billing" })).toBeVisible();
    await mainNavigation(page).getByRole("link", { name: "Billing" }).click();
    await expect(page).toHaveURL(/#\/billing\/continuous-monitoring$/);
    await expect(page.getByRole("heading", { level: 1, name: "Unauthorized" })).toHaveCount(0);

    // A page whose group was granted a moment ago opens when its address is typed, instead of Unauthorized.
    await setGroups(administrator.page, user.username, { Developer: true });
    await typeAppAddress(page, "/bugs");
    await expect(page.getByRole("heading", { level: 1, name: "Bugs" })).toBeVisible();
    await expect(page).toHaveURL(/#\/bugs$/);
    await expect(mainNavigation(page).getByRole("link", { name: "Bug reports" })).toBeVisible();

    // Taken away again: the entry leaves the menu and the address leads to Unauthorized.
    await setGroups(administrator.page, user.username, { Billing: false });
    await page.clock.fastForward("02:05");
    await expect(mainNavigation(page).getByRole("link", { name: "Billing" })).toHaveCount(0);
    await typeAppAddress(page, "/billing/continuous-monitoring");
    await expect(page.getByRole("heading", { level: 1, name: "Unauthorized" })).toBeVisible();
    await expectNoReloadSinceMark(page);
  } finally {
    await administrator.context.close();
  }
});

test("a user an administrator disables lands on the sign-in page at their next step and is told why, once", async ({
  page,
  browser,
  admin,
  state,
}) => {
  const user = {
    username: "e2e-disabled-midshift",
    name: "Dee Midshift",
    email: "e2e-disabled-midshift@vigil.example",
  };
  const password = "copper-lantern-orchard-38";
  const created = await admin.createUser({ ...user, groups: ["coordinator"] });
  await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, password);
  await signIn(page, { username: user.username, password });
  await expectWelcome(page, user.name);

  const administrator = await openAdminOn(browser, state.baseURL, seededUser(state, "admin"), user.username);
  try {
    await administrator.page.getByRole("button", { name: `Actions for ${user.username}` }).click();
    await chooseMenuItem(administrator.page, "Disable");
    await administrator.page
      .getByRole("dialog", { name: `Disable ${user.username}?` })
      .getByRole("button", { name: "Disable" })
      .click();
    await expect(administrator.page.getByText(`${user.username} is disabled.`)).toBeVisible();
  } finally {
    await administrator.context.close();
  }

  // The next step in the open tab: the API refuses the token and the user is told why they must sign in.
  await mainNavigation(page).getByRole("link", { name: "Clients" }).click();
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await expect(page).toHaveURL(/#\/signin$/);
  await expect(page.getByText(accountChanged)).toBeVisible();

  // Said once: the sign-in page opened again later says nothing of it.
  await page.reload();
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await expect(page.getByText(accountChanged)).toHaveCount(0);
});

test("signing out of one's own accord says nothing about an administrator", async ({ page, admin, state }) => {
  const user = { username: "e2e-own-signout", name: "Owen Signout", email: "e2e-own-signout@vigil.example" };
  const password = "willow-ember-compass-61";
  const created = await admin.createUser({ ...user, groups: ["coordinator"] });
  await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, password);
  await signIn(page, { username: user.username, password });
  await expectWelcome(page, user.name);

  await signOutThroughMenu(page, user.name);
  await expect(page.getByText(accountChanged)).toHaveCount(0);
});
