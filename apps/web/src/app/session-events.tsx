import { useQueryClient } from "@tanstack/react-query";
import { pages } from "@vigil/contract";
import { useEffect } from "react";
import { clearApiErrors } from "../lib/api-errors";
import { listenToAuthEvents } from "../lib/auth";
import { startBuildChecks } from "../lib/build-check";
import { currentRoutePath } from "../lib/reload-guard";
import type { AppRouter } from "./router";
import { authQueryKey, forgetPreviousUserOnChange, signInPathFor } from "./session";
import { IdentityConnectionNotice } from "./session-connection";
import { useSessionFollowsChanges } from "./session-refresh";

/**
 * App-wide reactions outside any one screen: Amplify Hub auth events (a sign-out in this or another code path,
 * a refresh token that stopped working), another user signing in in this tab, the identity service out of reach,
 * the API refusing the token or the user's access (session-refresh.ts), and the periodic check for a newer build.
 */
export function SessionEvents({ router }: { router: AppRouter }) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      listenToAuthEvents((event) => {
        if (event === "signedIn") {
          void queryClient.invalidateQueries({ queryKey: authQueryKey });
          return;
        }
        const { pathname, search } = router.state.location;
        const alreadyThere = currentRoutePath() === pages.signin.path;
        // An expired session brings the user back where they were; an explicit sign-out starts fresh.
        const target = event === "sessionExpired" ? signInPathFor({ pathname, search }) : pages.signin.href();
        // Clear only once the protected page is gone: cleared while still mounted, it would refetch and redirect
        // to /signin on its own, remembering a page the user chose to leave.
        const forget = () => {
          queryClient.clear();
          clearApiErrors();
        };
        if (alreadyThere) forget();
        else void router.navigate(target, { replace: true }).then(forget, forget);
      }),
    [queryClient, router],
  );
  useEffect(() => forgetPreviousUserOnChange(queryClient), [queryClient]);
  useSessionFollowsChanges();
  useEffect(() => startBuildChecks(), []);
  return <IdentityConnectionNotice />;
}
