import { accountSection, openAccountPage } from "../support/account-page.js";
import { authenticatorHeading, expectWelcome, submitCode } from "../support/authenticator.js";
import { signIn, signOutThroughMenu, submitSignIn } from "../support/fixtures.js";
import { AuthenticatorApp, choosePasswordThroughApi } from "../support/identity-api.js";
import { expect, test } from "../support/identity-fixtures.js";

test("a user sets up an authenticator app on the account page, signs in with its code, then removes it after confirming", async ({
  page,
  admin,
  state,
}) => {
  // Several sign-ins (argon2 on two cores) and users in one story: past a minute when two workers share the machine.
  test.setTimeout(150_000);
  const user = { username: "e2e-totp-adder", name: "Ada Adder", email: "e2e-totp-adder@vigil.example" };
  const password = "pebble-orchid-lantern-83";
  const created = await admin.createUser({ ...user, groups: ["technologist"] });
  await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, password);

  await signIn(page, { username: user.username, password });
  await expectWelcome(page, user.name);
  await openAccountPage(page, user.name);
  const section = accountSection(page, "Authenticator app");
  await expect(section).toContainText("No authenticator app is set up.");
  await section.getByRole("button", { name: "Set up authenticator app" }).click();

  // The app is added from the QR code (the otpauth:// address) or from the key printed beside it.
  const dialog = page.getByRole("dialog", { name: "Set up an authenticator app" });
  const qr = dialog.getByRole("img", { name: "QR code to scan with your authenticator app" });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml/);
  const secret = (await dialog.getByLabel("Key for the authenticator app").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  const app = new AuthenticatorApp(secret);

  await dialog.getByLabel(/^Code/).fill("000000");
  await dialog.getByRole("button", { name: "Verify and turn on" }).click();
  await expect(dialog.getByText("That code is not right: type the one the app shows now")).toBeVisible();
  await dialog.getByLabel(/^Code/).fill(await app.nextCode());
  await dialog.getByRole("button", { name: "Verify and turn on" }).click();
  await expect(dialog).toBeHidden();
  await expect(section).toContainText("An authenticator app is on.");

  // Sign-in now asks for the app's code.
  await signOutThroughMenu(page, user.name);
  await submitSignIn(page, { username: user.username, password });
  await expect(authenticatorHeading(page, "Confirm TOTP Code")).toBeVisible();
  await submitCode(page, await app.nextCode());
  await expectWelcome(page, user.name);

  // Removing it is asked first; cancelled, nothing changes.
  await openAccountPage(page, user.name);
  await section.getByRole("button", { name: "Remove authenticator app" }).click();
  const confirm = page.getByRole("dialog", { name: "Remove the authenticator app?" });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(section).toContainText("An authenticator app is on.");
  await section.getByRole("button", { name: "Remove authenticator app" }).click();
  await confirm.getByRole("button", { name: "Remove" }).click();
  await expect(section).toContainText("No authenticator app is set up.");

  await signOutThroughMenu(page, user.name);
  await submitSignIn(page, { username: user.username, password });
  await expectWelcome(page, user.name);
});
