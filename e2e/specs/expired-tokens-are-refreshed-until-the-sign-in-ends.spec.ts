import type { APIRequestContext, Page } from "@playwright/test";
import {
  accountButton,
  expect,
  mainNavigation,
  readStoredTokens,
  refreshWith,
  signInToHome,
  test,
} from "../support/fixtures.js";
import { choosePasswordThroughApi } from "../support/identity-api.js";
import { startOwnServer } from "../support/own-server.js";
import { prepareUsers } from "../support/prepared-users.js";

/** What the API answers to this ID token right now (the server checks expiry on its own clock). */
async function menuStatusWith(request: APIRequestContext, idToken: string): Promise<number> {
  return (await request.get("/api/chrome", { headers: { authorization: `Bearer ${idToken}` } })).status();
}

function isRefresh(page: Page, timeout: number) {
  return page.waitForRequest(
    (request) =>
      new URL(request.url()).pathname === "/cognito" &&
      request.headers()["x-amz-target"] === "AWSCognitoIdentityProviderService.GetTokensFromRefreshToken",
    { timeout },
  );
}

test("a user keeps working past the one-minute token life and is signed out only when the sign-in itself ends", async ({
  browser,
  playwright,
}) => {
  // Real expiry on a server of its own: tokens live one minute, the sign-in (refresh token) 108 seconds.
  test.setTimeout(300_000);
  const vigil = await startOwnServer(
    "token-expiry",
    { ID_TOKEN_MINUTES: "1", ACCESS_TOKEN_MINUTES: "1", REFRESH_TOKEN_HOURS: "0.03" },
    (env, dataDir) =>
      prepareUsers(env, dataDir, {
        reviewer: {
          username: "e2e-night-reviewer",
          name: "Noor Nightshift",
          email: "e2e-night-reviewer@vigil.example",
          groups: ["reviewer"],
        },
      }),
  );
  const request = await playwright.request.newContext({ baseURL: vigil.baseURL });
  const context = await browser.newContext({ baseURL: vigil.baseURL });
  try {
    const reviewer = vigil.prepared.reviewer;
    const password = "night-watch-lantern-29";
    await choosePasswordThroughApi(vigil.baseURL, vigil.userPoolClientId, reviewer, password);
    const page = await context.newPage();
    await signInToHome(page, { ...reviewer, password }, reviewer.name);
    const first = await readStoredTokens(page);
    const firstIdToken = String(first.idToken);
    const refreshToken = String(first.refreshToken);

    // The open tab reads in the background too (the alerts bell every 30 s, the live-event stream reconnecting when
    // the server ends it at the token's expiry): the refresh may come from those before the user's next click does.
    // Either way it is the same refresh of the same sign-in, so it is awaited from here on.
    const refreshed = isRefresh(page, 150_000);

    // A minute later the server itself refuses the first ID token.
    await expect.poll(() => menuStatusWith(request, firstIdToken), { timeout: 90_000, intervals: [2_000] }).toBe(401);

    // The user opens another page: the tokens are refreshed and the page loads; nobody is signed out.
    await mainNavigation(page).getByRole("link", { name: "Monitoring", exact: true }).click();
    await refreshed;
    await expect(page.getByRole("heading", { level: 1, name: "Monitoring cases" })).toBeVisible();
    await expect(accountButton(page, reviewer.name)).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toHaveCount(0);
    const second = await readStoredTokens(page);
    const secondIdToken = String(second.idToken);
    expect(secondIdToken).not.toBe(firstIdToken);
    expect(second.refreshToken, "the same sign-in goes on").toBe(refreshToken);
    expect(await menuStatusWith(request, secondIdToken)).toBe(200);

    // The sign-in's own end: the refresh token is refused, and once the last ID token has expired too…
    await expect
      .poll(async () => (await refreshWith(request, vigil.userPoolClientId, refreshToken)).status, {
        timeout: 120_000,
        intervals: [3_000],
      })
      .toBe(400);
    await expect.poll(() => menuStatusWith(request, secondIdToken), { timeout: 90_000, intervals: [2_000] }).toBe(401);

    // …the user's next step asks them to sign in again, remembering where they were going. The open tab's own
    // re-read of the session (every two minutes in view) may have found the end first; then the sign-in is there.
    const next = mainNavigation(page).getByRole("link", { name: "Reviewed", exact: true });
    if (await next.isVisible()) await next.click();
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
    await expect(page).toHaveURL(/#\/signin\?redirect=/);
    expect((await readStoredTokens(page)).refreshToken, "Amplify dropped the refused refresh token").toBeFalsy();
  } finally {
    await context.close();
    await request.dispose();
    await vigil.stop();
  }
});
