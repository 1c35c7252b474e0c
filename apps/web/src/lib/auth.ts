import {
  type ErrorBody,
  type PublicConfig,
  type SessionEndedDetails,
  sessionEndedDetailsSchema,
} from "@vigil/contract";
import { Amplify } from "aws-amplify";
import { fetchAuthSession, getCurrentUser, signOut } from "aws-amplify/auth";
import { cognitoUserPoolsTokenProvider } from "aws-amplify/auth/cognito";
import { Hub } from "aws-amplify/utils";
import { endsSession, getIdentityConnection, IdentityUnreachableError, setIdentityConnection } from "./auth-connection";
import { setRedirectFailure } from "./redirect-failure";
import { createStore } from "./store";

export { dismissRedirectFailure, getRedirectFailure, subscribeToRedirectFailure } from "./redirect-failure";

/** The providers the Authenticator draws its own button for ("Sign In with Google"), by Amplify's names. */
const socialProviderNames = { amazon: "Amazon", apple: "Apple", facebook: "Facebook", google: "Google" } as const;
export type SocialProvider = keyof typeof socialProviderNames;

export type FederatedSignInOptions = {
  /** The Authenticator's own buttons: the configured provider when it is one of the four it knows. */
  socialProviders: SocialProvider[];
  /** Any other OpenID Connect provider, by the name to show on Vigil's own button. */
  customProvider: string | null;
  /**
   * Set when the page was opened at an address other than the one the hosted UI sends users back to (PUBLIC_URL):
   * there the redirect cannot work (Amplify refuses it with "redirect is coming from a different origin"), so the
   * sign-in screen shows no provider button but says where federated sign-in works, with a link there.
   */
  elsewhere: { providerName: string; signInUrl: string } | null;
};

let federatedSignIn: FederatedSignInOptions = { socialProviders: [], customProvider: null, elsewhere: null };

/** Where the hosted UI brings users back to, when that is not the origin this page was loaded from. */
function federatedSignInAddressElsewhere(redirectSignIn: readonly string[]): string | null {
  const origins = redirectSignIn.flatMap((url) => {
    try {
      return [new URL(url)];
    } catch {
      return [];
    }
  });
  if (origins.length === 0 || origins.some((url) => url.origin === window.location.origin)) return null;
  const home = origins[0] as URL;
  return new URL("#/signin", home).href;
}

/**
 * With `auth-sign-in.ts` (loaded with the sign-in screen) and `auth-account.ts` (loaded with the account page), the
 * only module that talks to Amplify's auth category.
 * Vigil's identity service speaks Cognito's wire protocol (AUTH.md), so Amplify is pointed at it through
 * `userPoolEndpoint`; tokens stay in localStorage (Amplify's default), which is what keeps a user signed in
 * across reloads.
 *
 * The signed-in shell only needs sessions (tokens, refresh, sign-out); signing in (the password flows, the
 * redirect to the hosted UI) is Amplify's bigger half and loads on demand. With federation on, that half is
 * loaded before Amplify is configured: importing `signInWithRedirect` attaches Amplify's listener that completes
 * a redirect sign-in (the hosted UI's `?code=…` on the way back) as soon as Amplify is configured. Without
 * federation the configuration is applied synchronously.
 */
export async function configureAuth(config: PublicConfig): Promise<void> {
  const { identity, passwordPolicy, mfa, federation } = config;
  totpIssuer = config.totpIssuer;
  accountRules = { passwordPolicy, mfa };
  // Before configure: Amplify completes (or fails) a redirect sign-in as soon as it is configured.
  listenToRedirectFailures();
  trackIdentityConnection();
  if (federation) await import("./auth-sign-in");
  const social = federation
    ? (Object.keys(socialProviderNames) as SocialProvider[]).find(
        (provider) => socialProviderNames[provider].toLowerCase() === federation.providerName.toLowerCase(),
      )
    : undefined;
  const elsewhere = federation ? federatedSignInAddressElsewhere(federation.redirectSignIn) : null;
  federatedSignIn =
    federation && elsewhere
      ? {
          socialProviders: [],
          customProvider: null,
          elsewhere: {
            providerName: social ? socialProviderNames[social] : federation.providerName,
            signInUrl: elsewhere,
          },
        }
      : {
          socialProviders: social ? [social] : [],
          customProvider: federation && !social ? federation.providerName : null,
          elsewhere: null,
        };
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: identity.userPoolId,
        userPoolClientId: identity.userPoolClientId,
        // Vigil's own endpoint is published as a path: the page calls the origin it was loaded from, whichever
        // address of the server that is (its CSP allows only that origin and USER_POOL_ENDPOINT's).
        userPoolEndpoint: new URL(identity.userPoolEndpoint, window.location.origin).href,
        loginWith: {
          ...(identity.loginWith === "email" ? { email: true } : { username: true }),
          // The hosted UI (spec §7): Amplify always calls https://<domain>/oauth2/authorize and /oauth2/token.
          ...(federation
            ? {
                oauth: {
                  domain: federation.domain,
                  scopes: federation.scopes,
                  redirectSignIn: federation.redirectSignIn,
                  redirectSignOut: federation.redirectSignOut,
                  responseType: "code" as const,
                  providers: [social ? socialProviderNames[social] : { custom: federation.providerName }],
                },
              }
            : {}),
        },
        // The Authenticator validates new passwords against this, so its messages match the server's policy.
        passwordFormat: { ...passwordPolicy },
        mfa: {
          status: mfa === "ON" ? "on" : mfa === "OPTIONAL" ? "optional" : "off",
          totpEnabled: true,
          smsEnabled: true,
        },
      },
    },
  });
}

let totpIssuer = "AWSCognito";
let accountRules: Pick<PublicConfig, "passwordPolicy" | "mfa"> | null = null;

/**
 * The server's password policy and MFA mode as `/api/config` gave them: the account page checks a new password
 * against the same rules as the Authenticator, and says when a second factor cannot be turned off.
 */
export function getAccountRules(): Pick<PublicConfig, "passwordPolicy" | "mfa"> {
  if (!accountRules) throw new Error("Amplify is not configured yet: the config gate must run first.");
  return accountRules;
}

/** The issuer name authenticator apps show for Vigil's TOTP entry (the server's `TOTP_ISSUER`). */
export function getTotpIssuer(): string {
  return totpIssuer;
}

/** Which federated sign-in buttons the sign-in screen shows (none without federation). */
export function getFederatedSignInOptions(): FederatedSignInOptions {
  return federatedSignIn;
}

let listeningToRedirectFailures = false;

function listenToRedirectFailures(): void {
  if (listeningToRedirectFailures) return;
  listeningToRedirectFailures = true;
  Hub.listen("auth", ({ payload }) => {
    if (payload.event === "signInWithRedirect_failure") {
      const error = (payload.data as { error?: { message?: string } } | undefined)?.error;
      setRedirectFailure(error?.message || "Sign-in with the provider failed.");
      forgetRedirectParameters();
    } else if (payload.event === "signedIn") {
      setRedirectFailure(null);
    }
  });
}

/** The hosted UI's answer stays in the address bar after a failure; a reload must not show it again. */
function forgetRedirectParameters(): void {
  const url = new URL(window.location.href);
  for (const name of ["code", "state", "error", "error_description"]) url.searchParams.delete(name);
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url.href);
}

/**
 * The ID token the API expects in `Authorization`, refreshed by Amplify when expired; null without a session.
 * Throws `IdentityUnreachableError` when the tokens expired and the identity service could not be reached to
 * refresh them: the session still exists (Amplify kept the refresh token), there is just no token right now.
 */
export async function getIdToken(): Promise<string | null> {
  let token: string | null;
  try {
    const session = await fetchAuthSession();
    token = session.tokens?.idToken?.toString() ?? null;
  } catch (error) {
    if (endsSession(error)) return null;
    setIdentityConnection("unreachable");
    throw new IdentityUnreachableError(error);
  }
  if (token) setIdentityConnection("connected");
  return token;
}

/**
 * The signed-in user's username (the key of `GET /users/{username}`), or null when nobody is signed in. When the
 * expired tokens cannot be refreshed for want of a connection, the user is still the one the stored tokens name.
 */
export async function getSignedInUsername(): Promise<string | null> {
  try {
    const user = await getCurrentUser();
    return user.username;
  } catch {
    // Amplify reports why a refresh failed (Hub, before this rejection): a refusal, or no session at all, is
    // "nobody"; only a refresh that could not reach the identity service leaves the stored user signed in.
    if (getIdentityConnection() !== "unreachable") return null;
    const stored = await cognitoUserPoolsTokenProvider.authTokenStore.loadTokens().catch(() => null);
    const username = stored?.idToken?.payload["cognito:username"];
    return typeof username === "string" && stored?.refreshToken ? username : null;
  }
}

/** Revokes the refresh token on the server (Amplify sends RevokeToken) and clears the stored tokens. */
export async function signOutUser(): Promise<void> {
  await signOut();
}

/**
 * Why the last session ended, when the user could not know: an administrator disabled the account or reset its
 * password (`account-changed`), or the user signed out everywhere or changed their password on another device
 * (`signed-out-everywhere`). The sign-in page says so until the user dismisses it or signs in; it lives in memory
 * only, so a reload, a sign-out of the user's own or tokens running out of time show nothing.
 */
export type SessionEnd = SessionEndedDetails["reason"];

const sessionEndStore = createStore<SessionEnd | null>(null);

export const getSessionEnd = sessionEndStore.get;
export const subscribeToSessionEnd = sessionEndStore.subscribe;

export function dismissSessionEnd(): void {
  sessionEndStore.set(null);
}

/**
 * What the identity service answers a refresh of a sign-in an administrator ended (AUTH.md: Cognito's words,
 * told only to the holder of the refresh token); one revoked with all the user's sign-ins is "Refresh Token has been
 * revoked" (`isRevokedEverywhere`), one signed out by itself or expired "Invalid Refresh Token".
 */
function isEndedByAdministrator(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  if (typeof name !== "string") return false;
  if (name.startsWith("PasswordResetRequiredException")) return true;
  return name.startsWith("NotAuthorizedException") && message === "User is disabled.";
}

/** Cognito's answer to refreshing a token "sign out everywhere" (or a password change elsewhere) revoked. */
function isRevokedEverywhere(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return (
    typeof name === "string" &&
    name.startsWith("NotAuthorizedException") &&
    message === "Refresh Token has been revoked"
  );
}

let endingSession: Promise<void> | null = null;

/**
 * The API refused the token (401): the sign-in is over (revoked, the account disabled). Amplify still holds the
 * tokens, so sign out here too; its `signedOut` event takes the user to the sign-in page. Concurrent refusals sign
 * out once.
 */
export function endSessionRefusedByApi(error: ErrorBody): Promise<void> {
  const ended = sessionEndedDetailsSchema.safeParse(error.details);
  if (ended.success) sessionEndStore.set(ended.data.reason);
  endingSession ??= signOutUser()
    .catch(() => {
      // Amplify clears the stored tokens even when RevokeToken fails; the session is over either way.
    })
    .finally(() => {
      endingSession = null;
    });
  return endingSession;
}

export type AuthEvent = "signedIn" | "signedOut" | "sessionExpired";

/**
 * Amplify Hub auth events, reduced to what the app reacts to. A token refresh the identity service refused ends
 * the session; one that could not reach it does not (see `trackIdentityConnection`).
 */
export function listenToAuthEvents(handler: (event: AuthEvent) => void): () => void {
  return Hub.listen("auth", ({ payload }) => {
    if (payload.event === "signedIn") handler("signedIn");
    else if (payload.event === "signedOut") handler("signedOut");
    else if (payload.event === "tokenRefresh_failure" && endsSession(refreshError(payload.data))) {
      handler("sessionExpired");
    }
  });
}

function refreshError(data: unknown): unknown {
  return (data as { error?: unknown } | undefined)?.error;
}

let trackingIdentityConnection = false;

/**
 * Registered with the configuration, before anything asks for a token: a refresh that fails without a refusal
 * marks the identity service unreachable (the session stays), any refresh, sign-in, sign-out or refusal marks it
 * answering again. A refusal that says an administrator ended the sign-in is kept for the sign-in page to tell.
 */
function trackIdentityConnection(): void {
  if (trackingIdentityConnection) return;
  trackingIdentityConnection = true;
  Hub.listen("auth", ({ payload }) => {
    if (payload.event === "tokenRefresh_failure") {
      const error = refreshError(payload.data);
      setIdentityConnection(endsSession(error) ? "connected" : "unreachable");
      if (isEndedByAdministrator(error)) sessionEndStore.set("account-changed");
      else if (isRevokedEverywhere(error)) sessionEndStore.set("signed-out-everywhere");
    } else if (payload.event === "tokenRefresh" || payload.event === "signedIn" || payload.event === "signedOut") {
      setIdentityConnection("connected");
      if (payload.event === "signedIn") dismissSessionEnd();
    }
  });
}
