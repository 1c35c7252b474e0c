import { accountSection, openAccountPage } from "../support/account-page.js";
import { expectWelcome } from "../support/authenticator.js";
import { readStoredTokens, refreshWith, signIn } from "../support/fixtures.js";
import { choosePasswordThroughApi } from "../support/identity-api.js";
import { expect, test } from "../support/identity-fixtures.js";

test("signing out everywhere from the account page, after confirming, ends the session in another browser too, which says why", async ({
  page,
  browser,
  admin,
  state,
  request,
}) => {
  const user = { username: "e2e-everywhere", name: "Eve Everywhere", email: "e2e-everywhere@vigil.example" };
  const password = "lantern-cobalt-meadow-46";
  const created = await admin.createUser({ ...user, groups: ["coordinator"] });
  await choosePasswordThroughApi(state.baseURL, state.userPoolClientId, created, password);

  // The same user is signed in on another device (a second browser context: its own storage).
  const otherContext = await browser.newContext({ baseURL: state.baseURL });
  const other = await otherContext.newPage();
  try {
    await signIn(other, { username: user.username, password });
    await expectWelcome(other, user.name);
    const otherTokens = await readStoredTokens(other);

    await signIn(page, { username: user.username, password });
    await expectWelcome(page, user.name);
    await openAccountPage(page, user.name);
    await accountSection(page, "Sessions").getByRole("button", { name: "Sign out everywhere" }).click();
    const confirm = page.getByRole("dialog", { name: "Sign out everywhere?" });
    await expect(confirm).toContainText("this one included");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();

    await accountSection(page, "Sessions").getByRole("button", { name: "Sign out everywhere" }).click();
    await confirm.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
    expect((await readStoredTokens(page)).refreshToken, "no refresh token is left in this browser").toBeFalsy();

    // The other browser's refresh token no longer works, and its next step in the app asks it to sign in.
    const refresh = await refreshWith(request, state.userPoolClientId, otherTokens.refreshToken as string);
    expect(refresh.status).toBe(400);
    expect(refresh.body.__type).toBe("NotAuthorizedException");
    await other.goto("/#/continuous-monitoring/clients");
    await expect(other.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
    // And says why: the user did it elsewhere, not an administrator, not a timeout.
    await expect(other.getByText(/^You were signed out because your account was signed out everywhere/)).toBeVisible();
  } finally {
    await otherContext.close();
  }
});
