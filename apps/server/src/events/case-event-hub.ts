import { type CaseEvent, caseEventSchema } from "@vigil/contract";
import type { Database } from "../db/client.js";
import { caseEventsChannel } from "./case-events.js";
import { type ListenerOptions, type NotificationListener, startNotificationListener } from "./notification-listener.js";

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

/** The payload `publishCaseEvent` sends; `at` comes as PostgreSQL's JSON timestamp, normalised to ISO here. */
export function parseCaseEventPayload(payload: string): CaseEvent | undefined {
  try {
    const raw = JSON.parse(payload) as Record<string, unknown>;
    // biome-ignore lint/plugin/leading-spread-then-keys: the payload's own at, normalised
    const parsed = caseEventSchema.safeParse({ ...raw, at: new Date(String(raw.at)).toISOString() });
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One per app instance: hears the case-event channel on the instance's notification listener and fans each event out
 * to the instance's open streams, so N browsers cost nothing more on the database. When the listener has been away,
 * NOTIFYs sent meanwhile are lost, so once it listens again every subscriber is told `gap` and makes its client
 * re-read. Closing the hub leaves the listener to its owner.
 */
export function createCaseEventHub(listener: NotificationListener, log: Log): CaseEventHub {
  const subscribers = new Set<HubSubscriber>();
  const broadcast = (message: HubMessage) => {
    for (const subscriber of subscribers) subscriber(message);
  };
  const stopEvents = listener.onNotify(caseEventsChannel, (payload) => {
    const event = parseCaseEventPayload(payload);
    if (event) broadcast({ kind: "case", event });
    else log.warn({ payload }, "ignored a malformed case event notification");
  });
  const stopStates = listener.onStateChange((state) => {
    if (state === "listening") broadcast({ kind: "gap" });
  });
  return {
    subscribe: (subscriber) => {
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    subscriberCount: () => subscribers.size,
    close: async () => {
      stopEvents();
      stopStates();
      subscribers.clear();
    },
  };
}

/**
 * A hub with a listener of its own on the case-event channel alone (tests of the event stream); closing the hub
 * closes that listener too. Resolves once the first LISTEN holds.
 */
export async function startCaseEventHub(
  database: Pick<Database, "listen">,
  log: Log,
  options: ListenerOptions = {},
): Promise<CaseEventHub> {
  const listener = await startNotificationListener(database, [caseEventsChannel], log, options);
  const hub = createCaseEventHub(listener, log);
  return {
    subscribe: hub.subscribe,
    subscriberCount: hub.subscriberCount,
    close: async () => {
      await hub.close();
      await listener.close();
    },
  };
}
