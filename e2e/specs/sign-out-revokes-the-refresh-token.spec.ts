import {
  displayNames,
  expect,
  readStoredTokens,
  refreshWith,
  seededUser,
  signInToHome,
  signOutThroughMenu,
  test,
} from "../support/fixtures.js";

test("signing out returns to the sign-in form and the old session can no longer be used", async ({
  page,
  request,
  state,
}) => {
  await signInToHome(page, seededUser(state, "technologist"), displayNames.technologist);
  const tokens = await readStoredTokens(page);
  expect(tokens.refreshToken, "Amplify stores a refresh token after sign-in").toBeTruthy();
  expect(tokens.idToken, "Amplify stores an ID token after sign-in").toBeTruthy();
  const refreshToken = tokens.refreshToken as string;
  const idToken = tokens.idToken as string;

  // While signed in, the refresh token works and the ID token opens the API.
  const before = await refreshWith(request, state.userPoolClientId, refreshToken);
  expect(before.status, JSON.stringify(before.body)).toBe(200);
  expect(before.body).toHaveProperty("AuthenticationResult.IdToken");
  const menuBefore = await request.get("/api/chrome", { headers: { authorization: `Bearer ${idToken}` } });
  expect(menuBefore.status()).toBe(200);

  await signOutThroughMenu(page, displayNames.technologist);

  await expect(page).toHaveURL(/#\/signin/);
  expect((await readStoredTokens(page)).refreshToken, "no refresh token is left in the browser").toBeFalsy();

  const after = await refreshWith(request, state.userPoolClientId, refreshToken);
  expect(after.status).toBe(400);
  expect(after.body.__type).toBe("NotAuthorizedException");
  // Tokens minted from the revoked refresh token stop opening the API at once.
  const menuAfter = await request.get("/api/chrome", { headers: { authorization: `Bearer ${idToken}` } });
  expect(menuAfter.status()).toBe(401);

  // The app itself no longer lets the user in: a protected page asks to sign in again.
  await page.goto("/#/continuous-monitoring/clients");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await expect(page).toHaveURL(/#\/signin\?redirect=/);
});
