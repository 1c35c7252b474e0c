import {
  authenticatorHeading,
  codeField,
  expectWelcome,
  fillNewPassword,
  submitCode,
} from "../support/authenticator.js";
import { signIn, signOutThroughMenu, submitSignIn } from "../support/fixtures.js";
import { AuthenticatorApp } from "../support/identity-api.js";
import { expect, test } from "../support/mfa-required-fixtures.js";

test("where MFA is required, a new user sets up an authenticator app from the QR code's secret, then lands signed in", async ({
  page,
  context,
  mfaRequired,
}) => {
  // Sequence 3 of AUTH.md: NEW_PASSWORD_REQUIRED → MFA_SETUP → AssociateSoftwareToken → VerifySoftwareToken.
  const user = mfaRequired.prepared.newcomer;
  const password = "juniper-falcon-harvest-38";
  await signIn(page, user);
  await expect(authenticatorHeading(page, "Change Password")).toBeVisible();
  await fillNewPassword(page, password);
  await page.getByRole("button", { name: "Change Password", exact: true }).click();

  // The setup screen: a QR code for the app to scan, and the same secret as text with a button to copy it.
  await expect(authenticatorHeading(page, "Setup TOTP")).toBeVisible();
  await expect(page.getByRole("img", { name: "qr code" })).toBeVisible();
  const secretText = page.locator("[data-amplify-copy] > div").first();
  await expect(secretText).toHaveText(/^[A-Z2-7]{32}$/);
  const secret = (await secretText.textContent()) as string;
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  // The copy control is an icon whose tooltip says COPY, then COPIED.
  const copy = page.locator("[data-amplify-copy-svg]");
  await expect(copy).toHaveText("COPY");
  await copy.click();
  await expect(copy).toHaveText("COPIED");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  // What an authenticator app computes from that secret (RFC 6238) completes the setup and the sign-in.
  const app = new AuthenticatorApp(secret);
  await expect(codeField(page)).toBeVisible();
  await submitCode(page, await app.nextCode());
  await expectWelcome(page, user.name);

  // From now on the password is followed by the app's code.
  await signOutThroughMenu(page, user.name);
  await submitSignIn(page, { username: user.username, password });
  await expect(authenticatorHeading(page, "Confirm TOTP Code")).toBeVisible();
  await submitCode(page, await app.nextCode());
  await expectWelcome(page, user.name);
});
