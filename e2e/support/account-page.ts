import { expect, type Page } from "@playwright/test";
import { accountButton } from "./fixtures.js";
import { chooseMenuItem } from "./menus.js";

/**
 * The account page (`/account`) as a signed-in user reaches it: from the account menu in the app bar. Each part
 * of the page is a region named by its heading ("Password", "Authenticator app", "Contact details", "Sessions").
 */
export async function openAccountPage(page: Page, displayName: string): Promise<void> {
  await accountButton(page, displayName).click();
  await chooseMenuItem(page, "Account");
  await expect(page).toHaveURL(/#\/account$/);
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
}

export const accountSection = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
