/**
 * Why the last redirect sign-in failed, as the hosted UI said it (`error_description`, e.g. "No Vigil account uses
 * this Google address. Ask an administrator.") or as Amplify did ("User cancelled OAuth flow."). The failure is
 * reported once, when Amplify is configured on the page the provider sent the user back to, usually before the
 * sign-in screen exists; so it is kept here until read and dismissed, or until someone signs in.
 */
let redirectFailure: string | null = null;
const redirectFailureListeners = new Set<() => void>();

/** Shows `message` where redirect sign-in failures show (null clears it). */
export function setRedirectFailure(message: string | null): void {
  redirectFailure = message;
  for (const listener of redirectFailureListeners) listener();
}

export function getRedirectFailure(): string | null {
  return redirectFailure;
}

export function subscribeToRedirectFailure(listener: () => void): () => void {
  redirectFailureListeners.add(listener);
  return () => redirectFailureListeners.delete(listener);
}

export function dismissRedirectFailure(): void {
  setRedirectFailure(null);
}
