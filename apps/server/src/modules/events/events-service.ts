import { PassThrough, type Readable } from "node:stream";
import { type CaseEvent, caseChangeSchema, type EventStreamFrame, type StreamReset } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import type { CaseEventHub, HubMessage } from "../../events/case-event-hub.js";
import type { Principal } from "../../http/principal.js";
import {
  type CaseEventRow,
  deleteEventsBefore,
  findEvent,
  findNewestEventId,
  findOldestEventId,
  listEventsAfter,
} from "./events-repository.js";

export type EventStreamSettings = {
  /** A comment line this often keeps proxies and load balancers from closing an idle stream. */
  heartbeatMs: number;
  /**
   * How often the caller's token, sign-in and groups are checked again: a revoked sign-in, a disabled user or an
   * expired token ends the stream (the client reconnects with a fresh token, or is signed out); changed groups
   * start or stop the case events from the next check on.
   */
  principalRefreshMs: number;
  /** The most events one reconnect replays; further behind, the client is told to re-read (`reset`). */
  replayLimit: number;
  /** The `retry:` hint: how long an EventSource-style client waits before reconnecting. */
  retryMs: number;
  /** A client this far behind in reading (bytes buffered) is dropped; it reconnects with `Last-Event-ID`. */
  maxBufferedBytes: number;
  /**
   * The most streams one sign-in may hold open on one instance (each browser tab of a sign-in opens one): one more
   * is refused with 429, and the streams already open go on. Without it one token could hold any number of
   * connections (and their timers) open.
   */
  maxStreamsPerSession: number;
};

export const defaultEventStreamSettings: EventStreamSettings = {
  heartbeatMs: 15_000,
  principalRefreshMs: 30_000,
  replayLimit: 1000,
  retryMs: 2000,
  maxBufferedBytes: 1_000_000,
  maxStreamsPerSession: 20,
};

/** Seconds of lower ids replayed before a `Last-Event-ID` (see `listEventsAfter`). */
const replayOverlapSeconds = 5;
const eventsKeptMs = 24 * 60 * 60 * 1000;
const pruneEveryMs = 60 * 60 * 1000;

export type EventStreams = {
  db: Db;
  hub: CaseEventHub;
  settings: EventStreamSettings;
  /** The open streams of this instance (ended when the app closes), with the sign-in each belongs to. */
  open: Map<PassThrough, OpenStream>;
  lastPrunedAt: number;
  log: { warn: (details: object, message: string) => void };
};

/** An open stream's sign-in, and how to check it again at once. */
type OpenStream = { sub: string; originJti: string; recheck: () => void };

export function caseEventOf(row: CaseEventRow): CaseEvent {
  return {
    id: row.id,
    caseId: row.caseId,
    clientId: row.clientId,
    change: caseChangeSchema.catch("case").parse(row.change),
    at: row.at.toISOString(),
  };
}

/** One SSE frame: `id:` (when it moves the client's Last-Event-ID), `event:`, `data:` as one JSON line. */
export function formatFrame(frame: EventStreamFrame, id?: number): string {
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`;
}

function mayReadCases(principal: Principal): boolean {
  return principal.permissions.has("cases:read");
}

type Start =
  | { kind: "fresh"; newest: number | undefined }
  | { kind: "replay"; newest: number | undefined; events: CaseEventRow[] }
  | { kind: "reset"; newest: number | undefined; reason: StreamReset["reason"] };

/** Where a stream starts: from now, after the client's `Last-Event-ID`, or with a re-read when that is unknown. */
async function startOf(db: Db, lastEventId: string | undefined, replayLimit: number): Promise<Start> {
  const newest = await findNewestEventId(db);
  if (lastEventId === undefined || lastEventId.trim() === "") return { kind: "fresh", newest };
  if (!/^\d{1,15}$/.test(lastEventId.trim())) return { kind: "reset", newest, reason: "unknown-id" };
  const id = Number(lastEventId.trim());
  const seen = await findEvent(db, id);
  if (!seen) {
    if (newest === undefined || id > newest) return { kind: "reset", newest, reason: "unknown-id" };
    const oldest = await findOldestEventId(db);
    return { kind: "reset", newest, reason: oldest === undefined || id < oldest ? "too-old" : "unknown-id" };
  }
  const events = await listEventsAfter(db, seen, replayOverlapSeconds, replayLimit + 1);
  if (events.length > replayLimit) return { kind: "reset", newest, reason: "too-old" };
  return { kind: "replay", newest, events };
}

/** At most once an hour per instance, without making the caller wait: events older than a day are deleted. */
function pruneOccasionally(streams: EventStreams): void {
  const now = Date.now();
  if (now - streams.lastPrunedAt < pruneEveryMs) return;
  streams.lastPrunedAt = now;
  deleteEventsBefore(streams.db, new Date(now - eventsKeptMs)).catch((error: unknown) =>
    streams.log.warn({ err: error }, "could not prune old case events"),
  );
}

/**
 * Opens one caller's event stream: `ready` (or the replay after `Last-Event-ID`, or `reset`), then every case event
 * the hub hears while the caller may read cases, heartbeats, until either side closes it. Live events heard while
 * the replay is read are held and sent after it, without the ones the replay already sent.
 */
export async function openEventStream(
  streams: EventStreams,
  principal: Principal,
  lastEventId: string | undefined,
  reauthenticate: () => Promise<Principal | undefined>,
): Promise<Readable> {
  const { db, hub, settings } = streams;
  let sameSession = 0;
  for (const other of streams.open.values()) if (other.originJti === principal.originJti) sameSession += 1;
  if (sameSession >= settings.maxStreamsPerSession) {
    throw new AppError(
      "too_many_requests",
      `This sign-in already has ${sameSession} live update streams open on this server (the most allowed): close a tab of the app, or wait for one to end.`,
      undefined,
      { "retry-after": "30" },
    );
  }
  const stream = new PassThrough();
  let mayRead = mayReadCases(principal);
  let held: HubMessage[] | undefined = [];
  const sent = new Set<number>();

  const write = (text: string) => {
    if (stream.writableEnded) return;
    stream.write(text);
    if (stream.writableLength > settings.maxBufferedBytes) stream.end();
  };
  const deliver = (message: HubMessage) => {
    if (message.kind === "gap") write(formatFrame({ event: "reset", data: { reason: "listener-gap" } }));
    else if (mayRead && !sent.has(message.event.id))
      write(formatFrame({ event: "case", data: message.event }, message.event.id));
  };
  const unsubscribe = hub.subscribe((message) => (held ? held.push(message) : deliver(message)));

  const heartbeat = setInterval(() => write(": heartbeat\n\n"), settings.heartbeatMs);
  // One check at a time; a change heard while one runs asks for another after it (it may have read too early).
  let checking = false;
  let checkAgain = false;
  const recheck = () => {
    if (checking) {
      checkAgain = true;
      return;
    }
    checking = true;
    const settle = (current: Principal | undefined) => {
      checking = false;
      if (!current) stream.end();
      else mayRead = mayReadCases(current);
      if (checkAgain && !stream.writableEnded) {
        checkAgain = false;
        recheck();
      }
    };
    reauthenticate().then(settle, () => settle(undefined));
  };
  const refresh = setInterval(recheck, settings.principalRefreshMs);
  const cleanUp = () => {
    unsubscribe();
    clearInterval(heartbeat);
    clearInterval(refresh);
    streams.open.delete(stream);
  };
  stream.once("close", cleanUp);
  stream.once("finish", cleanUp);
  streams.open.set(stream, { sub: principal.sub, originJti: principal.originJti, recheck });

  try {
    const start = await startOf(db, lastEventId, settings.replayLimit);
    const retry = `retry: ${settings.retryMs}\n`;
    const ready = { event: "ready", data: { lastEventId: start.newest ?? null } } as const;
    if (start.kind === "fresh") write(retry + formatFrame(ready, start.newest));
    else if (start.kind === "reset")
      write(retry + formatFrame({ event: "reset", data: { reason: start.reason } }, start.newest));
    else {
      write(retry + formatFrame(ready));
      for (const row of start.events) {
        sent.add(row.id);
        if (mayRead) write(formatFrame({ event: "case", data: caseEventOf(row) }, row.id));
      }
    }
  } catch (error) {
    cleanUp();
    stream.destroy();
    throw error;
  }
  const waiting = held;
  held = undefined;
  for (const message of waiting) deliver(message);
  sent.clear();
  pruneOccasionally(streams);
  return stream;
}

/** Ends every open stream of this instance (the app is closing): clients reconnect to another instance. */
export function endEventStreams(streams: EventStreams): void {
  for (const stream of streams.open.keys()) stream.end();
}

/**
 * A committed change to sign-ins (identity/session-changes.ts: all of a user's sign-ins ended, the user disabled,
 * their groups changed, one sign-in revoked), heard by this instance's session cache: the streams it concerns check
 * their token, sign-in and groups again at once rather than at their next periodic check, so a stream ends (or stops
 * sending case events) within moments of the change on every instance. `undefined` (the listener is back after a
 * gap in which changes may have been missed) checks every open stream.
 */
export function recheckEventStreams(
  streams: EventStreams,
  change: { sub?: string; originJti?: string } | undefined,
): void {
  for (const open of streams.open.values()) {
    if (change === undefined || change.sub === open.sub || change.originJti === open.originJti) open.recheck();
  }
}
