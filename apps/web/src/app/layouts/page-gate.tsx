import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { useQueryClient } from "@tanstack/react-query";
import { isAllowed, type PageDefinition, type User } from "@vigil/contract";
import { type ReactNode, useEffect, useState } from "react";
import { type Location, Navigate, useLocation } from "react-router";
import { AccessProvider } from "../../components/access/access-context";
import { LoadingScreen } from "../../components/feedback/loading-screen";
import { chromeQueryKey } from "../../features/chrome/api/get-chrome";
import { unauthorizedUrlOf } from "../../features/chrome/menu-entries";
import { userQueryKey } from "../../features/users/api/get-user";
import { authQueryKey, rereadSession, type Session, signInPathFor } from "../session";

/** The location the gate last checked and when it first did. */
let lastChecked: { location: Location; at: number } | undefined;

/**
 * When the gate first checked this location. The gate can mount more than once for one location: re-reading a
 * denied menu (403, no data) makes the session "loading" for the moment of the read, which unmounts the gate; the
 * read it started then still answers for the remount, instead of each mount starting another.
 */
function firstCheckedAt(location: Location): number {
  // By identity: the router makes a new location for each navigation, and an address typed in the address bar
  // has the same key ("default") each time.
  if (lastChecked?.location !== location) lastChecked = { location, at: Date.now() };
  return lastChecked.at;
}

/**
 * Before sending the user to /unauthorized: the groups the screens decide with were read at some point; an
 * administrator may have added the one this page needs since. The user and the menu are read again first, and
 * only a denial that holds with what was just read leads away. The decision is taken on the freshly read user, not
 * on this render's session: the query cache tells its observers a moment after the read settles, and navigating on
 * the older groups in that moment sent a user to /unauthorized from a page they had just been given.
 */
function DenyAfterRereading({ page, to, menuDenied }: { page: PageDefinition; to: string; menuDenied: boolean }) {
  const queryClient = useQueryClient();
  const location = useLocation();
  const [decision, setDecision] = useState<"checking" | "deny" | "allow">("checking");
  useEffect(() => {
    let active = true;
    // A re-read that began before this page was asked for may predate the grant that opens it.
    void rereadSession(queryClient, { startedSince: firstCheckedAt(location) }).finally(() => {
      if (!active) return;
      const username = queryClient.getQueryData<string | null>(authQueryKey);
      const user = username ? queryClient.getQueryData<User>(userQueryKey(username)) : undefined;
      // A user without groups has their menu refused (403) until an administrator gives them one.
      const menuNowRead = username ? queryClient.getQueryState(chromeQueryKey(username))?.status === "success" : false;
      const allowed = user && isAllowed(page.access, user.groups) && (!menuDenied || menuNowRead);
      setDecision(allowed ? "allow" : "deny");
    });
    return () => {
      active = false;
    };
  }, [queryClient, page, menuDenied, location]);
  // "allow": the session this gate renders from catches up in a moment and shows the page.
  if (decision !== "deny") return <LoadingScreen label="Checking your access…" />;
  return <Navigate to={to} replace />;
}

/**
 * Decides whether the current page may render: public pages always; the rest need a session (else /signin,
 * remembering the way back) and the page's access (else /unauthorized). The server enforces the same rules on
 * every API call; this only spares the user a screen full of 403s.
 */
export function PageGate({
  page,
  session,
  children,
}: {
  page: PageDefinition | undefined;
  session: Session;
  children: ReactNode;
}) {
  const location = useLocation();
  if (!page || page.access === "public") return children;
  switch (session.status) {
    case "loading":
      return <LoadingScreen label="Loading your workspace…" />;
    case "anonymous":
      return <Navigate to={signInPathFor(location)} replace />;
    case "error":
      return (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={session.retry}>
              Try again
            </Button>
          }
        >
          Your account details could not be loaded.
        </Alert>
      );
    case "denied":
      return <DenyAfterRereading key={location.key} page={page} to={unauthorizedUrlOf(session.menu)} menuDenied />;
    case "ready":
      if (!isAllowed(page.access, session.user.groups))
        return (
          <DenyAfterRereading key={location.key} page={page} to={unauthorizedUrlOf(session.menu)} menuDenied={false} />
        );
      // The same groups decide which controls the page shows (edit buttons only for those who may edit).
      return <AccessProvider groups={session.user.groups}>{children}</AccessProvider>;
  }
}
