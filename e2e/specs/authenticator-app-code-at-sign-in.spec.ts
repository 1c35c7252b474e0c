import { authenticatorAlert, authenticatorHeading, expectWelcome, submitCode } from "../support/authenticator.js";
import { signIn, signOutThroughMenu, submitSignIn } from "../support/fixtures.js";
import { addAuthenticatorApp, choosePasswordThroughApi } from "../support/identity-api.js";
import { expect, test } from "../support/identity-fixtures.js";

test("a user with an authenticator app confirms each sign-in with its code, and a code already used is refused", async ({
  page,
  admin,
  state,
}) => {
  // Given: a reviewer who chose a password and added an authenticator app (TOTP) earlier.
  const user = { username: "e2e-totp-user", name: "Tomas Token", email: "e2e-totp-user@vigil.example" };
  const password = "granite-willow-compass-58";
  const created = await admin.createUser({ ...user, groups: ["reviewer"] });
  const tokens = await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, password);
  const app = await addAuthenticatorApp(state.baseURL, tokens.accessToken, { preferred: true });

  // Sequence 4 of AUTH.md: password → SOFTWARE_TOKEN_MFA → signed in.
  await signIn(page, { username: user.username, password });
  await expect(authenticatorHeading(page, "Confirm TOTP Code")).toBeVisible();
  await submitCode(page, await app.nextCode());
  await expectWelcome(page, user.name);

  // The next sign-in cannot reuse that code; the app's next one works.
  await signOutThroughMenu(page, user.name);
  await submitSignIn(page, { username: user.username, password });
  await expect(authenticatorHeading(page, "Confirm TOTP Code")).toBeVisible();
  await submitCode(page, app.lastCode());
  await expect(authenticatorAlert(page)).toContainText("The verification code you entered is incorrect.");
  await expect(authenticatorHeading(page, "Confirm TOTP Code")).toBeVisible();
  await submitCode(page, await app.nextCode());
  await expectWelcome(page, user.name);
});
