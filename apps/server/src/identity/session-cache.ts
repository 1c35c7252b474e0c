import type { NotificationListener } from "../events/notification-listener.js";
import {
  parseSessionChange,
  type SessionChange,
  sessionChangesChannel,
  watchLocalSessionChanges,
} from "./session-changes.js";

/** What the per-request session check answers for a live sign-in: its user's name and current groups. */
export type LiveSession = { username: string; groups: readonly string[] };

export type SessionCacheOptions = {
  /** How long an entry is trusted at most, notifications or not: the backstop for one that never arrives. */
  ttlMs?: number;
  /** Beyond this many entries the oldest go first (each is one live sign-in: a few hundred bytes). */
  maxEntries?: number;
  /** The clock, for tests of expiry. */
  now?: () => number;
};

export type SessionCache = {
  /**
   * The live session of (`originJti`, `sub`): from memory when an entry may be trusted, else from `read` (the
   * database), whose answer is kept only if nothing that could change it happened while it was being read.
   */
  liveSession: (
    originJti: string,
    sub: string,
    read: () => Promise<LiveSession | undefined>,
  ) => Promise<LiveSession | undefined>;
  /** A committed change heard from the listener: drop what it names. */
  changed: (change: SessionChange) => void;
  /** A change this process is about to commit: drop what it names and keep it from memory until `changed` hears it. */
  hold: (change: SessionChange) => void;
  /** The listener's connection state: nothing is trusted unless it is `listening`. */
  setListening: (listening: boolean) => void;
  /** How many changes this process has held so far: a mark for `untilHeardSince`. */
  holdMark: () => number;
  /**
   * Resolves once the notifications of the changes held (`hold`) after `mark` have come back to this instance, or at
   * once if it is not listening (there is nothing to wait for), or after `timeoutMs` (a change rolled back never
   * comes back). Changes held meanwhile by other requests of this process are waited for too: harmless, and no
   * per-request context (AsyncLocalStorage) is needed to tell them apart.
   */
  untilHeardSince: (mark: number, timeoutMs?: number) => Promise<void>;
  stats: () => { entries: number; hits: number; misses: number };
  /**
   * Calls `watcher` after each committed change heard (with what it names) and whenever anything may have changed
   * unheard (`undefined`: the listener is back after a gap, or a notification was unreadable), once the cache has
   * dropped what it concerns: whoever keeps a sign-in open beyond one request (the live event stream) checks again.
   */
  onChange: (watcher: SessionChangeWatcher) => () => void;
};

export type SessionChangeWatcher = (change: { sub?: string; originJti?: string } | undefined) => void;

type Entry = { value: LiveSession; originJti: string; sub: string; expiresAt: number };
type Hold = { sub?: string; originJti?: string; until: number; mark: number };

const concerns = (change: { sub?: string; originJti?: string }, originJti: string, sub: string) =>
  (change.sub !== undefined && change.sub === sub) ||
  (change.originJti !== undefined && change.originJti === originJti);

/**
 * The per-instance memory of live sessions behind `plugins/authenticate.ts`, so an API call needs no database round
 * trip to learn that its sign-in is live and its user enabled, and which groups they hold now. It is only as good as
 * the notifications that keep it current (`notifySessionChange`, sent in the transaction of every write that can
 * change the answer), so:
 * - nothing is trusted while the listener is not listening (`setListening(false)` empties it; every call reads);
 * - `generation` moves on every change, hold and listener state change; a read that started before one of them
 *   may have seen the state before it, and is answered but not kept;
 * - a change this process is making is held (`hold`) from before its commit until its own notification comes back,
 *   so the instance that revoked never answers from memory for the sign-ins it revoked;
 * - entries expire after `ttlMs` whatever happens (a listener cut off without noticing, e.g. a silent network).
 * Misses (a revoked sign-in, a disabled user) are never kept: the check reads them each time, as before.
 */
export function createSessionCache(options: SessionCacheOptions = {}): SessionCache {
  const ttlMs = options.ttlMs ?? 30_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const holds = new Map<string, Hold>();
  let listening = false;
  let generation = 0;
  let hits = 0;
  let misses = 0;
  let holdsMade = 0;
  /** Callers of `untilHeardSince`, asked again after every change heard and every listener state change. */
  const waiters = new Set<() => void>();
  const askWaiters = () => {
    for (const waiter of waiters) waiter();
  };
  const watchers = new Set<SessionChangeWatcher>();
  const tellWatchers = (change: { sub?: string; originJti?: string } | undefined) => {
    for (const watcher of watchers) watcher(change);
  };

  const dropConcerned = (change: { sub?: string; originJti?: string }) => {
    for (const [key, entry] of entries) if (concerns(change, entry.originJti, entry.sub)) entries.delete(key);
  };
  const isHeld = (originJti: string, sub: string, at: number) => {
    for (const [nonce, hold] of holds) {
      // A hold whose notification never came (its transaction rolled back) lapses like an entry would.
      if (hold.until <= at) holds.delete(nonce);
      else if (concerns(hold, originJti, sub)) return true;
    }
    return false;
  };
  const keep = (key: string, entry: Entry, at: number) => {
    if (entries.size >= maxEntries) {
      for (const [old, candidate] of entries) if (candidate.expiresAt <= at) entries.delete(old);
      // Still full of live entries: the oldest read goes (Map keeps insertion order).
      const oldest = entries.keys().next();
      if (entries.size >= maxEntries && !oldest.done) entries.delete(oldest.value);
    }
    entries.set(key, entry);
  };

  return {
    liveSession: async (originJti, sub, read) => {
      const key = `${originJti}/${sub}`;
      const startedAt = now();
      if (listening && !isHeld(originJti, sub, startedAt)) {
        const entry = entries.get(key);
        if (entry && entry.expiresAt > startedAt) {
          hits += 1;
          return entry.value;
        }
        if (entry) entries.delete(key);
      }
      misses += 1;
      const readAt = generation;
      const value = await read();
      const readEnd = now();
      if (value && listening && generation === readAt && !isHeld(originJti, sub, readEnd)) {
        const kept = Object.freeze({ username: value.username, groups: Object.freeze([...value.groups]) });
        keep(key, { value: kept, originJti, sub, expiresAt: startedAt + ttlMs }, readEnd);
      }
      return value;
    },
    changed: (change) => {
      generation += 1;
      holds.delete(change.nonce);
      dropConcerned(change);
      askWaiters();
      tellWatchers(change);
    },
    hold: (change) => {
      generation += 1;
      holdsMade += 1;
      holds.set(change.nonce, { until: now() + ttlMs, mark: holdsMade, ...change });
      dropConcerned(change);
    },
    setListening: (value) => {
      generation += 1;
      listening = value;
      entries.clear();
      askWaiters();
      // Listening (again, or after an unreadable notification): what was missed meanwhile cannot be named.
      if (value) tellWatchers(undefined);
    },
    holdMark: () => holdsMade,
    untilHeardSince: (mark, timeoutMs = 1000) =>
      new Promise<void>((resolve) => {
        const pending = () => {
          if (!listening) return false;
          for (const hold of holds.values()) if (hold.mark > mark) return true;
          return false;
        };
        if (!pending()) return resolve();
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const check = () => {
          if (!pending()) finish();
        };
        const timer = setTimeout(finish, timeoutMs);
        waiters.add(check);
      }),
    stats: () => ({ entries: entries.size, hits, misses }),
    onChange: (watcher) => {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
  };
}

type Log = { warn: (details: object, message: string) => void };

/**
 * The instance's session cache, kept current by its notification listener (which must have been started on
 * `sessionChangesChannel`) and by the writes this process makes; `close` stops both.
 */
export function connectSessionCache(
  listener: NotificationListener,
  log: Log,
  options: SessionCacheOptions = {},
): SessionCache & { close: () => void } {
  const cache = createSessionCache(options);
  const stopLocal = watchLocalSessionChanges(cache.hold);
  const stopChanges = listener.onNotify(sessionChangesChannel, (payload) => {
    const change = parseSessionChange(payload);
    if (change) cache.changed(change);
    else {
      // Unreadable, so it cannot be matched: forget everything rather than keep what it may have changed.
      log.warn({ payload }, "a malformed session change notification emptied the session cache");
      cache.setListening(listener.isListening());
    }
  });
  const stopStates = listener.onStateChange((state) => cache.setListening(state === "listening"));
  cache.setListening(listener.isListening());
  return {
    close: () => {
      stopLocal();
      stopChanges();
      stopStates();
      cache.setListening(false);
    },
    ...cache,
  };
}
