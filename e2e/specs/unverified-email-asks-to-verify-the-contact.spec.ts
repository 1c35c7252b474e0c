import { accountSection, openAccountPage } from "../support/account-page.js";
import { authenticatorHeading, codeField, expectWelcome, submitCode } from "../support/authenticator.js";
import {
  displayNames,
  seededUser,
  signIn,
  signInToHome,
  signOutThroughMenu,
  submitSignIn,
} from "../support/fixtures.js";
import { choosePasswordThroughApi } from "../support/identity-api.js";
import { expect, test } from "../support/identity-fixtures.js";
import { chooseMenuItem } from "../support/menus.js";

const verifyContactHeading = "Account recovery requires verified contact information";

test("a user who changes their email on the account page is asked at sign-in to verify it: skipping lets them in, the emailed code verifies it", async ({
  page,
  admin,
  state,
}) => {
  const user = { username: "e2e-email-mover", name: "Emil Mover", email: "e2e-email-mover@vigil.example" };
  const newEmail = "e2e-moved-email@vigil.example";
  const password = "linen-orchard-beacon-31";
  const created = await admin.createUser({ ...user, groups: ["coordinator"] });
  await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, password);

  // Verified email: sign-in goes straight in.
  await signIn(page, { username: user.username, password });
  await expectWelcome(page, user.name);
  await openAccountPage(page, user.name);
  const contact = accountSection(page, "Contact details");
  await expect(contact).toContainText(user.email);
  await contact.getByRole("button", { name: "Change email" }).click();
  const before = await admin.newestMessageId(newEmail);
  await contact.getByLabel(/^New email/).fill(newEmail);
  await contact.getByRole("button", { name: "Send code" }).click();
  // The code went to the new address; the user leaves it for later, so the address stays unverified.
  await expect(contact.getByText(/^A code was sent to e\*+l@vigil\.example\./)).toBeVisible();
  await admin.waitForCode(newEmail, before);
  await contact.getByRole("button", { name: "Later" }).click();
  await expect(contact).toContainText(newEmail);
  await expect(contact.getByText("Not verified")).toBeVisible();

  // With no verified contact the Authenticator asks for one after the password. Skipping goes on into the app.
  await signOutThroughMenu(page, user.name);
  await submitSignIn(page, { username: user.username, password });
  await expect(authenticatorHeading(page, verifyContactHeading)).toBeVisible();
  await page.getByRole("button", { name: "Skip", exact: true }).click();
  await expectWelcome(page, user.name);

  // Next time it asks again; this time the user has the code emailed to the new address and types it in.
  await signOutThroughMenu(page, user.name);
  await submitSignIn(page, { username: user.username, password });
  await expect(authenticatorHeading(page, verifyContactHeading)).toBeVisible();
  // The address to verify is shown masked: its first and last characters only.
  const choice = page.getByRole("radiogroup", { name: "Verify Contact" });
  await expect(choice.getByRole("radio", { name: /^Email: e\*+l@vigil\.example$/ })).toBeChecked();
  await expect(page.getByText(newEmail)).toHaveCount(0);
  const beforeVerify = await admin.newestMessageId(newEmail);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(codeField(page)).toBeVisible();
  await submitCode(page, await admin.waitForCode(newEmail, beforeVerify), "Submit");
  await expectWelcome(page, user.name);

  // Verified: the account page says so, and the next sign-in goes straight in.
  await openAccountPage(page, user.name);
  await expect(contact.getByText("Verified", { exact: true })).toBeVisible();
  await signOutThroughMenu(page, user.name);
  await submitSignIn(page, { username: user.username, password });
  await expectWelcome(page, user.name);
});

test("an email an administrator changes on the users screen is verified by the user at their next sign-in", async ({
  page,
  admin,
  state,
}) => {
  const user = { username: "e2e-email-reassigned", name: "Remy Reassigned", email: "e2e-email-old@vigil.example" };
  const newEmail = "e2e-email-reassigned@vigil.example";
  const password = "quartz-meadow-harbor-72";
  const created = await admin.createUser({ ...user, groups: ["billing"] });
  await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, password);

  // The administrator changes the address in the user's contact details.
  await signInToHome(page, seededUser(state, "admin"), displayNames.admin);
  await page.goto(`/#/users?search=${user.username}`);
  await page.getByRole("button", { name: `Actions for ${user.username}` }).click();
  await chooseMenuItem(page, "Edit contact details");
  const dialog = page.getByRole("dialog", { name: `Contact details of ${user.username}` });
  await dialog.getByRole("textbox", { name: /^Email/ }).fill(newEmail);
  await dialog.getByRole("button", { name: "Save contact details" }).click();
  await expect(page.getByText(`Contact details of ${user.username} were saved.`)).toBeVisible();
  await signOutThroughMenu(page, displayNames.admin);

  // The user's next sign-in asks them to verify the new address with a code sent to it.
  await submitSignIn(page, { username: user.username, password });
  await expect(authenticatorHeading(page, verifyContactHeading)).toBeVisible();
  const choice = page.getByRole("radiogroup", { name: "Verify Contact" });
  await expect(choice.getByRole("radio", { name: /^Email: e\*+d@vigil\.example$/ })).toBeChecked();
  const before = await admin.newestMessageId(newEmail);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await submitCode(page, await admin.waitForCode(newEmail, before), "Submit");
  await expectWelcome(page, user.name);

  await signOutThroughMenu(page, user.name);
  await submitSignIn(page, { username: user.username, password });
  await expectWelcome(page, user.name);
});
