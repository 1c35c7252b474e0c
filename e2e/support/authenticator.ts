import { expect, type Locator, type Page } from "@playwright/test";

/**
 * The Amplify Authenticator's screens as the user sees them (its own headings, labels and buttons, from
 * @aws-amplify/ui's default texts), for the sign-in challenge journeys.
 */

/** The Authenticator's screen heading ("Change Password", "Confirm SMS Code", "Setup TOTP", "Verify Contact"…). */
export const authenticatorHeading = (page: Page, name: string) => page.getByRole("heading", { name, exact: true });

/** The one-time code field of the code screens (confirm sign-in, TOTP setup, reset password, verify contact). */
export const codeField = (page: Page) => page.getByLabel("Code *", { exact: true });

/** The error the Authenticator shows above its buttons for an answer of the identity service. */
export const authenticatorAlert = (page: Page) => page.locator("[data-amplify-authenticator]").getByRole("alert");

/** Types a new password twice (Change Password, Reset your Password). */
export async function fillNewPassword(page: Page, password: string, label = "Password"): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(password);
  await page.getByLabel("Confirm Password", { exact: true }).fill(password);
}

/** Types a code and presses the screen's button ("Confirm" on the MFA screens, "Submit" elsewhere). */
export async function submitCode(page: Page, code: string, button = "Confirm"): Promise<void> {
  await codeField(page).fill(code);
  await page.getByRole("button", { name: button, exact: true }).click();
}

/** The signed-in home page greets the user by name. */
export async function expectWelcome(page: Page, name: string): Promise<void> {
  await expect(page.getByRole("heading", { level: 1, name: `Welcome, ${name}` })).toBeVisible();
}

/** Picks an option of one of the Authenticator's radio groups by its label (the radio input itself is hidden). */
export async function chooseOption(group: Locator, label: string): Promise<void> {
  await group.getByText(label, { exact: true }).click();
  await expect(group.getByRole("radio", { name: label, exact: true })).toBeChecked();
}
