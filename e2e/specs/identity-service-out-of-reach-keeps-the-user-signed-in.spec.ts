import {
  accountButton,
  displayNames,
  expect,
  mainNavigation,
  readStoredTokens,
  seededUser,
  signInToHome,
  test,
} from "../support/fixtures.js";

const unreachableNotice =
  "The sign-in service cannot be reached. You are still signed in; Vigil keeps trying to reconnect.";

test("with the tokens expired and the identity service out of reach, the user stays signed in and carries on once it is back", async ({
  page,
  state,
}) => {
  // The browser's clock is Playwright's, so the one-hour tokens can expire for the app without an hour's wait;
  // the server, on real time, still accepts the refresh token once it is reachable again.
  await page.clock.install();
  await signInToHome(page, seededUser(state, "coordinator"), displayNames.coordinator);
  const signedIn = await readStoredTokens(page);

  const refused: string[] = [];
  await page.route("**/cognito", async (route) => {
    refused.push(route.request().headers()["x-amz-target"] ?? "");
    await route.abort("internetdisconnected");
  });
  await page.clock.fastForward("01:01:00");

  // The user keeps working: the next page needs a fresh token, and the refresh cannot get through.
  await mainNavigation(page).getByRole("link", { name: "Clients", exact: true }).click();
  const notice = page.getByRole("alert").filter({ hasText: unreachableNotice });
  await expect(notice).toBeVisible();
  expect(refused).toContain("AWSCognitoIdentityProviderService.GetTokensFromRefreshToken");

  // Vigil tries again by itself (every 10 s): still out of reach, still signed in, the refresh token kept.
  const attemptsBefore = refused.length;
  await page.clock.runFor(10_000);
  await expect.poll(() => refused.length).toBeGreaterThan(attemptsBefore);
  await expect(notice).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toHaveCount(0);
  await expect(page).toHaveURL(/#\/continuous-monitoring\/clients$/);
  await expect(accountButton(page, displayNames.coordinator)).toBeVisible();
  expect((await readStoredTokens(page)).refreshToken).toBe(signedIn.refreshToken);

  // Reloading meanwhile does not sign them out either: the expired tokens are read afresh, the refresh fails
  // again, and the page waits for the connection (nothing of the account could be loaded without a token).
  await page.reload();
  await expect(notice).toBeVisible();
  await expect(page.getByText("Your account details could not be loaded.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toHaveCount(0);
  await expect(page).toHaveURL(/#\/continuous-monitoring\/clients$/);

  // The network is back: the next attempt refreshes the tokens and the page that could not load loads.
  await page.unroute("**/cognito");
  await page.clock.runFor(10_000);
  await expect(notice).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
  // The list that failed while the identity service was away is read again, with the new token.
  await expect(page.getByRole("table").getByRole("row").nth(1)).toBeVisible();
  await expect(accountButton(page, displayNames.coordinator)).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toHaveCount(0);
  expect((await readStoredTokens(page)).idToken).not.toBe(signedIn.idToken);
});
