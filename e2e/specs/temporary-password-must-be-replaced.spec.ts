import { accountButton, expect, signIn, signOutThroughMenu, submitSignIn, test } from "../support/fixtures.js";

test("a user with a temporary password must choose a new one, then lands signed in", async ({ page, state }) => {
  const newcomer = state.userWithTemporaryPassword;
  const newPassword = "quiet-river-stone-42";
  await signIn(page, newcomer);

  const changeButton = page.getByRole("button", { name: "Change Password", exact: true });
  await expect(changeButton).toBeVisible();

  // The Authenticator applies the server's password policy (12 characters by default) before sending anything.
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByLabel("Confirm Password", { exact: true }).fill("short");
  await page.getByLabel("Confirm Password", { exact: true }).blur();
  await expect(page.getByText(/at least 12 characters/)).toBeVisible();

  await page.getByLabel("Password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm Password", { exact: true }).fill(newPassword);
  await changeButton.click();

  await expect(page.getByRole("heading", { level: 1, name: "Welcome, Nico Newcomer" })).toBeVisible();
  await expect(accountButton(page, "Nico Newcomer")).toBeVisible();

  // The new password is now the one that works; the temporary one is gone.
  await signOutThroughMenu(page, "Nico Newcomer");
  await submitSignIn(page, newcomer);
  await expect(page.getByText("Incorrect username or password.")).toBeVisible();
  await submitSignIn(page, { username: newcomer.username, password: newPassword });
  await expect(page.getByRole("heading", { level: 1, name: "Welcome, Nico Newcomer" })).toBeVisible();
});
