import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";

/** The PostgreSQL channel every instance's session cache listens on (and PGlite's in-process equivalent). */
export const sessionChangesChannel = "vigil_session_changes";

/**
 * A write that may change what the per-request session check answers: every sign-in of `sub` (a user disabled or
 * enabled, their groups changed, all their sign-ins ended), or the one sign-in `originJti`. `nonce` tells the
 * instance that wrote it its own notification apart from other instances' ones.
 */
export type SessionChange = { sub?: string; originJti?: string; nonce: string };

/** Told, in this process, of a change about to be committed (before the commit: see `notifySessionChange`). */
type LocalWatcher = (change: SessionChange) => void;
const localWatchers = new Set<LocalWatcher>();

/** The session caches of this process (one per app) watch the writes made here; returns the stop function. */
export function watchLocalSessionChanges(watcher: LocalWatcher): () => void {
  localWatchers.add(watcher);
  return () => localWatchers.delete(watcher);
}

/**
 * Says, in the writer's transaction, that the session check's answer for `sub` and/or `originJti` may have changed:
 * `pg_notify` reaches every instance's listener only when (and if) the transaction commits, so no instance drops or
 * refills its cache on a change that was rolled back. The writing process's own caches are told at once too, before
 * the commit, and stop trusting the entries concerned until the notification comes back: otherwise the very next
 * request to this instance could be answered from memory in the moment between the commit and the notification's
 * delivery (identity/session-cache.ts).
 */
export async function notifySessionChange(tx: Db, change: { sub?: string; originJti?: string }): Promise<void> {
  const full: SessionChange = { nonce: randomUUID(), ...change };
  for (const watcher of localWatchers) watcher(full);
  await tx.execute(sql`select pg_notify(${sessionChangesChannel}, ${JSON.stringify(full)})`);
}

/** The payload `notifySessionChange` sends; undefined for anything else. */
export function parseSessionChange(payload: string): SessionChange | undefined {
  try {
    const raw = JSON.parse(payload) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === "string" && value.length > 0 ? value : undefined);
    const sub = text(raw.sub);
    const originJti = text(raw.originJti);
    const nonce = text(raw.nonce);
    if (!nonce || (!sub && !originJti)) return undefined;
    return { nonce, ...(sub ? { sub } : {}), ...(originJti ? { originJti } : {}) };
  } catch {
    return undefined;
  }
}
