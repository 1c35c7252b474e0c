import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef } from "react";
import { getIdToken } from "../lib/auth";
import { useIdentityConnection } from "../lib/auth-connection";

// The notice is MUI's Snackbar (with its transition and click-away listener): its own chunk, not part of the signed-in
// shell's first load, requested as the notice first renders when the app starts, so it is in memory well before the
// identity service could go missing.
const ConnectionLostSnackbar = lazy(() =>
  import("./session-connection-snackbar").then((module) => ({ default: module.ConnectionLostSnackbar })),
);

/** How often an unreachable identity service is tried again while nothing else asks for a token. */
export const reconnectIntervalMs = 10_000;

/** One more token refresh; its outcome reaches the connection state through Amplify's Hub events. */
function tryToReconnect(): void {
  getIdToken().catch(() => {
    // Still unreachable: the notice stays and the next attempt follows.
  });
}

/**
 * While the identity service cannot refresh the expired tokens, the user stays signed in and is told so without
 * being stopped: the screens already shown stay, new reads wait for the connection. Vigil tries again every few
 * seconds, when the browser comes back online, or when asked; once a refresh succeeds, everything that failed
 * meanwhile is read again.
 */
export function IdentityConnectionNotice() {
  const connection = useIdentityConnection();
  const queryClient = useQueryClient();
  const wasUnreachable = useRef(false);

  useEffect(() => {
    if (connection !== "unreachable") return;
    const timer = window.setInterval(tryToReconnect, reconnectIntervalMs);
    window.addEventListener("online", tryToReconnect);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("online", tryToReconnect);
    };
  }, [connection]);

  useEffect(() => {
    if (connection === "unreachable") {
      wasUnreachable.current = true;
    } else if (wasUnreachable.current) {
      wasUnreachable.current = false;
      void queryClient.invalidateQueries({ predicate: (query) => query.state.status === "error" });
    }
  }, [connection, queryClient]);

  return (
    <Suspense fallback={null}>
      <ConnectionLostSnackbar open={connection === "unreachable"} onTryNow={tryToReconnect} />
    </Suspense>
  );
}
