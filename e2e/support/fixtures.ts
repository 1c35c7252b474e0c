import { type APIRequestContext, test as base, expect, type Page } from "@playwright/test";
import { type Credential, type E2eState, readState } from "./environment.js";
import { chooseMenuItem } from "./menus.js";

/**
 * `test` with the run's state (server URL, users) and the base URL of the server global setup started.
 * Specs import `test` and `expect` from here, never from @playwright/test directly.
 */
export const test = base.extend<{ state: E2eState }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
  state: async ({}, use) => {
    await use(readState());
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
  baseURL: async ({}, use) => {
    await use(readState().baseURL);
  },
});

export { expect };

export const mainNavigation = (page: Page) => page.getByRole("navigation", { name: "Main navigation" });
export const breadcrumbs = (page: Page) => page.getByRole("navigation", { name: "Breadcrumbs" });
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The app bar's account button: "<initials> <name>, account" (what is visible comes first, WCAG 2.5.3). */
export const accountButton = (page: Page, name: string) =>
  page.getByRole("button", { name: new RegExp(`^\\S+ ${escapeRegExp(name)}, account$`) });

/** Fills the Amplify Authenticator's sign-in form (it must be on screen) and submits it. */
export async function submitSignIn(page: Page, credential: Pick<Credential, "username" | "password">): Promise<void> {
  await page.getByLabel("Username", { exact: true }).fill(credential.username);
  await page.getByLabel("Password", { exact: true }).fill(credential.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Opens the sign-in page and signs in; the caller asserts where the user lands. */
export async function signIn(page: Page, credential: Pick<Credential, "username" | "password">): Promise<void> {
  await page.goto("/#/signin");
  await submitSignIn(page, credential);
}

/** Signs in a seeded user and waits until their home page greets them. */
export async function signInToHome(page: Page, credential: Credential, displayName: string): Promise<void> {
  await signIn(page, credential);
  await expect(page.getByRole("heading", { level: 1, name: `Welcome, ${displayName}` })).toBeVisible();
}

/** Uses the account menu in the app bar to sign out; the sign-in form comes back. */
export async function signOutThroughMenu(page: Page, displayName: string): Promise<void> {
  await accountButton(page, displayName).click();
  await chooseMenuItem(page, "Sign out");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
}

/** Amplify's stored tokens (localStorage keys `CognitoIdentityServiceProvider.<clientId>.<username>.<kind>`). */
export async function readStoredTokens(
  page: Page,
): Promise<{ refreshToken?: string; idToken?: string; accessToken?: string }> {
  return page.evaluate(() => {
    const found: Record<string, string> = {};
    for (let index = 0; index < window.localStorage.length; index++) {
      const key = window.localStorage.key(index);
      if (!key?.startsWith("CognitoIdentityServiceProvider.")) continue;
      for (const kind of ["refreshToken", "idToken", "accessToken"]) {
        if (key.endsWith(`.${kind}`)) found[kind] = window.localStorage.getItem(key) ?? "";
      }
    }
    return found;
  });
}

/** What the identity endpoint answers to a refresh with this token (Cognito's REFRESH_TOKEN_AUTH flow). */
export async function refreshWith(request: APIRequestContext, clientId: string, refreshToken: string) {
  const response = await request.post("/cognito", {
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": "AWSCognitoIdentityProviderService.InitiateAuth",
    },
    data: JSON.stringify({
      AuthFlow: "REFRESH_TOKEN_AUTH",
      ClientId: clientId,
      AuthParameters: { REFRESH_TOKEN: refreshToken },
    }),
  });
  return { status: response.status(), body: (await response.json()) as Record<string, unknown> };
}

/** Seeded users' names as the app shows them (apps/server/src/seed/demo-cases.ts). */
export const displayNames = {
  admin: "Avery Admin",
  coordinator: "Casey Coordinator",
  technologist: "Taylor Technologist",
  reviewer: "Dr. Riley Reviewer",
  billing: "Blake Billing",
  developer: "Devon Developer",
} as const;

export function seededUser(state: E2eState, username: keyof typeof displayNames): Credential {
  const user = state.users[username];
  if (!user) throw new Error(`The seed has no ${username} user.`);
  return user;
}
