import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client.js";

export type RateLimitResult = { allowed: boolean; count: number; retryAfterSeconds: number };

/**
 * One hit on a fixed-window counter shared by every instance (the `rate_limits` table). Windows are aligned to
 * the epoch, so all instances agree on when one starts; the upsert is atomic.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  limit: number,
  windowSeconds: number,
  now: Date,
): Promise<RateLimitResult> {
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
  const start = new Date(windowStart).toISOString();
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`insert into rate_limits as r (key, window_start, count)
        values (${key}, ${start}::timestamptz, 1)
        on conflict (key) do update set
          count = case when r.window_start >= excluded.window_start then r.count + 1 else 1 end,
          window_start = greatest(r.window_start, excluded.window_start)
        returning r.count`,
  );
  const count = Number(row?.count ?? 1);
  return {
    allowed: count <= limit,
    count,
    retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now.getTime()) / 1000)),
  };
}

/** Counters of windows long gone. The longest window is an hour. */
export async function deleteStaleRateLimits(db: Db, now: Date): Promise<void> {
  const before = new Date(now.getTime() - 2 * 60 * 60_000).toISOString();
  await db.execute(sql`delete from rate_limits where window_start < ${before}::timestamptz`);
}
