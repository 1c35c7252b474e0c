import Box from "@mui/material/Box";
import type { ReactNode } from "react";
import { ApiErrorStack } from "../feedback/api-error-stack";
import { NewVersionBanner } from "../feedback/new-version-banner";
import { mainContentId, SkipLink } from "./skip-link";

/** No chrome: sign-in and the printable pages (monthly statement, client report). Alerts never print. */
export function BaseLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <SkipLink />
      <Box
        component="main"
        id={mainContentId}
        tabIndex={-1}
        data-layout="base"
        sx={{ p: { xs: 2, sm: 3 }, maxWidth: 1200, mx: "auto" }}
      >
        <Box className="vigil-no-print">
          <NewVersionBanner />
          <ApiErrorStack />
        </Box>
        {children}
      </Box>
    </>
  );
}
