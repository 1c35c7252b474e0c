import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import { type ReactNode, useEffect, useState } from "react";
import { LoadingScreen } from "../components/feedback/loading-screen";
import { configurationErrorMessage } from "../config/constants";
import { fetchPublicConfig } from "../features/system/api/get-public-config";
import { configureAuth } from "../lib/auth";
import { pageReloader } from "../lib/reload-guard";

type ConfigState = "loading" | "ready" | "failed";

/**
 * Reads `GET /api/config` once and configures Amplify before anything asks who is signed in: the Authenticator,
 * token refresh and every API call depend on it. Kept out of the query cache because sign-out clears that cache
 * and must not unmount the app.
 */
export function ConfigGate({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ConfigState>("loading");
  useEffect(() => {
    let active = true;
    fetchPublicConfig()
      .then(configureAuth)
      .then(
        () => {
          if (active) setState("ready");
        },
        (error: unknown) => {
          console.error("Could not load the identity configuration from /api/config", error);
          if (active) setState("failed");
        },
      );
    return () => {
      active = false;
    };
  }, []);

  if (state === "loading") return <LoadingScreen label="Starting Vigil…" />;
  if (state === "failed") {
    return (
      <Box component="main" sx={{ p: 3, maxWidth: 720, mx: "auto" }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => pageReloader.reload()}>
              Try again
            </Button>
          }
        >
          {configurationErrorMessage}
        </Alert>
      </Box>
    );
  }
  return children;
}
