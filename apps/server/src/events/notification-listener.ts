import type { Database, Unlisten } from "../db/client.js";

type Log = { warn: (details: object, message: string) => void; info: (details: object, message: string) => void };

/**
 * `lost`: the connection dropped, so notifications committed from now on are not heard until `listening` again;
 * `listening`: LISTEN holds again, and whatever was NOTIFYed in between was missed for good.
 */
export type ListenerState = "listening" | "lost";

export type NotificationListener = {
  /** Calls `handler` with each payload committed on `channel` (one of those the listener was started with). */
  onNotify: (channel: string, handler: (payload: string) => void) => () => void;
  /** Calls `handler` on every change of the connection's state, in the order they happen. */
  onStateChange: (handler: (state: ListenerState) => void) => () => void;
  /** True while LISTEN holds: every notification committed now will be heard. */
  isListening: () => boolean;
  close: () => Promise<void>;
};

export type ListenerOptions = { firstRetryMs?: number; maxRetryMs?: number };

/**
 * One per app instance: one database connection LISTENing on every channel the instance needs (case events, session
 * changes), whoever consumes them. On PostgreSQL that connection can drop (restart, failover, a terminated backend);
 * NOTIFYs sent meanwhile are lost to it, so consumers are told `lost` at once (whatever they keep from notifications
 * is no longer kept current) and `listening` once LISTEN holds again; retries back off from 1 s to 30 s while the
 * database is away. Resolves once the first LISTEN holds, so a write made after the app is ready is never missed.
 */
export async function startNotificationListener(
  database: Pick<Database, "listen">,
  channels: readonly string[],
  log: Log,
  options: ListenerOptions = {},
): Promise<NotificationListener> {
  const firstRetryMs = options.firstRetryMs ?? 1000;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  const handlers = new Map<string, Set<(payload: string) => void>>(channels.map((channel) => [channel, new Set()]));
  const stateHandlers = new Set<(state: ListenerState) => void>();
  const names = channels.join(", ");
  let unlisten: Unlisten | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const tell = (state: ListenerState) => {
    for (const handler of stateHandlers) handler(state);
  };
  const onNotify = (payload: string, channel: string) => {
    for (const handler of handlers.get(channel) ?? []) handler(payload);
  };
  const onLost = (error: Error) => {
    unlisten = undefined;
    if (closed) return;
    log.warn(
      { err: error, channels: names },
      "the notification listener lost its database connection; listening again",
    );
    tell("lost");
    scheduleRetry(firstRetryMs);
  };
  const scheduleRetry = (delayMs: number) => {
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (closed) return;
      database.listen(channels, onNotify, onLost).then(
        async (stop) => {
          if (closed) return stop();
          unlisten = stop;
          log.info({ channels: names }, "the notification listener is listening again");
          tell("listening");
        },
        (error: unknown) => {
          const next = Math.min(delayMs * 2, maxRetryMs);
          log.warn({ err: error, channels: names, retryInMs: next }, "notification listener: cannot listen");
          scheduleRetry(next);
        },
      );
    }, delayMs);
  };

  unlisten = await database.listen(channels, onNotify, onLost);

  return {
    onNotify: (channel, handler) => {
      const set = handlers.get(channel);
      if (!set) throw new Error(`The notification listener was not started on channel ${channel}.`);
      set.add(handler);
      return () => set.delete(handler);
    },
    onStateChange: (handler) => {
      stateHandlers.add(handler);
      return () => stateHandlers.delete(handler);
    },
    isListening: () => unlisten !== undefined && !closed,
    close: async () => {
      closed = true;
      clearTimeout(retryTimer);
      const stop = unlisten;
      unlisten = undefined;
      tell("lost");
      handlers.clear();
      stateHandlers.clear();
      await stop?.();
    },
  };
}
