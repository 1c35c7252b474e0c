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

  // The setup screen: a QR code for the app to scan, and the same secret as a key in groups of four, which copies
  // without spaces (the Authenticator's own unbroken 32-character line is not shown).
  await expect(authenticatorHeading(page, "Setup TOTP")).toBeVisible();
  await expect(page.getByRole("img", { name: "qr code" })).toBeVisible();
  const key = page.getByLabel("Key for the authenticator app");
  await expect(key.locator("span")).toHaveCount(8);
  await expect(key.locator("span").first()).toHaveText(/^[A-Z2-7]{4}$/);
  const secret = ((await key.textContent()) as string).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.locator("[data-amplify-copy]")).toBeHidden();
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy key" }).click();
  await expect(page.getByRole("button", { name: "Key copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  // A selection of the whole key copies it without spaces too.
  await key.selectText();
  await page.keyboard.press("ControlOrMeta+C");
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
