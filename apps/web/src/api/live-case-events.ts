import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import type { CaseEvent } from "@vigil/contract";
import { useEffect } from "react";
import type { LiveEventOptions } from "../lib/live-events";
import { sharedKeys } from "./query-keys";

/** A case changed: everything cached about it, every case list and the watch re-read (only what is on screen refetches). */
export function refreshCase(queryClient: QueryClient, event: Pick<CaseEvent, "caseId">): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: sharedKeys.caseDetail(event.caseId) }),
    queryClient.invalidateQueries({ queryKey: sharedKeys.caseRecords(event.caseId) }),
    queryClient.invalidateQueries({ queryKey: sharedKeys.caseLists() }),
    queryClient.invalidateQueries({ queryKey: sharedKeys.watch() }),
  ]);
}

/** What was missed cannot be told (`reset`, or a reconnect with nothing to resume from): every case read re-reads. */
export function refreshAllCases(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ["cases"] }),
    queryClient.invalidateQueries({ queryKey: sharedKeys.caseRecords() }),
    queryClient.invalidateQueries({ queryKey: sharedKeys.watch() }),
  ]);
}

/**
 * Keeps the live event stream open while `username` is signed in (the chrome mounts it once) and turns each event
 * into invalidations. A refetch never touches an open editor: record editors copy the item into their form when
 * opened and keep the user's text (a stale base is caught on save, with "re-apply my changes").
 */
export function useLiveCaseEvents(username: string | undefined, options?: LiveEventOptions): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!username) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    // Loaded after the first screen (its own chunk): no screen needs the stream to show, and the signed-in shell
    // stays small (docs/design/WEB.md).
    void import("../lib/live-events").then(({ connectLiveEvents }) => {
      if (cancelled) return;
      stop = connectLiveEvents(
        {
          onCaseEvent: (event) => void refreshCase(queryClient, event),
          onReset: () => void refreshAllCases(queryClient),
        },
        options,
      );
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [username, queryClient, options]);
}
