import type { ErrorBody } from "@vigil/contract";

/**
 * Every 401 and 403 the API answers, whoever asked: the session reacts to them in one place
 * (app/session-refresh.ts). A 401 means the sign-in is over; a 403 that the user's access groups may have changed
 * since the menu and the page's checks were read.
 */
export type ApiRefusal = { error: ErrorBody; method: string; path: string };

const listeners = new Set<(refusal: ApiRefusal) => void>();

export function onApiRefusal(listener: (refusal: ApiRefusal) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function reportApiRefusal(refusal: ApiRefusal): void {
  if (refusal.error.status !== 401 && refusal.error.status !== 403) return;
  for (const listener of [...listeners]) listener(refusal);
}
