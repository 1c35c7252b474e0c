import { Amplify } from "aws-amplify";
import {
  confirmUserAttribute,
  fetchAuthSession,
  fetchMFAPreference,
  fetchUserAttributes,
  sendUserAttributeVerificationCode,
  setUpTOTP,
  signOut,
  updateMFAPreference,
  updatePassword,
  updateUserAttributes,
  verifyTOTPSetup,
} from "aws-amplify/auth";
import { getTotpIssuer } from "./auth";

/**
 * A signed-in user's own account, through Amplify's account functions (each one Cognito operation with the
 * access token, audited by the identity service): loaded only with the account page, so the signed-in shell
 * does not carry them.
 */

export type MfaMethod = "SMS" | "TOTP";
export type ContactAttribute = "email" | "phone_number";

export type AccountSecurity = {
  email: string;
  emailVerified: boolean;
  phoneNumber: string | null;
  phoneNumberVerified: boolean;
  /** The second factors turned on, and the one asked for first (undefined: asked to choose when both are on). */
  mfa: { enabled: MfaMethod[]; preferred?: MfaMethod };
};

/** GetUser twice (attributes, MFA settings), as Amplify splits them. */
export async function fetchAccountSecurity(): Promise<AccountSecurity> {
  const [attributes, mfa] = await Promise.all([fetchUserAttributes(), fetchMFAPreference()]);
  const methods = (mfa.enabled ?? []).filter((method): method is MfaMethod => method === "SMS" || method === "TOTP");
  const preferred = mfa.preferred === "SMS" || mfa.preferred === "TOTP" ? mfa.preferred : undefined;
  return {
    email: attributes.email ?? "",
    emailVerified: attributes.email_verified === "true",
    phoneNumber: attributes.phone_number || null,
    phoneNumberVerified: attributes.phone_number_verified === "true",
    mfa: { enabled: methods, ...(preferred ? { preferred } : {}) },
  };
}

/** ChangePassword: the other sign-ins of this user end; this one stays. */
export function changePassword(oldPassword: string, newPassword: string): Promise<void> {
  return updatePassword({ oldPassword, newPassword });
}

export type AuthenticatorSetup = { secret: string; uri: string };

/** AssociateSoftwareToken: a new secret, pending until a code from it is verified. */
export async function startAuthenticatorSetup(accountName: string): Promise<AuthenticatorSetup> {
  const details = await setUpTOTP();
  return { secret: details.sharedSecret, uri: details.getSetupUri(getTotpIssuer(), accountName).toString() };
}

/**
 * VerifySoftwareToken, then SetUserMFAPreference to turn the app on: as in Cognito, a verified app is not used at
 * sign-in until it is turned on. Preferred when it is the only second factor, so sign-in asks for it directly.
 */
export async function finishAuthenticatorSetup(code: string, preferred: boolean): Promise<void> {
  await verifyTOTPSetup({ code, options: { friendlyDeviceName: "Authenticator app" } });
  await updateMFAPreference({ totp: preferred ? "PREFERRED" : "ENABLED" });
}

/** SetUserMFAPreference with the app off: sign-in stops asking for its codes. */
export function removeAuthenticator(): Promise<void> {
  return updateMFAPreference({ totp: "DISABLED" });
}

/** SetUserMFAPreference: text-message codes on or off (the phone number must be verified). */
export function setSmsMfa(enabled: boolean): Promise<void> {
  return updateMFAPreference({ sms: enabled ? "ENABLED" : "DISABLED" });
}

/** SetUserMFAPreference: which of the two factors (both on) sign-in asks for. */
export function preferMfa(method: MfaMethod): Promise<void> {
  return updateMFAPreference({
    sms: method === "SMS" ? "PREFERRED" : "NOT_PREFERRED",
    totp: method === "TOTP" ? "PREFERRED" : "NOT_PREFERRED",
  });
}

/**
 * UpdateUserAttributes: the new address is kept unverified and a code is sent to it. Returns where the code went
 * (masked), or null when the service changed it without asking for one.
 */
export async function changeContact(attribute: ContactAttribute, value: string): Promise<string | null> {
  const result = await updateUserAttributes({ userAttributes: { [attribute]: value } });
  const step = result[attribute]?.nextStep;
  if (step?.updateAttributeStep !== "CONFIRM_ATTRIBUTE_WITH_CODE") return null;
  return step.codeDeliveryDetails?.destination ?? "";
}

/** VerifyUserAttribute: the code sent to the address proves the user receives it. */
export function confirmContact(attribute: ContactAttribute, code: string): Promise<void> {
  return confirmUserAttribute({ userAttributeKey: attribute, confirmationCode: code });
}

/** GetUserAttributeVerificationCode: a new code to the address; returns where it went (masked). */
export async function resendContactCode(attribute: ContactAttribute): Promise<string> {
  const details = await sendUserAttributeVerificationCode({ userAttributeKey: attribute });
  return details.destination ?? "";
}

/**
 * GlobalSignOut: every sign-in of this user ends (refresh tokens revoked, ID tokens refused by the API), then the
 * tokens here are cleared and Amplify announces the sign-out, which takes the app to the sign-in screen.
 *
 * Sent here rather than through `signOut({ global: true })`: Amplify swallows a failed GlobalSignOut and clears
 * the local tokens anyway, so with the identity service unreachable the user would see themselves signed out while
 * the lost device stayed signed in. Here a failure is an error the page shows, and nothing is cleared.
 */
export async function signOutEverywhere(): Promise<void> {
  const accessToken = (await fetchAuthSession()).tokens?.accessToken?.toString();
  const endpoint = Amplify.getConfig().Auth?.Cognito?.userPoolEndpoint;
  if (!accessToken || !endpoint) throw new Error("You are not signed in any more. Sign in again.");
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/x-amz-json-1.1",
        "x-amz-target": "AWSCognitoIdentityProviderService.GlobalSignOut",
      },
      body: JSON.stringify({ AccessToken: accessToken }),
    });
  } catch {
    throw new Error("The identity service could not be reached, so your other sessions were not ended. Try again.");
  }
  if (!response.ok) {
    const refusal = (await response.json().catch(() => ({}))) as { message?: string };
    throw new Error(refusal.message || "The identity service refused to end your sessions. Try again.");
  }
  // This sign-in was ended with the others; only its tokens remain to be forgotten here.
  await signOut();
}

/** The identity service's own words for a refused call (Amplify keeps them as the error's message). */
export function accountErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  return message || "The identity service did not answer. Try again.";
}

/** The name of the identity service's refusal (`NotAuthorizedException`, `CodeMismatchException`…), if any. */
export function accountErrorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}
