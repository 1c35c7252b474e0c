import { hashKey, type QueryClient, queryOptions, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { type MenuEntry, pages, type User } from "@vigil/contract";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { chromeQueryKey, chromeQueryOptions } from "../features/chrome/api/get-chrome";
import { userQueryKey, userQueryOptions } from "../features/users/api/get-user";
import { ApiRequestError, NoSessionError } from "../lib/api-client";
import { clearApiErrors } from "../lib/api-errors";
import { getSignedInUsername, signOutUser } from "../lib/auth";

/**
 * The signed-in session as the screens need it: who (from Amplify's stored tokens), their details
 * (`GET /users/{username}`) and their menu (`GET /chrome`). The two API calls start together as soon as the
 * username is known (spec §1: "loads a navigation menu and the current user's details in parallel").
 */
export type Session =
  | { status: "loading" }
  | { status: "anonymous" }
  | { status: "error"; retry: () => void }
  /** `denied`: the menu call answered 403 Access denied (a user without access groups). */
  | { status: "ready" | "denied"; username: string; user: User; menu: MenuEntry[] };

export const authQueryKey = ["auth", "username"] as const;

/** Amplify's `getCurrentUser` reads localStorage; it changes only through Hub events, which invalidate it. */
export function authQueryOptions() {
  return queryOptions({ queryKey: authQueryKey, queryFn: getSignedInUsername, staleTime: Number.POSITIVE_INFINITY });
}

/**
 * Everything in the query cache was read as the user signed in when it was fetched. When the stored session is
 * replaced outside the app (another tab, storage wiped) and someone else signs in in this tab, none of it is
 * theirs: it is dropped as soon as the new user is known, before any screen reads it. Returns the unsubscribe.
 */
export function forgetPreviousUserOnChange(queryClient: QueryClient): () => void {
  let previous = queryClient.getQueryData<string | null>(authQueryKey) ?? null;
  return queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== "updated" || event.action.type !== "success") return;
    if (event.query.queryHash !== hashKey(authQueryKey)) return;
    const current = (event.query.state.data as string | null | undefined) ?? null;
    if (!current) return;
    if (previous && current !== previous) {
      // Synchronously, inside the cache's notification: the screens re-render (and start the new user's queries)
      // only after it.
      queryClient.removeQueries({ predicate: (query) => query !== event.query });
      clearApiErrors();
    }
    previous = current;
  });
}

/** A re-read of the session this recent answers for the next one asking (a burst of 403s). */
const sessionRereadReuseMs = 2_000;
type Reread = { startedAt: number; settledAt: number | null; done: Promise<void> };
const sessionRereads = new WeakMap<QueryClient, Reread>();

/**
 * Reads the signed-in user's details and menu again: an administrator may have changed their access groups since
 * (the API always decides with the current groups; the screens decide with what they last read). Resolves once
 * both answered. A re-read already running, or finished a moment ago, is shared rather than repeated; a caller
 * that must see every change made before it asked (`startedSince`: a page gate deciding on a page just granted)
 * shares only a re-read that began at or after that instant.
 */
export function rereadSession(
  queryClient: QueryClient,
  { startedSince }: { startedSince?: number } = {},
): Promise<void> {
  const username = queryClient.getQueryData<string | null>(authQueryKey);
  if (!username) return Promise.resolve();
  const last = sessionRereads.get(queryClient);
  if (last) {
    const recent = last.settledAt === null || Date.now() - last.settledAt < sessionRereadReuseMs;
    const recentEnough = startedSince === undefined || last.startedAt >= startedSince;
    if (recent && recentEnough) return last.done;
  }
  const reread: Reread = { startedAt: Date.now(), settledAt: null, done: Promise.resolve() };
  // A read still running is cancelled and started again by the invalidation (React Query's default).
  reread.done = Promise.all([
    queryClient.invalidateQueries({ queryKey: chromeQueryKey(username), exact: true }),
    queryClient.invalidateQueries({ queryKey: userQueryKey(username), exact: true }),
  ]).then(
    () => {
      reread.settledAt = Date.now();
    },
    () => {
      reread.settledAt = Date.now();
    },
  );
  sessionRereads.set(queryClient, reread);
  return reread.done;
}

export function isAccessDenied(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.body.status === 403 || error.body.message === "Access denied");
}

/** `load: false` only reads who is signed in (the sign-in page needs neither menu nor details). */
export function useSession({ load = true }: { load?: boolean } = {}): Session {
  const auth = useQuery(authQueryOptions());
  const username = (load && auth.data) || null;
  // Many components read the session; a denied menu (403) must stay denied as they mount, not refetch and flash
  // a loading state each time, so failed session queries do not retry on mount.
  const [chrome, user] = useQueries({
    queries: [
      { ...chromeQueryOptions(username ?? ""), enabled: Boolean(username), retryOnMount: false },
      { ...userQueryOptions(username ?? ""), enabled: Boolean(username), retryOnMount: false },
    ],
  });

  if (auth.isPending) return { status: "loading" };
  if (!auth.data) return { status: "anonymous" };
  if (!username) return { status: "loading" };
  // Tokens that can no longer be refreshed: Amplify still names a user, but there is no session to call with.
  if (user.error instanceof NoSessionError || chrome.error instanceof NoSessionError) return { status: "anonymous" };
  if (user.isPending || chrome.isPending) return { status: "loading" };
  // Settled without details: the first read failed. A failed refetch (e.g. the identity service out of reach for
  // a moment) keeps the details already shown.
  if (!user.data) {
    return {
      status: "error",
      retry: () => {
        void user.refetch();
        void chrome.refetch();
      },
    };
  }
  if (isAccessDenied(chrome.error)) return { status: "denied", username, user: user.data, menu: [] };
  // Any other menu failure is already on the error list; the pages still work without a menu.
  return { status: "ready", username, user: user.data, menu: chrome.data?.items ?? [] };
}

/** Sign out: Amplify revokes the refresh token, then nothing of the previous user stays in memory. */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await signOutUser();
    } finally {
      await navigate(pages.signin.href(), { replace: true });
      queryClient.clear();
      clearApiErrors();
    }
  }, [navigate, queryClient]);
}

/** Only in-app paths survive the round trip through /signin (no `//host` or scheme tricks, no loop). */
export function safeRedirect(value: string | null | undefined, fallback = "/"): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (value === pages.signin.path || value.startsWith(`${pages.signin.path}?`)) return fallback;
  return value;
}

export function signInPathFor(location: { pathname: string; search: string }): string {
  const target = `${location.pathname}${location.search}`;
  return pages.signin.href({}, { redirect: target === pages.home.path ? undefined : target });
}
