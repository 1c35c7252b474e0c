import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { useQueryClient } from "@tanstack/react-query";
import { isAllowed, type PageDefinition } from "@vigil/contract";
import { type ReactNode, useEffect, useState } from "react";
import { Navigate, useLocation } from "react-router";
import { AccessProvider } from "../../components/access/access-context";
import { LoadingScreen } from "../../components/feedback/loading-screen";
import { unauthorizedUrlOf } from "../../features/chrome/menu-entries";
import { rereadSession, type Session, signInPathFor } from "../session";

/**
 * Before sending the user to /unauthorized: the groups the screens decide with were read at some point; an
 * administrator may have added the one this page needs since. The user and the menu are read again first, and
 * only a denial that holds with them leads away (a granted page then simply opens, its menu entry with it).
 */
function DenyAfterRereading({ to }: { to: string }) {
  const queryClient = useQueryClient();
  const [reread, setReread] = useState(false);
  useEffect(() => {
    let active = true;
    void rereadSession(queryClient).finally(() => {
      if (active) setReread(true);
    });
    return () => {
      active = false;
    };
  }, [queryClient]);
  if (!reread) return <LoadingScreen label="Checking your access…" />;
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
      return <DenyAfterRereading key={location.key} to={unauthorizedUrlOf(session.menu)} />;
    case "ready":
      if (!isAllowed(page.access, session.user.groups))
        return <DenyAfterRereading key={location.key} to={unauthorizedUrlOf(session.menu)} />;
      // The same groups decide which controls the page shows (edit buttons only for those who may edit).
      return <AccessProvider groups={session.user.groups}>{children}</AccessProvider>;
  }
}
