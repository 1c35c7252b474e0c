import type { FederationConfig } from "../../config-federation.js";

/** Scopes the hosted UI grants (spec §7: phone, email, profile, openid and the "admin" custom scope). */
export const hostedUiScopes = ["phone", "email", "profile", "openid", "aws.cognito.signin.user.admin"] as const;

/**
 * Origins the web app must be allowed to `fetch` (CSP connect-src): the hosted UI's token endpoint when it is not
 * the app's own origin. Navigations to it and to the provider are top-level and need nothing from the CSP.
 */
export function hostedUiConnectSources(publicUrl: string, federation: FederationConfig | undefined): string[] {
  if (!federation || federation.hostedUiOrigin === new URL(publicUrl).origin) return [];
  return [federation.hostedUiOrigin];
}
