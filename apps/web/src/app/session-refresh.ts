import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { systemRoutes } from "@vigil/contract";
import { useEffect } from "react";
import { apiPath } from "../lib/api-paths";
import { onApiRefusal } from "../lib/api-refusals";
import { endSessionRefusedByApi } from "../lib/auth";
import { rereadSession } from "./session";

/** How often the open tab re-reads the user's details and menu while it is in view. */
export const sessionRereadIntervalMs = 2 * 60_000;
/** Coming back to the tab re-reads them when the last read is at least this old. */
export const sessionRereadOnReturnAfterMs = 30_000;

/**
 * Keeps the signed-in session true to the server while the tab stays open: an administrator may change the user's
 * access groups, disable the account or reset its password at any time, and the API applies it at the next
 * request. A 401 from any call ends the session here too; a 403 from any call re-reads the user and the menu (the
 * groups the screens decide with may be stale); and so do coming back to the tab and, cheaply, a re-read every few
 * minutes while it is in view, so a granted page appears in the menu and a removed one disappears. Returns the
 * cleanup.
 */
export function followSessionChanges(queryClient: QueryClient): () => void {
  let lastRead = Date.now();
  const reread = () => {
    lastRead = Date.now();
    void rereadSession(queryClient);
  };
  const inView = () => document.visibilityState !== "hidden";
  const timer = window.setInterval(() => {
    if (inView()) reread();
  }, sessionRereadIntervalMs);
  const onReturn = () => {
    if (inView() && Date.now() - lastRead >= sessionRereadOnReturnAfterMs) reread();
  };
  window.addEventListener("focus", onReturn);
  document.addEventListener("visibilitychange", onReturn);
  const stopListening = onApiRefusal(({ error, method, path }) => {
    if (error.status === 401) {
      void endSessionRefusedByApi(error);
      return;
    }
    // The menu's own 403 is the session's answer ("no access group"), not news about it: re-reading it would loop.
    if (method === "GET" && path === apiPath(systemRoutes.getChrome)) return;
    reread();
  });
  return () => {
    window.clearInterval(timer);
    window.removeEventListener("focus", onReturn);
    document.removeEventListener("visibilitychange", onReturn);
    stopListening();
  };
}

export function useSessionFollowsChanges(): void {
  const queryClient = useQueryClient();
  useEffect(() => followSessionChanges(queryClient), [queryClient]);
}
