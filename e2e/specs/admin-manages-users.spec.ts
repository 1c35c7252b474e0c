import type { Page } from "@playwright/test";
import {
  displayNames,
  expect,
  readStoredTokens,
  seededUser,
  signIn,
  signInToHome,
  submitSignIn,
  test,
} from "../support/fixtures.js";
import { chooseMenuItem } from "../support/menus.js";

const newcomer = { username: "e2e-dana", name: "Dana Daley", email: "dana.daley@vigil.example" };
const chosenPassword = "amber-harbour-lantern-7";

/** The ID token the app holds for the user signed in on this page. */
async function idTokenOf(page: Page): Promise<string> {
  const { idToken } = await readStoredTokens(page);
  expect(idToken, "Amplify stores an ID token after sign-in").toBeTruthy();
  return idToken as string;
}

test("an administrator creates a user who signs in with the emailed password; disabling them ends their session", async ({
  page,
  browser,
  request,
  state,
}) => {
  // Several sign-ins (argon2 on two cores) and users in one story: past a minute when two workers share the machine.
  test.setTimeout(150_000);
  await signInToHome(page, seededUser(state, "admin"), displayNames.admin);
  await page.goto("/#/users");
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
  await expect(page.getByRole("rowheader", { name: "admin", exact: true })).toBeVisible();

  // Create the user; the dialog checks the email as it is typed.
  await page.getByRole("button", { name: "New user" }).click();
  const dialog = page.getByRole("dialog", { name: "New user" });
  await dialog.getByRole("textbox", { name: /^Username/ }).fill(newcomer.username);
  await dialog.getByRole("textbox", { name: /^Full name/ }).fill(newcomer.name);
  await dialog.getByRole("textbox", { name: /^Email/ }).fill("dana.daley@");
  await expect(dialog.getByText("Email must be an email address", { exact: true })).toBeVisible();
  await dialog.getByRole("textbox", { name: /^Email/ }).fill(newcomer.email);
  await dialog.getByRole("checkbox", { name: /^Technologist/ }).check();
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog.getByText(`${newcomer.username} was created.`)).toBeVisible();
  await expect(dialog.getByText(/A temporary password was emailed to d\*\*\*y@vigil\.example/)).toBeVisible();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("rowheader", { name: newcomer.username })).toBeVisible();

  // Without a mail server the message waits in the outbox, which administrators can read.
  const adminToken = await idTokenOf(page);
  const outbox = await request.get(`/api/outbox?to=${encodeURIComponent(newcomer.email)}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(outbox.status()).toBe(200);
  const [message] = (await outbox.json()).data.items as { subject: string; body: string }[];
  expect(message?.subject).toBe("Your Vigil account");
  const temporaryPassword = /Temporary password: (\S+)/.exec(message?.body ?? "")?.[1];
  expect(temporaryPassword, "the email carries the temporary password").toBeTruthy();

  // The new user, in their own browser, signs in with it and must choose a password of their own.
  const newcomerContext = await browser.newContext({ baseURL: state.baseURL });
  const newcomerPage = await newcomerContext.newPage();
  try {
    await signIn(newcomerPage, { username: newcomer.username, password: temporaryPassword as string });
    await expect(newcomerPage.getByRole("button", { name: "Change Password", exact: true })).toBeVisible();
    await newcomerPage.getByLabel("Password", { exact: true }).fill(chosenPassword);
    await newcomerPage.getByLabel("Confirm Password", { exact: true }).fill(chosenPassword);
    await newcomerPage.getByRole("button", { name: "Change Password", exact: true }).click();
    await expect(newcomerPage.getByRole("heading", { level: 1, name: `Welcome, ${newcomer.name}` })).toBeVisible();
    const newcomerToken = await idTokenOf(newcomerPage);
    const menuBefore = await request.get("/api/chrome", { headers: { authorization: `Bearer ${newcomerToken}` } });
    expect(menuBefore.status()).toBe(200);

    // The administrator disables them, after confirming.
    await page.getByRole("textbox", { name: "Search" }).fill(newcomer.username);
    await expect(page).toHaveURL(/#\/users\?search=e2e-dana$/);
    await expect(page.getByRole("rowheader", { name: "admin", exact: true })).toHaveCount(0);
    await expect(page.getByRole("rowheader", { name: newcomer.username })).toBeVisible();
    await page.getByRole("button", { name: `Actions for ${newcomer.username}` }).click();
    await chooseMenuItem(page, "Disable");
    const confirm = page.getByRole("dialog", { name: `Disable ${newcomer.username}?` });
    await confirm.getByRole("button", { name: "Disable" }).click();
    await expect(page.getByText(`${newcomer.username} is disabled.`)).toBeVisible();
    const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: newcomer.username }) });
    await expect(row.getByText("Disabled", { exact: true })).toBeVisible();

    // Their open session stops working at once: the API refuses the token, and the app sends them to sign in.
    const menuAfter = await request.get("/api/chrome", { headers: { authorization: `Bearer ${newcomerToken}` } });
    expect(menuAfter.status()).toBe(401);
    await newcomerPage.reload();
    await expect(newcomerPage.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
    await submitSignIn(newcomerPage, { username: newcomer.username, password: chosenPassword });
    await expect(newcomerPage.getByText("Incorrect username or password.")).toBeVisible();
  } finally {
    await newcomerContext.close();
  }
});
