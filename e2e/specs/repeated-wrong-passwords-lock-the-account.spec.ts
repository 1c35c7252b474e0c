import type { Page } from "@playwright/test";
import { authenticatorAlert } from "../support/authenticator.js";
import { submitSignIn } from "../support/fixtures.js";
import { choosePasswordThroughApi, guessUntilLockedFor } from "../support/identity-api.js";
import { expect, test } from "../support/identity-fixtures.js";

/** Submits the sign-in form and waits for the identity service's answer to it: its error message, if any. */
async function attemptSignIn(page: Page, username: string, password: string): Promise<string | undefined> {
  const answered = page.waitForResponse(
    (response) =>
      response.url().endsWith("/cognito") &&
      response.request().headers()["x-amz-target"] === "AWSCognitoIdentityProviderService.InitiateAuth",
  );
  await submitSignIn(page, { username, password });
  const body = (await (await answered).json()) as { message?: string };
  return body.message;
}

test("after five wrong passwords the account is locked: even the right password shows Password attempts exceeded", async ({
  page,
  admin,
  state,
}) => {
  const user = { username: "e2e-locked-out", name: "Lena Lockout", email: "e2e-locked-out@vigil.example" };
  const password = "obsidian-prairie-kettle-27";
  const created = await admin.createUser({ ...user, groups: ["reviewer"] });
  await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, password);

  await page.goto("/#/signin");
  for (let attempt = 1; attempt <= 5; attempt++) {
    await attemptSignIn(page, user.username, `wrong-guess-number-${attempt}`);
    await expect(authenticatorAlert(page)).toHaveText("Incorrect username or password.");
  }
  // The fifth failure locks the name for 1 s, doubling with each failure after a lock; more guesses keep it
  // locked long enough for the browser to be sure to ask within it.
  await guessUntilLockedFor(state.baseURL, state.userPoolClientId, user.username, 5, 8);

  await attemptSignIn(page, user.username, password);
  await expect(authenticatorAlert(page)).toHaveText("Password attempts exceeded");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await expect(page).toHaveURL(/#\/signin/);
});
