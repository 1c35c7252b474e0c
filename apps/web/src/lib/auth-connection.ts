import { createStore, useStore } from "./store";

/**
 * Whether the identity service answered when the session last needed it. `unreachable`: the ID token had expired
 * and refreshing it failed without a refusal (no answer, a 5xx, throttling). Amplify keeps the refresh token then,
 * so the user stays signed in; the app says so and tries again (app/session-connection.tsx).
 */
export type IdentityConnection = "connected" | "unreachable";

const identityConnectionStore = createStore<IdentityConnection>("connected");

export function setIdentityConnection(state: IdentityConnection): void {
  identityConnectionStore.set(state);
}

export function getIdentityConnection(): IdentityConnection {
  return identityConnectionStore.get();
}

export function useIdentityConnection(): IdentityConnection {
  return useStore(identityConnectionStore);
}

/**
 * The refusals after which Amplify clears the stored tokens (its TokenOrchestrator's `isAuthenticationError`):
 * only these end a session. Any other failure of a refresh leaves the tokens in place to be refreshed later.
 */
const sessionEndingErrors = [
  "NotAuthorizedException",
  "TokenRevokedException",
  "UserNotFoundException",
  "PasswordResetRequiredException",
  "UserNotConfirmedException",
  "RefreshTokenReuseException",
];

/** True when the identity service refused the session (the user must sign in again), false for a failure to reach it. */
export function endsSession(error: unknown): boolean {
  const name = (error as { name?: unknown } | null | undefined)?.name;
  return typeof name === "string" && sessionEndingErrors.some((ending) => name.startsWith(ending));
}

/** Thrown instead of "no session" when the tokens could not be refreshed because the identity service was out of reach. */
export class IdentityUnreachableError extends Error {
  constructor(cause: unknown) {
    super("The sign-in service cannot be reached.", { cause });
    this.name = "IdentityUnreachableError";
  }
}
