import { eq, sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client.js";
import { signInFailures } from "../db/schema.js";

/** AUTH.md: after 5 failures the name is locked for 2^(n−5) s, at most 15 minutes. */
export const lockoutThreshold = 5;
export const lockoutCapSeconds = 15 * 60;
/** A failure this old is forgiven: the count starts again. */
export const failureMemoryMs = 24 * 60 * 60_000;

/**
 * Counts an attempt *before* its outcome is known, atomically and only while the name is not locked, so a burst
 * of parallel guesses cannot all slip past the lock check. Returns false when the name is locked. An attempt that
 * turns out right is given back (`refundSignInAttempt`) or wipes the slate (`clearSignInFailures`).
 * Keyed on the normalised username, for names that do not exist too: a lock reveals nothing.
 */
export async function reserveSignInAttempt(db: Db, usernameKey: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const forgetBefore = new Date(now.getTime() - failureMemoryMs).toISOString();
  const next = sql`(case when f.last_failure_at < ${forgetBefore}::timestamptz then 1 else f.failures + 1 end)`;
  const rows = await queryRows<{ failures: number }>(
    db,
    sql`insert into sign_in_failures as f (username_key, failures, locked_until, last_failure_at)
        values (${usernameKey}, 1, null, ${at}::timestamptz)
        on conflict (username_key) do update set
          failures = ${next},
          locked_until = case when ${next} >= ${lockoutThreshold}
            then ${at}::timestamptz
              + least(power(2, least(${next} - ${lockoutThreshold}, 20)), ${lockoutCapSeconds}) * interval '1 second'
            else null end,
          last_failure_at = ${at}::timestamptz
        where f.locked_until is null or f.locked_until <= ${at}::timestamptz
        returning f.failures`,
  );
  return rows.length > 0;
}

/** The attempt was right but the sign-in goes on (a challenge follows): it does not count, and unlocks. */
export async function refundSignInAttempt(db: Db, usernameKey: string): Promise<void> {
  await db
    .update(signInFailures)
    .set({ failures: sql`greatest(${signInFailures.failures} - 1, 0)`, lockedUntil: null })
    .where(eq(signInFailures.usernameKey, usernameKey));
}

/** A completed sign-in (or a password reset by email) resets the count. */
export async function clearSignInFailures(db: Db, usernameKey: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.usernameKey, usernameKey));
}

export async function deleteForgottenSignInFailures(db: Db, now: Date): Promise<void> {
  const forgetBefore = new Date(now.getTime() - failureMemoryMs).toISOString();
  await db.execute(
    sql`delete from sign_in_failures
        where last_failure_at < ${forgetBefore}::timestamptz
          and (locked_until is null or locked_until < ${now.toISOString()}::timestamptz)`,
  );
}
