import { authenticatorHeading, chooseOption, expectWelcome, submitCode } from "../support/authenticator.js";
import { signIn, signOutThroughMenu, submitSignIn } from "../support/fixtures.js";
import { addAuthenticatorApp, choosePasswordThroughApi, turnOnSmsMfa } from "../support/identity-api.js";
import { expect, test } from "../support/identity-fixtures.js";

test("a user with SMS and an authenticator app on, and no preference, chooses the method at each sign-in", async ({
  page,
  admin,
  state,
}) => {
  // Given: a user with a phone number set by the administrator, who turned on both SMS MFA and an app.
  const user = {
    username: "e2e-two-factors",
    name: "Mira Twofactor",
    email: "e2e-two-factors@vigil.example",
    phoneNumber: "+15555550177",
  };
  const password = "saffron-glacier-anchor-64";
  const created = await admin.createUser({ ...user, groups: ["technologist"] });
  const tokens = await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, password);
  await turnOnSmsMfa(state.baseURL, tokens.accessToken, { preferred: false });
  const app = await addAuthenticatorApp(state.baseURL, tokens.accessToken, { preferred: false });

  // Sequence 5 of AUTH.md: password → SELECT_MFA_TYPE → the chosen challenge → signed in. First by text message.
  await signIn(page, { username: user.username, password });
  await expect(authenticatorHeading(page, "Multi-Factor Authentication")).toBeVisible();
  const methods = page.getByRole("radiogroup", { name: "Select MFA Type" });
  await expect(methods.getByRole("radio")).toHaveCount(2);
  const before = await admin.newestMessageId(user.phoneNumber);
  await chooseOption(methods, "Text Message (SMS)");
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(authenticatorHeading(page, "Confirm SMS Code")).toBeVisible();
  await expect(page.getByText("enter the code we texted to +*******0177.")).toBeVisible();
  await submitCode(page, await admin.waitForCode(user.phoneNumber, before));
  await expectWelcome(page, user.name);

  // Then with the authenticator app.
  await signOutThroughMenu(page, user.name);
  await submitSignIn(page, { username: user.username, password });
  await expect(methods).toBeVisible();
  await chooseOption(methods, "Authenticator App (TOTP)");
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(authenticatorHeading(page, "Confirm TOTP Code")).toBeVisible();
  await submitCode(page, await app.nextCode());
  await expectWelcome(page, user.name);
});
