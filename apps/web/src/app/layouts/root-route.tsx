import { useEffect, useRef } from "react";
import { Outlet, useLocation } from "react-router";
import { UnsavedChangesGuard } from "../../components/navigation/unsaved-changes-guard";
import { appName } from "../../config/constants";
import { isBuildUpdatePending } from "../../lib/build-check";
import { reloadOnce } from "../../lib/reload-guard";
import { hasUnsavedChanges } from "../../lib/unsaved-changes";
import { useRouteHandle } from "../route-handle";

/** Document title follows the page title (screen readers announce it; tabs and history show it). */
function useDocumentTitle() {
  const handle = useRouteHandle();
  const title = handle?.page?.title ?? handle?.title;
  useEffect(() => {
    document.title = title ? `${title} – ${appName}` : appName;
  }, [title]);
}

/**
 * A newer build was deployed (lib/build-check.ts): reload on the next navigation, when the user expects the
 * screen to change anyway — never in the middle of unsaved edits.
 */
function useReloadOnNavigationWhenUpdated() {
  const { pathname } = useLocation();
  const lastPath = useRef(pathname);
  useEffect(() => {
    if (pathname === lastPath.current) return;
    lastPath.current = pathname;
    if (isBuildUpdatePending() && !hasUnsavedChanges()) reloadOnce(`build:${pathname}`);
  }, [pathname]);
}

export function RootRoute() {
  useDocumentTitle();
  useReloadOnNavigationWhenUpdated();
  return (
    <>
      <Outlet />
      <UnsavedChangesGuard />
    </>
  );
}
