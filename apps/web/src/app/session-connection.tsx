import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Snackbar from "@mui/material/Snackbar";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { getIdToken } from "../lib/auth";
import { useIdentityConnection } from "../lib/auth-connection";

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
    <Snackbar open={connection === "unreachable"} anchorOrigin={{ vertical: "bottom", horizontal: "center" }}>
      <Alert
        severity="warning"
        variant="filled"
        action={
          <Button color="inherit" size="small" onClick={tryToReconnect}>
            Try now
          </Button>
        }
      >
        The sign-in service cannot be reached. You are still signed in; Vigil keeps trying to reconnect.
      </Alert>
    </Snackbar>
  );
}
