import {
  authenticatorHeading,
  codeField,
  expectWelcome,
  fillNewPassword,
  submitCode,
} from "../support/authenticator.js";
import { signIn, signOutThroughMenu, submitSignIn } from "../support/fixtures.js";
import { expect, test } from "../support/identity-fixtures.js";

test("a user whose email is not verified is asked to verify it: skipping lets them in, the emailed code verifies it", async ({
  page,
  admin,
  preparedUser,
}) => {
  const user = preparedUser("unverified");
  const password = "linen-orchard-beacon-31";
  await signIn(page, user);
  await expect(authenticatorHeading(page, "Change Password")).toBeVisible();
  await fillNewPassword(page, password);
  await page.getByRole("button", { name: "Change Password", exact: true }).click();

  // Signed in, but with no verified contact the Authenticator asks for one first. Skipping goes on into the app.
  await expect(authenticatorHeading(page, "Account recovery requires verified contact information")).toBeVisible();
  await page.getByRole("button", { name: "Skip", exact: true }).click();
  await expectWelcome(page, user.name);

  // Next time it asks again; this time the user has the code emailed and types it in.
  await signOutThroughMenu(page, user.name);
  await submitSignIn(page, { username: user.username, password });
  await expect(authenticatorHeading(page, "Account recovery requires verified contact information")).toBeVisible();
  // The address to verify is shown masked: its first and last characters only.
  const contact = page.getByRole("radiogroup", { name: "Verify Contact" });
  await expect(contact.getByRole("radio", { name: /^Email: e\*+d@vigil\.example$/ })).toBeChecked();
  await expect(page.getByText(user.email)).toHaveCount(0);
  const before = await admin.newestMessageId(user.email);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(codeField(page)).toBeVisible();
  const code = await admin.waitForCode(user.email, before);
  await submitCode(page, code, "Submit");
  await expectWelcome(page, user.name);

  // Verified: the next sign-in goes straight in.
  await signOutThroughMenu(page, user.name);
  await submitSignIn(page, { username: user.username, password });
  await expectWelcome(page, user.name);
});
