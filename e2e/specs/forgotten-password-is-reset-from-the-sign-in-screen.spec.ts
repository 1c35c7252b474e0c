import {
  authenticatorAlert,
  authenticatorHeading,
  codeField,
  expectWelcome,
  fillNewPassword,
} from "../support/authenticator.js";
import { submitSignIn } from "../support/fixtures.js";
import { choosePasswordThroughApi } from "../support/identity-api.js";
import { expect, test } from "../support/identity-fixtures.js";

test("a user who forgot their password resets it with the emailed code; the new password works, the old one no longer", async ({
  page,
  admin,
  state,
}) => {
  // Given: a user who chose a password and has since forgotten it.
  const user = { username: "e2e-forgetful", name: "Felix Forgetful", email: "e2e-forgetful@vigil.example" };
  const oldPassword = "walnut-breeze-quarry-91";
  const newPassword = "scarlet-tundra-whistle-46";
  const created = await admin.createUser({ ...user, groups: ["technologist"] });
  await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, oldPassword);

  await page.goto("/#/signin");
  await page.getByRole("button", { name: "Forgot your password?" }).click();
  await expect(authenticatorHeading(page, "Reset Password")).toBeVisible();
  await page.getByLabel("Enter your username", { exact: true }).fill(user.username);
  const before = await admin.newestMessageId(user.email);
  await page.getByRole("button", { name: "Send code", exact: true }).click();

  await expect(authenticatorHeading(page, "Reset Password")).toBeVisible();
  await expect(codeField(page)).toBeVisible();
  const code = await admin.waitForCode(user.email, before);
  await codeField(page).fill(code);
  await fillNewPassword(page, newPassword, "New Password");
  await page.getByRole("button", { name: "Submit", exact: true }).click();

  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await submitSignIn(page, { username: user.username, password: oldPassword });
  await expect(authenticatorAlert(page)).toContainText("Incorrect username or password.");
  await submitSignIn(page, { username: user.username, password: newPassword });
  await expectWelcome(page, user.name);
});
