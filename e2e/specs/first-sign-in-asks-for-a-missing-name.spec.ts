import { authenticatorHeading, expectWelcome, fillNewPassword } from "../support/authenticator.js";
import { accountButton, signIn, signOutThroughMenu, submitSignIn } from "../support/fixtures.js";
import { expect, test } from "../support/identity-fixtures.js";

test("an administrator-created user without a name chooses a password and gives their name, then lands signed in", async ({
  page,
  preparedUser,
}) => {
  // Sequence 1 of AUTH.md with a required attribute missing: NEW_PASSWORD_REQUIRED lists `name`.
  const user = preparedUser("nameless");
  const newPassword = "copper-meadow-lantern-19";
  await signIn(page, user);

  await expect(authenticatorHeading(page, "Change Password")).toBeVisible();
  const nameField = page.getByLabel("Name", { exact: true });
  await expect(nameField).toBeVisible();
  await fillNewPassword(page, newPassword);
  await nameField.fill("Nora Named");
  await page.getByRole("button", { name: "Change Password", exact: true }).click();

  await expectWelcome(page, "Nora Named");
  await expect(accountButton(page, "Nora Named")).toBeVisible();

  // The name was kept, and the chosen password is the one that works now.
  await signOutThroughMenu(page, "Nora Named");
  await submitSignIn(page, { username: user.username, password: newPassword });
  await expectWelcome(page, "Nora Named");
});
