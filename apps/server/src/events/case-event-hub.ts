import { type CaseEvent, caseEventSchema } from "@vigil/contract";
import type { Database, Unlisten } from "../db/client.js";
import { caseEventsChannel } from "./case-events.js";

/** What a subscriber hears: a committed case event, or that events may have been missed (re-read everything). */
export type HubMessage = { kind: "case"; event: CaseEvent } | { kind: "gap" };
export type HubSubscriber = (message: HubMessage) => void;

type Log = { warn: (details: object, message: string) => void; info: (details: object, message: string) => void };

export type CaseEventHub = {
  subscribe: (subscriber: HubSubscriber) => () => void;
  /** Subscribers right now (the bench and diagnostics). */
  subscriberCount: () => number;
  close: () => Promise<void>;
};

export type HubOptions = { firstRetryMs?: number; maxRetryMs?: number };

/** The payload `publishCaseEvent` sends; `at` comes as PostgreSQL's JSON timestamp, normalised to ISO here. */
export function parseCaseEventPayload(payload: string): CaseEvent | undefined {
  try {
    const raw = JSON.parse(payload) as Record<string, unknown>;
    const parsed = caseEventSchema.safeParse({ ...raw, at: new Date(String(raw.at)).toISOString() });
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One per app instance: LISTENs on the case-event channel and fans each notification out to the instance's open
 * streams, so N browsers cost one database connection, not N. On PostgreSQL the listening connection can drop
 * (restart, failover, a terminated backend); NOTIFYs sent meanwhile are lost to it, so after listening again every
 * subscriber is told `gap` and makes its client re-read, and retries back off from 1 s to 30 s while the database is
 * away. Resolves once the first LISTEN holds, so a write made after the app is ready is never missed.
 */
export async function startCaseEventHub(database: Pick<Database, "listen">, log: Log, options: HubOptions = {}) {
  const firstRetryMs = options.firstRetryMs ?? 1000;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  const subscribers = new Set<HubSubscriber>();
  let unlisten: Unlisten | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const broadcast = (message: HubMessage) => {
    for (const subscriber of subscribers) subscriber(message);
  };
  const onNotify = (payload: string) => {
    const event = parseCaseEventPayload(payload);
    if (event) broadcast({ kind: "case", event });
    else log.warn({ payload }, "ignored a malformed case event notification");
  };
  const onLost = (error: Error) => {
    unlisten = undefined;
    if (closed) return;
    log.warn({ err: error }, "the case event listener lost its database connection; listening again");
    scheduleRetry(firstRetryMs);
  };
  const scheduleRetry = (delayMs: number) => {
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (closed) return;
      database.listen(caseEventsChannel, onNotify, onLost).then(
        async (stop) => {
          if (closed) return stop();
          unlisten = stop;
          log.info({}, "the case event listener is listening again; streams re-read");
          broadcast({ kind: "gap" });
        },
        (error: unknown) => {
          log.warn({ err: error, retryInMs: Math.min(delayMs * 2, maxRetryMs) }, "case event listener: cannot listen");
          scheduleRetry(Math.min(delayMs * 2, maxRetryMs));
        },
      );
    }, delayMs);
  };

  unlisten = await database.listen(caseEventsChannel, onNotify, onLost);

  return {
    subscribe: (subscriber) => {
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    subscriberCount: () => subscribers.size,
    close: async () => {
      closed = true;
      clearTimeout(retryTimer);
      subscribers.clear();
      await unlisten?.();
      unlisten = undefined;
    },
  } satisfies CaseEventHub;
}
