import Typography from "@mui/material/Typography";
import { useEffect } from "react";
import { appName } from "../../config/constants";
import { ErrorPage } from "./error-page";

/** Spec §2: unknown paths answer 404 "Page Not Found" followed by the path. */
export function NotFoundPage({ path }: { path: string }) {
  useEffect(() => {
    document.title = `Page Not Found – ${appName}`;
  }, []);
  return (
    <ErrorPage status={404} title="Page Not Found">
      <Typography component="p" sx={{ fontFamily: "monospace", wordBreak: "break-all" }}>
        {path}
      </Typography>
    </ErrorPage>
  );
}
