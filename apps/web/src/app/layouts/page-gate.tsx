import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { isAllowed, type PageDefinition } from "@vigil/contract";
import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { AccessProvider } from "../../components/access/access-context";
import { LoadingScreen } from "../../components/feedback/loading-screen";
import { unauthorizedUrlOf } from "../../features/chrome/menu-entries";
import { type Session, signInPathFor } from "../session";

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
      return <Navigate to={unauthorizedUrlOf(session.menu)} replace />;
    case "ready":
      if (!isAllowed(page.access, session.user.groups))
        return <Navigate to={unauthorizedUrlOf(session.menu)} replace />;
      // The same groups decide which controls the page shows (edit buttons only for those who may edit).
      return <AccessProvider groups={session.user.groups}>{children}</AccessProvider>;
  }
}
