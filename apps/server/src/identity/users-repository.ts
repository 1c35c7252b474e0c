import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { users } from "../db/schema.js";

export type UserRow = typeof users.$inferSelect;

/** Usernames are case-insensitive, as in a Cognito pool created with case-insensitive usernames. */
export function normaliseUsername(username: string): string {
  return username.trim().normalize("NFKC").toLowerCase();
}

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.usernameKey, normaliseUsername(username)))
    .limit(1);
  return row;
}

export async function findUserBySub(db: Db, sub: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.sub, sub)).limit(1);
  return row;
}

export async function insertUser(db: Db, row: Omit<typeof users.$inferInsert, "usernameKey">): Promise<UserRow> {
  const [inserted] = await db
    .insert(users)
    .values({ ...row, usernameKey: normaliseUsername(row.username) })
    .returning();
  return inserted as UserRow;
}

export async function updateUser(
  db: Db,
  sub: string,
  changes: Partial<Omit<typeof users.$inferInsert, "sub" | "username" | "usernameKey">>,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(users.sub, sub))
    .returning();
  return row;
}

export async function listUsers(
  db: Db,
  page: { limit: number; offset: number },
): Promise<{ rows: UserRow[]; total: number }> {
  const rows = await db.select().from(users).orderBy(asc(users.usernameKey)).limit(page.limit).offset(page.offset);
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(users);
  return { rows, total: count?.total ?? 0 };
}

export async function countUsers(db: Db): Promise<number> {
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(users);
  return count?.total ?? 0;
}
