import { and, arrayContains, asc, desc, eq, ilike, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { users } from "../db/schema.js";
import { notifySessionChange } from "./session-changes.js";

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
    .values({ usernameKey: normaliseUsername(row.username), ...row })
    .returning();
  return inserted as UserRow;
}

type UserChanges = Partial<Omit<typeof users.$inferInsert, "sub" | "username" | "usernameKey">>;

/**
 * Changes a user (never their name). A change of `enabled` or `groups` alters what every API call of theirs is
 * answered with, so it tells the instances' session caches in the same transaction (identity/session-changes.ts).
 */
export async function updateUser(db: Db, sub: string, changes: UserChanges): Promise<UserRow | undefined> {
  const write = async (tx: Db) => {
    const [row] = await tx
      .update(users)
      // biome-ignore lint/plugin/leading-spread-then-keys: updatedAt may be among the changes: this one wins
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(users.sub, sub))
      .returning();
    return row;
  };
  if (changes.enabled === undefined && changes.groups === undefined) return write(db);
  return db.transaction(async (tx) => {
    const row = await write(tx);
    if (row) await notifySessionChange(tx, { sub });
    return row;
  });
}

export type UserFilter = {
  /** Part of the username, name or email, case-insensitive. */
  search?: string | undefined;
  group?: string | undefined;
  enabled?: boolean | undefined;
};
const sortColumns = {
  username: users.usernameKey,
  name: users.name,
  email: users.email,
  status: users.status,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
} as const;
export type UserSortField = keyof typeof sortColumns;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function userConditions(filter: UserFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.search) {
    const pattern = `%${escapeLike(filter.search)}%`;
    const matches = or(ilike(users.username, pattern), ilike(users.name, pattern), ilike(users.email, pattern));
    if (matches) conditions.push(matches);
  }
  if (filter.group) conditions.push(arrayContains(users.groups, [filter.group]));
  if (filter.enabled !== undefined) conditions.push(eq(users.enabled, filter.enabled));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** One page of users matching the filter, and how many match in all. Ties are broken by username. */
export async function listUsers(
  db: Db,
  page: { limit: number; offset: number },
  filter: UserFilter = {},
  sort: { field: UserSortField; order: "asc" | "desc" } = { field: "username", order: "asc" },
): Promise<{ rows: UserRow[]; total: number }> {
  const where = userConditions(filter);
  const direction = sort.order === "desc" ? desc : asc;
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(direction(sortColumns[sort.field]), asc(users.usernameKey))
    .limit(page.limit)
    .offset(page.offset);
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(users).where(where);
  return { rows, total: count?.total ?? 0 };
}

/** Reads a user and locks the row until the transaction ends, so a check and the write after it see one state. */
export async function lockUserByUsername(tx: Db, username: string): Promise<UserRow | undefined> {
  const [row] = await tx
    .select()
    .from(users)
    .where(eq(users.usernameKey, normaliseUsername(username)))
    .limit(1)
    .for("update");
  return row;
}

/**
 * Locks every enabled admin and returns their subs. Two administrators demoting each other at the same moment
 * then queue on the same rows, and the second sees the first one's change: one admin always remains.
 */
export async function lockEnabledAdmins(tx: Db): Promise<string[]> {
  const rows = await tx
    .select({ sub: users.sub })
    .from(users)
    .where(and(eq(users.enabled, true), arrayContains(users.groups, ["admin"])))
    // One order for every transaction, so two of them never hold each other's next row.
    .orderBy(asc(users.sub))
    .for("update");
  return rows.map((row) => row.sub);
}

/** Whether a user (other than `exceptSub`, when given) has this email address, compared case-insensitively. */
export async function isEmailTaken(db: Db, email: string, exceptSub?: string): Promise<boolean> {
  const sameEmail = sql`lower(${users.email}) = ${email.trim().toLowerCase()}`;
  const [row] = await db
    .select({ sub: users.sub })
    .from(users)
    .where(exceptSub ? and(sameEmail, ne(users.sub, exceptSub)) : sameEmail)
    .limit(1);
  return row !== undefined;
}

/**
 * Records the TOTP time step a code was accepted for, only if it is later than the last one: a code works once,
 * even when two requests race with it. False when the step was already used.
 */
export async function acceptTotpStep(db: Db, sub: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ lastTotpStep: step })
    .where(and(eq(users.sub, sub), sql`(${users.lastTotpStep} is null or ${users.lastTotpStep} < ${step})`))
    .returning({ sub: users.sub });
  return rows.length > 0;
}

/** Every user's name and email, the population ForgotPassword's decoy answers are drawn from. */
export function listUserAddresses(db: Db): Promise<{ sub: string; username: string; email: string }[]> {
  return db.select({ sub: users.sub, username: users.username, email: users.email }).from(users);
}
