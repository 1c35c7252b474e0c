import Typography from "@mui/material/Typography";
import { useEffect } from "react";
import { appName } from "../../config/constants";
import { ErrorPage } from "./error-page";

/** Spec §2: a crash shows 500 "Internal Server Error"; the details go to the console, not the screen. */
export function ServerErrorPage() {
  useEffect(() => {
    document.title = `Internal Server Error – ${appName}`;
  }, []);
  return (
    <ErrorPage status={500} title="Internal Server Error">
      <Typography component="p">Something went wrong while showing this page. Reloading may help.</Typography>
    </ErrorPage>
  );
}
