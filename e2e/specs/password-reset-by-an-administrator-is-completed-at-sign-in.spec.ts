import {
  authenticatorAlert,
  authenticatorHeading,
  codeField,
  expectWelcome,
  fillNewPassword,
} from "../support/authenticator.js";
import { signIn, submitSignIn } from "../support/fixtures.js";
import { choosePasswordThroughApi } from "../support/identity-api.js";
import { expect, test } from "../support/identity-fixtures.js";

test("after an administrator resets a user's password, the user resets it with the emailed code and signs in", async ({
  page,
  admin,
  state,
}) => {
  // Given: a user who chose their password, which an administrator then reset.
  const user = { username: "e2e-reset-by-admin", name: "Rhea Reset", email: "e2e-reset-by-admin@vigil.example" };
  const oldPassword = "pewter-canyon-ribbon-72";
  const newPassword = "indigo-lighthouse-maple-85";
  const created = await admin.createUser({ ...user, groups: ["billing"] });
  await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, oldPassword);
  await admin.resetPassword(user.username);
  const before = await admin.newestMessageId(user.email);

  // Sequence 6 of AUTH.md: the password checks out, PasswordResetRequiredException follows, and the
  // Authenticator asks for a reset code by email itself.
  await signIn(page, { username: user.username, password: oldPassword });
  await expect(authenticatorHeading(page, "Reset Password")).toBeVisible();
  await expect(codeField(page)).toBeVisible();
  const code = await admin.waitForCode(user.email, before);
  await codeField(page).fill(code);
  await fillNewPassword(page, newPassword, "New Password");
  await page.getByRole("button", { name: "Submit", exact: true }).click();

  // Back on the sign-in form: the old password no longer works, the new one does.
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await submitSignIn(page, { username: user.username, password: oldPassword });
  await expect(authenticatorAlert(page)).toContainText("Incorrect username or password.");
  await submitSignIn(page, { username: user.username, password: newPassword });
  await expectWelcome(page, user.name);
});
