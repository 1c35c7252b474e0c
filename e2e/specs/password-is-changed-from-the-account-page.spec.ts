import { accountSection, openAccountPage } from "../support/account-page.js";
import { authenticatorAlert, expectWelcome } from "../support/authenticator.js";
import { signIn, signOutThroughMenu, submitSignIn } from "../support/fixtures.js";
import { choosePasswordThroughApi } from "../support/identity-api.js";
import { expect, test } from "../support/identity-fixtures.js";

test("a user changes their password on the account page: the policy is shown as they type, and only the new password signs in", async ({
  page,
  admin,
  state,
}) => {
  // Given: a coordinator who chose a password at their first sign-in.
  const user = { username: "e2e-password-changer", name: "Pat Changer", email: "e2e-password-changer@vigil.example" };
  const oldPassword = "harbour-violet-kettle-27";
  const newPassword = "saffron-glacier-tandem-64";
  const created = await admin.createUser({ ...user, groups: ["coordinator"] });
  await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, oldPassword);

  await signIn(page, { username: user.username, password: oldPassword });
  await expectWelcome(page, user.name);
  await openAccountPage(page, user.name);
  const section = accountSection(page, "Password");

  await section.getByLabel(/^Current password/).fill(oldPassword);
  const rules = section.getByRole("list", { name: "Password rules" });
  const lengthRule = rules.getByRole("listitem").first();
  await section.getByLabel(/^New password/).fill("short");
  await expect(lengthRule).toContainText("(not met yet)");
  await section.getByLabel(/^New password/).fill(newPassword);
  await expect(lengthRule).toContainText("(met)");
  await section.getByLabel(/^Confirm new password/).fill(newPassword);
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByRole("status")).toHaveText("Your password was changed. Your other sign-ins have ended.");

  // This sign-in stays; the next one needs the new password.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await signOutThroughMenu(page, user.name);
  await submitSignIn(page, { username: user.username, password: oldPassword });
  await expect(authenticatorAlert(page)).toContainText("Incorrect username or password.");
  await submitSignIn(page, { username: user.username, password: newPassword });
  await expectWelcome(page, user.name);
});
