import { and, eq, isNull, lt, ne } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { authChallenges, authSessions, users } from "../db/schema.js";
import { notifySessionChange } from "./session-changes.js";

export type AuthSessionRow = typeof authSessions.$inferSelect;
export type AuthChallengeRow = typeof authChallenges.$inferSelect;

export async function insertAuthSession(db: Db, row: typeof authSessions.$inferInsert): Promise<AuthSessionRow> {
  const [inserted] = await db.insert(authSessions).values(row).returning();
  return inserted as AuthSessionRow;
}

export async function findAuthSessionByRefreshHash(
  db: Db,
  refreshTokenHash: string,
): Promise<AuthSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(authSessions)
    .where(eq(authSessions.refreshTokenHash, refreshTokenHash))
    .limit(1);
  return row;
}

/**
 * The check behind every API call: the sign-in the token came from is live and its user enabled. Its answer is kept
 * in memory per instance (session-cache.ts): every write to what it reads (`auth_sessions.revoked_at`,
 * `users.enabled`, `users.groups`) must call `notifySessionChange` in its transaction, as the writes here and
 * `updateUser` do.
 */
export async function findLiveSessionUser(
  db: Db,
  originJti: string,
  userSub: string,
): Promise<{ username: string; groups: string[] } | undefined> {
  const [row] = await db
    .select({ username: users.username, groups: users.groups })
    .from(authSessions)
    .innerJoin(users, eq(users.sub, authSessions.userSub))
    .where(
      and(
        eq(authSessions.originJti, originJti),
        eq(authSessions.userSub, userSub),
        isNull(authSessions.revokedAt),
        eq(users.enabled, true),
      ),
    )
    .limit(1);
  return row;
}

/** The account a sign-in belongs to, revoked or not: why its token no longer works. */
export async function findSessionAccount(
  db: Db,
  originJti: string,
  userSub: string,
): Promise<{ enabled: boolean; status: string; revokedWith: AuthSessionRow["revokedWith"] } | undefined> {
  const [row] = await db
    .select({ enabled: users.enabled, status: users.status, revokedWith: authSessions.revokedWith })
    .from(authSessions)
    .innerJoin(users, eq(users.sub, authSessions.userSub))
    .where(and(eq(authSessions.originJti, originJti), eq(authSessions.userSub, userSub)))
    .limit(1);
  return row;
}

/**
 * Revokes one sign-in. Like every write the check above depends on, it tells the instances' session caches in the
 * same transaction (identity/session-changes.ts), so no instance answers from memory for it once it commits.
 */
export async function revokeAuthSession(db: Db, originJti: string, at: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(authSessions)
      .set({ revokedAt: at, revokedWith: "this-sign-in" })
      .where(and(eq(authSessions.originJti, originJti), isNull(authSessions.revokedAt)))
      .returning({ originJti: authSessions.originJti });
    if (rows.length > 0) await notifySessionChange(tx, { originJti });
    return rows.length > 0;
  });
}

/**
 * Revokes every live sign-in of a user, except `keepOriginJti` (the caller's own, after ChangePassword), and tells
 * the session caches in the same transaction.
 */
export async function revokeUserSessions(db: Db, userSub: string, at: Date, keepOriginJti?: string): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(authSessions)
      .set({ revokedAt: at, revokedWith: "every-sign-in" })
      .where(
        and(
          eq(authSessions.userSub, userSub),
          isNull(authSessions.revokedAt),
          keepOriginJti ? ne(authSessions.originJti, keepOriginJti) : undefined,
        ),
      )
      .returning({ originJti: authSessions.originJti });
    if (rows.length > 0) await notifySessionChange(tx, { sub: userSub });
    return rows.length;
  });
}

export async function insertAuthChallenge(db: Db, row: typeof authChallenges.$inferInsert): Promise<void> {
  await db.insert(authChallenges).values(row);
}

export async function findAuthChallenge(db: Db, sessionHash: string): Promise<AuthChallengeRow | undefined> {
  const [row] = await db.select().from(authChallenges).where(eq(authChallenges.sessionHash, sessionHash)).limit(1);
  return row;
}

/** Marks a challenge used; false when someone else used it first (a replayed session). */
export async function consumeAuthChallenge(db: Db, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(authChallenges)
    .set({ consumedAt: at })
    .where(and(eq(authChallenges.id, id), isNull(authChallenges.consumedAt)))
    .returning({ id: authChallenges.id });
  return rows.length > 0;
}

/** Ends every pending sign-in step of a user (their password changed under it). */
export async function consumeUserChallenges(db: Db, userSub: string, at: Date): Promise<void> {
  await db
    .update(authChallenges)
    .set({ consumedAt: at })
    .where(and(eq(authChallenges.userSub, userSub), isNull(authChallenges.consumedAt)));
}

export async function deleteExpiredAuthChallenges(db: Db, before: Date): Promise<void> {
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, before));
}
