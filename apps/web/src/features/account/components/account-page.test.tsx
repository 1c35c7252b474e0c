import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { envelope, type Handler } from "../../../test/fake-server";
import { renderPageScreens } from "../../../test/render-page-screens";
import { AccountPage } from "./account-page";

type CognitoCall = { target: string; body: Record<string, unknown> };
type CognitoAnswer = Record<string, unknown> | { error: string; message: string };

/** The user the identity service holds: GetUser answers from it, and the operations below change it. */
type Account = {
  email: string;
  emailVerified: boolean;
  phone?: string;
  phoneVerified?: boolean;
  mfa: ("SMS_MFA" | "SOFTWARE_TOKEN_MFA")[];
  preferred?: "SMS_MFA" | "SOFTWARE_TOKEN_MFA";
};

/**
 * Vigil's identity endpoint at the wire level Amplify speaks (one POST, the operation in `x-amz-target`, Cognito's
 * error shape); `answer` decides each call, GetUser answers from `account` unless `answer` does.
 */
function identityService(account: Account, answer: (call: CognitoCall) => CognitoAnswer | undefined) {
  const calls: CognitoCall[] = [];
  const handler: Handler = async ({ headers, text }) => {
    const target = (headers.get("x-amz-target") ?? "").replace("AWSCognitoIdentityProviderService.", "");
    const call = { target, body: JSON.parse((await text()) || "{}") as Record<string, unknown> };
    calls.push(call);
    const given = answer(call) ?? (target === "GetUser" ? getUserAnswer(account) : {});
    if ("error" in given) {
      return new Response(JSON.stringify({ __type: given.error, message: given.message }), {
        status: 400,
        headers: { "content-type": "application/x-amz-json-1.1", "x-amzn-errortype": String(given.error) },
      });
    }
    return new Response(JSON.stringify(given), {
      status: 200,
      headers: { "content-type": "application/x-amz-json-1.1" },
    });
  };
  return { handler, calls, of: (target: string) => calls.filter((call) => call.target === target) };
}

function getUserAnswer(account: Account) {
  const attributes: Record<string, string> = {
    sub: "7d0f4f3e-2b7a-4a51-9a55-3f1f1b0c2a10",
    email: account.email,
    email_verified: String(account.emailVerified),
    name: "Alice Smith",
  };
  if (account.phone) {
    attributes.phone_number = account.phone;
    attributes.phone_number_verified = String(Boolean(account.phoneVerified));
  }
  return {
    Username: "alice",
    UserAttributes: Object.entries(attributes).map(([Name, Value]) => ({ Name, Value })),
    ...(account.preferred ? { PreferredMfaSetting: account.preferred } : {}),
    ...(account.mfa.length > 0 ? { UserMFASettingList: account.mfa } : {}),
  };
}

function renderAccount(
  account: Account,
  answer: (call: CognitoCall) => CognitoAnswer | undefined = () => undefined,
  routes: Record<string, Handler> = {},
) {
  const identity = identityService(account, answer);
  const onAccountChanged = vi.fn();
  const view = renderPageScreens(
    "/account",
    { account: () => <AccountPage username="alice" onAccountChanged={onAccountChanged} /> },
    { groups: ["coordinator"], routes: { "POST /cognito": identity.handler, ...routes } },
  );
  return { ...view, identity, onAccountChanged };
}

describe("the account page", () => {
  it("changes the password with the current one, ticking off the policy's rules as the new one is typed", async () => {
    const user = userEvent.setup();
    const { identity } = renderAccount({ email: "alice@example.org", emailVerified: true, mfa: [] });
    const password = await screen.findByRole("region", { name: "Password" });
    const rules = within(password).getByRole("list", { name: "Password rules" });
    expect(within(rules).getByText(/At least 12 characters/).textContent).toContain("(not met yet)");

    await user.type(within(password).getByLabelText(/^Current password/), "old-password-here");
    await user.type(within(password).getByLabelText(/^New password/), "linen-orchard-31");
    expect(within(rules).getByText(/At least 12 characters/).textContent).toContain("(met)");
    await user.type(within(password).getByLabelText(/^Confirm new password/), "linen-orchard-3");
    await user.click(within(password).getByRole("button", { name: "Change password" }));
    expect(await within(password).findByText("Confirm new password does not match the new password")).toBeTruthy();
    expect(identity.of("ChangePassword")).toHaveLength(0);

    await user.type(within(password).getByLabelText(/^Confirm new password/), "1");
    await user.click(within(password).getByRole("button", { name: "Change password" }));
    expect(await within(password).findByText(/Your password was changed/)).toBeTruthy();
    expect(identity.of("ChangePassword")[0]?.body).toMatchObject({
      PreviousPassword: "old-password-here",
      ProposedPassword: "linen-orchard-31",
    });
    expect(identity.of("ChangePassword")[0]?.body.AccessToken).toBeTypeOf("string");
    // The form is emptied: the passwords do not stay on screen.
    expect((within(password).getByLabelText(/^New password/) as HTMLInputElement).value).toBe("");
  });

  it("shows a refused current password under its field and a refused new one under that", async () => {
    const user = userEvent.setup();
    let refusal = { error: "NotAuthorizedException", message: "Incorrect username or password." };
    renderAccount({ email: "alice@example.org", emailVerified: true, mfa: [] }, ({ target }) =>
      target === "ChangePassword" ? refusal : undefined,
    );
    const password = await screen.findByRole("region", { name: "Password" });
    await user.type(within(password).getByLabelText(/^Current password/), "not-my-password");
    await user.type(within(password).getByLabelText(/^New password/), "password1234");
    await user.type(within(password).getByLabelText(/^Confirm new password/), "password1234");
    await user.click(within(password).getByRole("button", { name: "Change password" }));
    const current = within(password).getByLabelText(/^Current password/);
    await waitFor(() => expect(current.getAttribute("aria-invalid")).toBe("true"));
    expect(within(password).getByText("Current password is not right")).toBeTruthy();
    expect(document.activeElement).toBe(current);

    refusal = {
      error: "InvalidPasswordException",
      message: "Password does not conform to policy: Password is too common",
    };
    await user.clear(current);
    await user.type(current, "my-real-password");
    await user.click(within(password).getByRole("button", { name: "Change password" }));
    expect(
      await within(password).findByText("Password does not conform to policy: Password is too common"),
    ).toBeTruthy();
    expect(
      within(password)
        .getByLabelText(/^New password/)
        .getAttribute("aria-invalid"),
    ).toBe("true");
  });

  it("sets up an authenticator app from its QR code and a first code, and turns it on as the preferred factor", async () => {
    const user = userEvent.setup();
    const account: Account = { email: "alice@example.org", emailVerified: true, mfa: [] };
    const { identity, onAccountChanged } = renderAccount(account, ({ target, body }) => {
      if (target === "AssociateSoftwareToken") return { SecretCode: "JBSWY3DPEHPK3PXP" };
      if (target === "VerifySoftwareToken") {
        return body.UserCode === "123456"
          ? { Status: "SUCCESS" }
          : { error: "EnableSoftwareTokenMFAException", message: "Code mismatch and fail enable Software Token MFA" };
      }
      if (target === "SetUserMFAPreference") {
        account.mfa = ["SOFTWARE_TOKEN_MFA"];
        account.preferred = "SOFTWARE_TOKEN_MFA";
      }
      return undefined;
    });
    const app = await screen.findByRole("region", { name: "Authenticator app" });
    expect(within(app).getByText("No authenticator app is set up.")).toBeTruthy();
    await user.click(within(app).getByRole("button", { name: "Set up authenticator app" }));

    const dialog = await screen.findByRole("dialog", { name: "Set up an authenticator app" });
    const qr = await within(dialog).findByRole("img", { name: "QR code to scan with your authenticator app" });
    const svg = decodeURIComponent((qr.getAttribute("src") ?? "").replace("data:image/svg+xml;charset=utf-8,", ""));
    expect(svg).toMatch(/^<svg /);
    expect(within(dialog).getByLabelText("Key for the authenticator app").textContent).toBe("JBSWY3DPEHPK3PXP");

    await user.type(within(dialog).getByLabelText(/^Code/), "654321");
    await user.click(within(dialog).getByRole("button", { name: "Verify and turn on" }));
    expect(await within(dialog).findByText("That code is not right: type the one the app shows now")).toBeTruthy();
    expect(identity.of("SetUserMFAPreference")).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText(/^Code/));
    await user.type(within(dialog).getByLabelText(/^Code/), "123456");
    await user.click(within(dialog).getByRole("button", { name: "Verify and turn on" }));
    expect(await within(app).findByText("An authenticator app is on.")).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(identity.of("VerifySoftwareToken").at(-1)?.body).toMatchObject({ UserCode: "123456" });
    expect(identity.of("SetUserMFAPreference")[0]?.body).toMatchObject({
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    });
    expect(onAccountChanged).toHaveBeenCalled();
  });

  it("asks before removing the authenticator app, and removes it only when confirmed", async () => {
    const user = userEvent.setup();
    const account: Account = {
      email: "alice@example.org",
      emailVerified: true,
      mfa: ["SOFTWARE_TOKEN_MFA"],
      preferred: "SOFTWARE_TOKEN_MFA",
    };
    const { identity } = renderAccount(account, ({ target }) => {
      if (target === "SetUserMFAPreference") account.mfa = [];
      return undefined;
    });
    const app = await screen.findByRole("region", { name: "Authenticator app" });
    await user.click(within(app).getByRole("button", { name: "Remove authenticator app" }));
    const confirm = await screen.findByRole("dialog", { name: "Remove the authenticator app?" });
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(identity.of("SetUserMFAPreference")).toHaveLength(0);

    await user.click(within(app).getByRole("button", { name: "Remove authenticator app" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Remove" }));
    expect(await within(app).findByText("No authenticator app is set up.")).toBeTruthy();
    expect(identity.of("SetUserMFAPreference")[0]?.body).toMatchObject({
      SoftwareTokenMfaSettings: { Enabled: false },
    });
  });

  it("chooses which of two second factors sign-in asks for, and turns text-message codes on only for a verified phone", async () => {
    const user = userEvent.setup();
    const account: Account = {
      email: "alice@example.org",
      emailVerified: true,
      phone: "+15555550142",
      phoneVerified: true,
      mfa: ["SMS_MFA", "SOFTWARE_TOKEN_MFA"],
    };
    const { identity } = renderAccount(account, ({ target, body }) => {
      if (target === "SetUserMFAPreference") {
        const sms = body.SMSMfaSettings as { PreferredMfa?: boolean } | undefined;
        account.preferred = sms?.PreferredMfa ? "SMS_MFA" : "SOFTWARE_TOKEN_MFA";
      }
      return undefined;
    });
    const codes = await screen.findByRole("region", { name: "Sign-in codes" });
    expect(within(codes).getByText("Sign-in asks you to choose each time.")).toBeTruthy();
    await user.click(within(codes).getByRole("radio", { name: "Text message" }));
    await waitFor(() =>
      expect(within(codes).getByRole("radio", { name: "Text message" })).toHaveProperty("checked", true),
    );
    expect(identity.of("SetUserMFAPreference")[0]?.body).toMatchObject({
      SMSMfaSettings: { Enabled: true, PreferredMfa: true },
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: false },
    });
    expect(within(codes).getByRole("switch", { name: "Text-message codes" })).toHaveProperty("checked", true);
  });

  it("keeps text-message codes off while the phone number is not verified", async () => {
    renderAccount({ email: "alice@example.org", emailVerified: true, phone: "+15555550142", mfa: [] });
    const codes = await screen.findByRole("region", { name: "Sign-in codes" });
    const toggle = within(codes).getByRole("switch", { name: "Text-message codes" });
    expect(toggle).toHaveProperty("disabled", true);
    expect(toggle.getAttribute("aria-describedby")).toBeTruthy();
    expect(within(codes).getByText("Verify your phone number under Contact details first.")).toBeTruthy();
  });

  it("changes the email: the new address stays unverified until the code sent to it is typed", async () => {
    const user = userEvent.setup();
    const account: Account = { email: "alice@example.org", emailVerified: true, mfa: [] };
    const { identity } = renderAccount(account, ({ target, body }) => {
      if (target === "UpdateUserAttributes") {
        account.email = "alice@new.example";
        account.emailVerified = false;
        return {
          CodeDeliveryDetailsList: [
            { AttributeName: "email", DeliveryMedium: "EMAIL", Destination: "a***e@new.example" },
          ],
        };
      }
      if (target === "VerifyUserAttribute") {
        if (body.Code !== "246810")
          return { error: "CodeMismatchException", message: "Invalid verification code provided, please try again." };
        account.emailVerified = true;
      }
      return undefined;
    });
    const contact = await screen.findByRole("region", { name: "Contact details" });
    await user.click(within(contact).getByRole("button", { name: "Change email" }));
    await user.type(within(contact).getByLabelText(/^New email/), "not an address");
    await user.click(within(contact).getByRole("button", { name: "Send code" }));
    expect(await within(contact).findByText("New email must be an email address")).toBeTruthy();
    expect(identity.of("UpdateUserAttributes")).toHaveLength(0);

    await user.clear(within(contact).getByLabelText(/^New email/));
    await user.type(within(contact).getByLabelText(/^New email/), "alice@new.example");
    await user.click(within(contact).getByRole("button", { name: "Send code" }));
    expect(await within(contact).findByText(/A code was sent to a\*\*\*e@new\.example\./)).toBeTruthy();
    expect(identity.of("UpdateUserAttributes")[0]?.body).toMatchObject({
      UserAttributes: [{ Name: "email", Value: "alice@new.example" }],
    });
    expect(await within(contact).findByText("Not verified")).toBeTruthy();

    await user.type(within(contact).getByLabelText(/^Verification code/), "111111");
    await user.click(within(contact).getByRole("button", { name: "Verify" }));
    expect(await within(contact).findByText("Invalid verification code provided, please try again.")).toBeTruthy();
    await user.clear(within(contact).getByLabelText(/^Verification code/));
    await user.type(within(contact).getByLabelText(/^Verification code/), "246810");
    await user.click(within(contact).getByRole("button", { name: "Verify" }));
    expect(await within(contact).findByText("Your email is verified.")).toBeTruthy();
    expect(identity.of("VerifyUserAttribute").at(-1)?.body).toMatchObject({ AttributeName: "email", Code: "246810" });
    await waitFor(() => expect(within(contact).queryByText("Not verified")).toBeNull());
  });

  it("asks before signing out everywhere, then ends every sign-in and forgets this one's tokens", async () => {
    const user = userEvent.setup();
    const { identity } = renderAccount({ email: "alice@example.org", emailVerified: true, mfa: [] });
    const sessions = await screen.findByRole("region", { name: "Sessions" });
    await user.click(within(sessions).getByRole("button", { name: "Sign out everywhere" }));
    const confirm = await screen.findByRole("dialog", { name: "Sign out everywhere?" });
    expect(identity.of("GlobalSignOut")).toHaveLength(0);
    await user.click(within(confirm).getByRole("button", { name: "Sign out everywhere" }));
    await waitFor(() => expect(identity.of("GlobalSignOut")).toHaveLength(1));
    expect(identity.of("GlobalSignOut")[0]?.body.AccessToken).toBeTypeOf("string");
    await waitFor(() =>
      expect(Object.keys(window.localStorage).filter((key) => key.endsWith(".refreshToken"))).toEqual([]),
    );
  });

  it("says so and keeps this sign-in when the sessions could not be ended", async () => {
    const user = userEvent.setup();
    renderAccount({ email: "alice@example.org", emailVerified: true, mfa: [] }, ({ target }) =>
      target === "GlobalSignOut"
        ? { error: "InternalErrorException", message: "An internal error occurred." }
        : undefined,
    );
    const sessions = await screen.findByRole("region", { name: "Sessions" });
    await user.click(within(sessions).getByRole("button", { name: "Sign out everywhere" }));
    const confirm = await screen.findByRole("dialog", { name: "Sign out everywhere?" });
    await user.click(within(confirm).getByRole("button", { name: "Sign out everywhere" }));
    expect(await within(confirm).findByText("An internal error occurred.")).toBeTruthy();
    expect(Object.keys(window.localStorage).filter((key) => key.endsWith(".refreshToken"))).toHaveLength(1);
  });

  it("turns the e-mail copy of clock alerts on and off, saved for the user", async () => {
    const user = userEvent.setup();
    const saved: unknown[] = [];
    let preferences = { emailClockAlerts: false };
    renderAccount({ email: "alice@example.org", emailVerified: true, mfa: [] }, undefined, {
      "GET /api/notifications/preferences": () => envelope(preferences),
      "PUT /api/notifications/preferences": async ({ text }) => {
        preferences = JSON.parse(await text());
        saved.push(preferences);
        return envelope(preferences);
      },
    });
    const section = await screen.findByRole("region", { name: "Clock alerts" });
    const toggle = await within(section).findByRole("switch", { name: "E-mail me my clock alerts" });
    await waitFor(() => expect(toggle).toHaveProperty("disabled", false));
    expect(toggle).toHaveProperty("checked", false);
    expect(section.textContent).toContain("never the patient's name");

    await user.click(toggle);
    await waitFor(() => expect(saved).toEqual([{ emailClockAlerts: true }]));
    await waitFor(() => expect(toggle).toHaveProperty("checked", true));
    await user.click(toggle);
    await waitFor(() => expect(saved).toEqual([{ emailClockAlerts: true }, { emailClockAlerts: false }]));
  });
});
