import { useEffect, useState } from "react";
import { isRouteErrorResponse, useLocation, useRouteError } from "react-router";
import { isChunkLoadError } from "../../lib/chunk-errors";
import { reloadOnce } from "../../lib/reload-guard";
import { LoadingScreen } from "../feedback/loading-screen";
import { NotFoundPage } from "./not-found-page";
import { ServerErrorPage } from "./server-error-page";

/**
 * The router's error element. A chunk that failed to load means a new build replaced the old files: reload once
 * (guarded per path for 10 s); anything else that is not a 404 is a crash and shows the 500 page.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const { pathname } = useLocation();
  const chunkError = isChunkLoadError(error);
  const [reloadRefused, setReloadRefused] = useState(false);

  useEffect(() => {
    if (chunkError && reloadOnce(pathname)) return;
    if (chunkError) setReloadRefused(true);
    console.error(error);
  }, [error, chunkError, pathname]);

  if (chunkError && !reloadRefused) return <LoadingScreen label="Loading the latest version…" />;
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage path={pathname} />;
  return <ServerErrorPage />;
}
