import { type CaseEvent, caseEventSchema, eventRoutes } from "@vigil/contract";
import { EventSource, type FetchLike } from "eventsource";
import { useEffect, useRef } from "react";
import { buildUrl } from "./api-client";
import { apiPath } from "./api-paths";
import { getIdToken } from "./auth";

/**
 * The live event stream (`GET /api/events`, PRODUCT.md §10): the board, the queues and the case screen update by
 * themselves when anyone changes a case. The `eventsource` package (the WHATWG EventSource over `fetch`, maintained,
 * ~4 KB) reads the stream; unlike the browser's EventSource it lets each connection carry the current ID token as a
 * Bearer header, like every API call. Reconnecting is ours: the library's fixed `retry:` delay would hammer a server
 * that is down, so every failure closes it and the next attempt waits 1 s, 2 s, 4 s… up to 30 s, sending the id of
 * the last event seen as `Last-Event-ID` so the server replays what was missed.
 */
export type LiveEventHandlers = {
  onCaseEvent: (event: CaseEvent) => void;
  /** What was missed cannot be told: re-read everything the screens show. */
  onReset: () => void;
};

export type LiveEventOptions = {
  /** Where `fetch` goes; tests hand in a fake server. */
  fetch?: FetchLike;
  getToken?: () => Promise<string | null>;
  firstRetryMs?: number;
  maxRetryMs?: number;
};

export const liveEventsUrl = () => buildUrl(apiPath(eventRoutes.streamEvents));

const caseEventListeners = new Set<(event: CaseEvent) => void>();

/** Opens the stream and keeps it open until the returned function is called. */
export function connectLiveEvents(handlers: LiveEventHandlers, options: LiveEventOptions = {}): () => void {
  const firstRetryMs = options.firstRetryMs ?? 1000;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  const getToken = options.getToken ?? getIdToken;
  const fetchImpl: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  let lastEventId: string | undefined;
  let retryMs = firstRetryMs;
  let attempts = 0;
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const remember = (event: MessageEvent) => {
    if (event.lastEventId) lastEventId = event.lastEventId;
  };
  const connect = () => {
    attempts += 1;
    // A first connection, or a reconnection that has no event id to resume from: the server starts from now.
    const resumable = lastEventId !== undefined;
    const current = new EventSource(liveEventsUrl(), {
      fetch: async (url, init) => {
        const token = await getToken();
        if (!token) throw new Error("Not signed in.");
        const headers = {
          ...init.headers,
          Authorization: `Bearer ${token}`,
          ...(lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId }),
        };
        return fetchImpl(url, { ...init, headers });
      },
    });
    source = current;
    current.addEventListener("ready", (event) => {
      retryMs = firstRetryMs;
      remember(event);
      if (attempts > 1 && !resumable) handlers.onReset();
    });
    current.addEventListener("reset", (event) => {
      retryMs = firstRetryMs;
      remember(event);
      handlers.onReset();
    });
    current.addEventListener("case", (event) => {
      remember(event);
      const parsed = caseEventSchema.safeParse(JSON.parse(event.data));
      if (!parsed.success) return;
      for (const listener of caseEventListeners) listener(parsed.data);
      handlers.onCaseEvent(parsed.data);
    });
    current.addEventListener("error", () => {
      current.close();
      if (stopped || source !== current) return;
      timer = setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, maxRetryMs);
    });
  };

  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
}

/**
 * Calls `handler` with every case event the open stream delivers (the board highlights the rows that just changed).
 * Listens only: the stream is opened once for the signed-in user by the app's chrome.
 */
export function useCaseEvents(handler: (event: CaseEvent) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const listener = (event: CaseEvent) => latest.current(event);
    caseEventListeners.add(listener);
    return () => {
      caseEventListeners.delete(listener);
    };
  }, []);
}
