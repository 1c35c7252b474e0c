import type { Page } from "@playwright/test";
import { providerAccounts } from "../support/federation-environment.js";
import { expect, test } from "../support/federation-fixtures.js";
import { accountButton, displayNames, mainNavigation } from "../support/fixtures.js";
import { chooseMenuItem } from "../support/menus.js";

/** Fills the local provider's own sign-in form (it plays Google; any password is accepted). */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.getByPlaceholder("Enter any login").fill(login);
  await page.getByPlaceholder("and password").fill("a password the provider checks");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

/** Anything the Content-Security-Policy blocks along the way (the token call goes to the hosted UI's origin). */
function watchForViolations(page: Page): () => string[] {
  const reports: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text())) {
      reports.push(message.text());
    }
  });
  return () => [...reports];
}

test.describe("federated sign-in through the hosted UI", () => {
  test("a coordinator signs in with Google and lands signed in with their menu", async ({ page, federation }) => {
    const violations = watchForViolations(page);
    await page.goto("/#/signin");
    await page.getByRole("button", { name: "Sign In with Google" }).click();

    // Amplify went to https://<domain>/oauth2/authorize, which sent the browser on to the provider.
    await expect(page).toHaveURL(new RegExp(`^${federation.providerIssuer}/interaction/`));
    await signInAtProvider(page, providerAccounts.coordinator.login);

    await expect(page.getByRole("heading", { level: 1, name: `Welcome, ${displayNames.coordinator}` })).toBeVisible();
    await expect(accountButton(page, displayNames.coordinator)).toBeVisible();
    await expect(mainNavigation(page).getByRole("link", { name: "Clients", exact: true })).toBeVisible();
    // Amplify exchanged the single-use code and took it out of the address bar.
    expect(new URL(page.url()).searchParams.get("code")).toBeNull();
    expect(violations(), "Content-Security-Policy violations").toEqual([]);

    // Signing out revokes the refresh token and goes through the hosted UI's /logout back to the app.
    const logout = page.waitForRequest((request) => request.url().startsWith(`${federation.hostedUiOrigin}/logout`));
    await accountButton(page, displayNames.coordinator).click();
    await chooseMenuItem(page, "Sign out");
    await logout;
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign In with Google" })).toBeVisible();
  });

  test("opened at another address of the server, the sign-in page says where Google sign-in works and links there", async ({
    browser,
    federation,
  }) => {
    // The same server answers at localhost; the hosted UI only ever returns to PUBLIC_URL (127.0.0.1).
    const publicUrl = new URL(federation.baseURL);
    const otherAddress = `http://localhost:${publicUrl.port}`;
    const context = await browser.newContext({ baseURL: otherAddress, ignoreHTTPSErrors: true });
    const page = await context.newPage();
    try {
      await page.goto("/#/signin");
      await expect(
        page.getByText(/Sign-in with Google works only at Vigil's main address, not at this one/),
      ).toBeVisible();
      await expect(page.getByRole("button", { name: "Sign In with Google" })).toHaveCount(0);
      await expect(page.getByText(/different origin/)).toHaveCount(0);
      // Password sign-in stays where it is.
      await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();

      await page.getByRole("link", { name: `Open the sign-in page at ${publicUrl.origin}` }).click();
      await expect(page).toHaveURL(`${publicUrl.origin}/#/signin`);
      await expect(page.getByRole("button", { name: "Sign In with Google" })).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test("an address no Vigil user has is refused on the sign-in screen", async ({ page }) => {
    await page.goto("/#/signin");
    await page.getByRole("button", { name: "Sign In with Google" }).click();
    await signInAtProvider(page, providerAccounts.stranger.login);

    await expect(page.getByRole("alert")).toContainText(
      "No Vigil account uses this Google address. Ask an administrator.",
    );
    await expect(page).toHaveURL(/#\/signin$/);
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
    expect(new URL(page.url()).searchParams.get("error")).toBeNull();
  });
});
