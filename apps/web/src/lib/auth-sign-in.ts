import { type SignInInput, signIn, signInWithRedirect } from "aws-amplify/auth";
import { setRedirectFailure } from "./redirect-failure";

/**
 * Signing in, the part of Amplify's auth category only the sign-in screen needs (the password and challenge
 * flows, the redirect to the hosted UI): loaded with that screen, so it stays out of the signed-in shell. With
 * federation on, `configureAuth` loads it before configuring Amplify, because importing `signInWithRedirect`
 * attaches Amplify's listener that completes a redirect sign-in when the hosted UI sends the user back.
 */

/** Vigil's identity service implements USER_PASSWORD_AUTH only (no SRP), so every sign-in asks for it. */
export function signInWithPassword(input: SignInInput): ReturnType<typeof signIn> {
  return signIn({ ...input, options: { ...input.options, authFlowType: "USER_PASSWORD_AUTH" } });
}

/**
 * Vigil's own button for a provider the Authenticator has no button for: the same redirect sign-in. A refusal
 * before leaving the page (e.g. "There is already a signed in user.") shows where redirect failures do.
 */
export async function signInWithProvider(providerName: string): Promise<void> {
  setRedirectFailure(null);
  try {
    await signInWithRedirect({ provider: { custom: providerName } });
  } catch (error) {
    // Amplify's words for a page opened at another address than the one the hosted UI returns to; the sign-in
    // screen shows no button there (auth.ts `elsewhere`), so this is only a fallback.
    const wrongAddress = (error as Error).name === "InvalidOriginException";
    setRedirectFailure(
      wrongAddress
        ? "Sign-in with the provider works only at Vigil's main address: open Vigil there and sign in again."
        : (error as Error).message || "Sign-in with the provider failed.",
    );
  }
}
