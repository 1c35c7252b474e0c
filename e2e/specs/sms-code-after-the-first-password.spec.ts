import {
  authenticatorAlert,
  authenticatorHeading,
  expectWelcome,
  fillNewPassword,
  submitCode,
} from "../support/authenticator.js";
import { signIn } from "../support/fixtures.js";
import { expect, test } from "../support/identity-fixtures.js";

test("a new user with SMS MFA chooses a password, then confirms the code texted to their masked number", async ({
  page,
  admin,
  preparedUser,
}) => {
  // Sequence 2 of AUTH.md: NEW_PASSWORD_REQUIRED → SMS_MFA → signed in.
  const user = preparedUser("smsNewcomer");
  const phone = user.phone as string;
  const newPassword = "harbour-signal-violet-23";
  const before = await admin.newestMessageId(phone);
  await signIn(page, user);

  await expect(authenticatorHeading(page, "Change Password")).toBeVisible();
  await fillNewPassword(page, newPassword);
  await page.getByRole("button", { name: "Change Password", exact: true }).click();

  await expect(authenticatorHeading(page, "Confirm SMS Code")).toBeVisible();
  // Only the last 4 digits of the number are shown.
  await expect(
    page.getByText(`enter the code we texted to +*******${phone.slice(-4)}. It may take a minute to arrive.`),
  ).toBeVisible();
  await expect(page.getByText(phone)).toHaveCount(0);
  const code = await admin.waitForCode(phone, before);

  // A wrong code is refused without ending the sign-in; the right one then works.
  await submitCode(page, code === "000000" ? "111111" : "000000");
  await expect(authenticatorAlert(page)).toContainText(
    "The verification code you entered is incorrect. Please try again.",
  );
  await submitCode(page, code);
  await expectWelcome(page, user.name);
});
