import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook } from "@testing-library/react";
import type { CaseEvent } from "@vigil/contract";
import type { FetchLike } from "eventsource";
import { createElement, type ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { connectLiveEvents, useCaseEvents } from "../lib/live-events";
import { refreshAllCases, refreshCase, useLiveCaseEvents } from "./live-case-events";
import { sharedKeys } from "./query-keys";

const caseId = "11111111-1111-4111-8111-111111111111";
const clientId = "22222222-2222-4222-8222-222222222222";
const caseEvent = (id: number): CaseEvent => ({
  id,
  caseId,
  clientId,
  change: "record",
  at: "2026-11-25T10:00:00.000Z",
});

/** A fake server: each call of `fetch` takes the next scripted answer; a stream ends after its frames. */
function fakeServer(answers: (string[] | "down")[]) {
  const calls: { at: number; headers: Record<string, string> }[] = [];
  const fetch: FetchLike = async (_url, init) => {
    calls.push({ at: Date.now(), headers: { ...(init.headers as Record<string, string>) } });
    const answer = answers.shift() ?? "down";
    if (answer === "down") throw new TypeError("Failed to fetch");
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const frame of answer) controller.enqueue(new TextEncoder().encode(frame));
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }) as never;
  };
  return { fetch, calls };
}

const frame = (event: string, data: unknown, id?: number) =>
  `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const getToken = async () => "token-1";

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: false }));
afterEach(() => vi.useRealTimers());

describe("the live event stream client", () => {
  it("backs off from 1 s, doubling to at most 30 s, while the server is gone", async () => {
    const server = fakeServer([]);
    const stop = connectLiveEvents({ onCaseEvent: () => {}, onReset: () => {} }, { fetch: server.fetch, getToken });
    await vi.advanceTimersByTimeAsync(0);
    const started = server.calls[0]?.at as number;
    await vi.advanceTimersByTimeAsync(200_000);
    stop();
    const gaps = server.calls.map((call, index) => call.at - (server.calls[index - 1]?.at ?? started)).slice(1);
    expect(gaps.slice(0, 7)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  it("sends the ID token, and on reconnecting the id of the last event seen, so the server replays what was missed", async () => {
    const server = fakeServer([[frame("ready", { lastEventId: 4 }, 4), frame("case", caseEvent(5), 5)], []]);
    const events: CaseEvent[] = [];
    const onReset = vi.fn();
    const stop = connectLiveEvents(
      { onCaseEvent: (event) => events.push(event), onReset },
      { fetch: server.fetch, getToken },
    );
    await vi.advanceTimersByTimeAsync(1500);
    stop();
    expect(events).toEqual([caseEvent(5)]);
    expect(server.calls[0]?.headers.Authorization).toBe("Bearer token-1");
    expect(server.calls[0]?.headers["Last-Event-ID"]).toBeUndefined();
    expect(server.calls[1]?.headers["Last-Event-ID"]).toBe("5");
    expect(onReset).not.toHaveBeenCalled();
  });

  it("asks for a re-read on reset, and after a reconnect that had nothing to resume from", async () => {
    const server = fakeServer([
      [frame("ready", { lastEventId: null })],
      [frame("ready", { lastEventId: null })],
      [frame("reset", { reason: "too-old" }, 9)],
    ]);
    const onReset = vi.fn();
    const stop = connectLiveEvents({ onCaseEvent: () => {}, onReset }, { fetch: server.fetch, getToken });
    await vi.advanceTimersByTimeAsync(0);
    expect(onReset).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(onReset).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(onReset).toHaveBeenCalledTimes(2);
    stop();
  });

  it("tells every useCaseEvents listener of each case event", async () => {
    const server = fakeServer([[frame("ready", { lastEventId: 1 }, 1), frame("case", caseEvent(2), 2)]]);
    const heard: CaseEvent[] = [];
    const { unmount } = renderHook(() => useCaseEvents((event) => heard.push(event)));
    const stop = connectLiveEvents({ onCaseEvent: () => {}, onReset: () => {} }, { fetch: server.fetch, getToken });
    await vi.advanceTimersByTimeAsync(0);
    stop();
    unmount();
    expect(heard).toEqual([caseEvent(2)]);
  });
});

describe("what a case event refreshes", () => {
  it("invalidates the case, its records, every case list and the watch; a reset every case read", async () => {
    const queryClient = new QueryClient();
    const invalidated: unknown[] = [];
    vi.spyOn(queryClient, "invalidateQueries").mockImplementation(async (filters) => {
      invalidated.push(filters?.queryKey);
    });
    await refreshCase(queryClient, { caseId });
    expect(invalidated).toEqual([
      sharedKeys.caseDetail(caseId),
      sharedKeys.caseRecords(caseId),
      sharedKeys.caseLists(),
      sharedKeys.watch(),
    ]);
    invalidated.length = 0;
    await refreshAllCases(queryClient);
    expect(invalidated).toEqual([["cases"], sharedKeys.caseRecords(), sharedKeys.watch()]);
  });

  it("refetches a case read on screen when the stream says the case changed", async () => {
    const server = fakeServer([[frame("ready", { lastEventId: 1 }, 1), frame("case", caseEvent(2), 2)]]);
    const queryClient = new QueryClient();
    await queryClient.prefetchQuery({ queryKey: sharedKeys.caseDetail(caseId), queryFn: () => "before" });
    const options = { fetch: server.fetch, getToken };
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client: queryClient }, children);
    const { unmount } = renderHook(() => useLiveCaseEvents("someone", options), { wrapper });
    await vi.advanceTimersByTimeAsync(0);
    unmount();
    expect(queryClient.getQueryState(sharedKeys.caseDetail(caseId))?.isInvalidated).toBe(true);
  });
});
