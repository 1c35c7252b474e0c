import type { PublicConfig } from "@vigil/contract";
import { Amplify } from "aws-amplify";
import { fetchAuthSession, getCurrentUser, type SignInInput, signIn, signOut } from "aws-amplify/auth";
import { Hub } from "aws-amplify/utils";

/**
 * The only module that talks to Amplify's auth category. Vigil's identity service speaks Cognito's wire protocol
 * (AUTH.md), so Amplify is pointed at it through `userPoolEndpoint`; tokens stay in localStorage (Amplify's
 * default), which is what keeps a user signed in across reloads.
 */
export function configureAuth(config: PublicConfig): void {
  const { identity, passwordPolicy, mfa } = config;
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: identity.userPoolId,
        userPoolClientId: identity.userPoolClientId,
        userPoolEndpoint: identity.userPoolEndpoint,
        loginWith: identity.loginWith === "email" ? { email: true } : { username: true },
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

/** The ID token the API expects in `Authorization`, refreshed by Amplify when expired; null without a session. */
export async function getIdToken(): Promise<string | null> {
  try {
    const session = await fetchAuthSession();
    return session.tokens?.idToken?.toString() ?? null;
  } catch {
    return null;
  }
}

/** The signed-in user's username (the key of `GET /users/{username}`), or null when nobody is signed in. */
export async function getSignedInUsername(): Promise<string | null> {
  try {
    const user = await getCurrentUser();
    return user.username;
  } catch {
    return null;
  }
}

/** Vigil's identity service implements USER_PASSWORD_AUTH only (no SRP), so every sign-in asks for it. */
export function signInWithPassword(input: SignInInput): ReturnType<typeof signIn> {
  return signIn({ ...input, options: { ...input.options, authFlowType: "USER_PASSWORD_AUTH" } });
}

/** Revokes the refresh token on the server (Amplify sends RevokeToken) and clears the stored tokens. */
export async function signOutUser(): Promise<void> {
  await signOut();
}

export type AuthEvent = "signedIn" | "signedOut" | "sessionExpired";

/** Amplify Hub auth events, reduced to what the app reacts to. A failed token refresh ends the session. */
export function listenToAuthEvents(handler: (event: AuthEvent) => void): () => void {
  return Hub.listen("auth", ({ payload }) => {
    if (payload.event === "signedIn") handler("signedIn");
    else if (payload.event === "signedOut") handler("signedOut");
    else if (payload.event === "tokenRefresh_failure") handler("sessionExpired");
  });
}
