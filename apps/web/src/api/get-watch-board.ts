import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type WatchBoard, type WatchBoardQuery, watchBoardSchema, watchRoutes } from "@vigil/contract";
import { requestData } from "../lib/api-client";
import { apiPath } from "../lib/api-paths";
import { sharedKeys } from "./query-keys";

/** The board's query as screens ask it: the contract's, every value already chosen (no defaults left to fill). */
export type WatchBoardParams = Omit<WatchBoardQuery, "mine" | "alsoDueSoon"> & {
  mine?: boolean;
  alsoDueSoon?: boolean;
  limit: number;
  offset: number;
};

/** Under the watch's key: every case event refreshes every board read (the board page, the home page's lead). */
export const watchBoardKey = (params: WatchBoardParams) => [...sharedKeys.watch(), "board", params] as const;

/** `GET /continuous-monitoring/board`: one page of the open cases' running clocks, sooner breach first. */
export function fetchWatchBoard(params: WatchBoardParams, signal?: AbortSignal): Promise<WatchBoard> {
  return requestData("GET", apiPath(watchRoutes.getWatchBoard), watchBoardSchema, {
    query: {
      ...params,
      mine: params.mine ? "true" : undefined,
      alsoDueSoon: params.alsoDueSoon ? "true" : undefined,
    },
    signal,
  });
}

export function watchBoardQueryOptions(params: WatchBoardParams) {
  return queryOptions({
    queryKey: watchBoardKey(params),
    queryFn: ({ signal }) => fetchWatchBoard(params, signal),
    placeholderData: keepPreviousData,
    // No timed re-read: the rows change only when a case is written, and every case event (lib/live-events.ts)
    // refreshes this key; due soon and overdue are aged on screen. Each read is an audited patient-data read.
    staleTime: 0,
  });
}

export function useWatchBoard(params: WatchBoardParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...watchBoardQueryOptions(params), enabled: options.enabled ?? true });
}
