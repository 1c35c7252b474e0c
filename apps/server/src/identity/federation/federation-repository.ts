import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { federatedIdentities, oauthGrants, users } from "../../db/schema.js";
import type { UserRow } from "../users-repository.js";

export type OAuthGrantRow = typeof oauthGrants.$inferSelect;
export type OAuthGrantKind = "upstream-state" | "code";

export async function insertOAuthGrant(
  db: Db,
  row: Omit<typeof oauthGrants.$inferInsert, "kind"> & { kind: OAuthGrantKind },
): Promise<OAuthGrantRow> {
  const [inserted] = await db.insert(oauthGrants).values(row).returning();
  return inserted as OAuthGrantRow;
}

export async function findOAuthGrant(
  db: Db,
  kind: OAuthGrantKind,
  secretHash: string,
): Promise<OAuthGrantRow | undefined> {
  const [row] = await db
    .select()
    .from(oauthGrants)
    .where(and(eq(oauthGrants.kind, kind), eq(oauthGrants.secretHash, secretHash)))
    .limit(1);
  return row;
}

/** Marks a grant used if it is still unused and unexpired; false when it was already used or has expired. */
export async function consumeOAuthGrant(db: Db, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(oauthGrants)
    .set({ consumedAt: at })
    .where(and(eq(oauthGrants.id, id), isNull(oauthGrants.consumedAt), gt(oauthGrants.expiresAt, at)))
    .returning({ id: oauthGrants.id });
  return rows.length > 0;
}

export async function updateOAuthGrantData(db: Db, id: string, data: Record<string, unknown>): Promise<void> {
  await db.update(oauthGrants).set({ data }).where(eq(oauthGrants.id, id));
}

/** The authorization code a sign-in (`origin_jti`) was minted from, if it came through the hosted UI. */
export async function findCodeGrantBySession(db: Db, originJti: string): Promise<OAuthGrantRow | undefined> {
  const [row] = await db
    .select()
    .from(oauthGrants)
    .where(and(eq(oauthGrants.kind, "code"), sql`${oauthGrants.data}->>'originJti' = ${originJti}`))
    .limit(1);
  return row;
}

/** Grants expired for a day are of no use, not even to recognise a replayed code. */
export async function deleteStaleOAuthGrants(db: Db, before: Date): Promise<void> {
  await db.delete(oauthGrants).where(lt(oauthGrants.expiresAt, before));
}

export async function findFederatedUser(
  db: Db,
  issuer: string,
  subject: string,
): Promise<{ user: UserRow; email: string | null } | undefined> {
  const [row] = await db
    .select({ user: users, email: federatedIdentities.email })
    .from(federatedIdentities)
    .innerJoin(users, eq(users.sub, federatedIdentities.userSub))
    .where(and(eq(federatedIdentities.issuer, issuer), eq(federatedIdentities.subject, subject)))
    .limit(1);
  return row;
}

export async function insertFederatedIdentity(db: Db, row: typeof federatedIdentities.$inferInsert): Promise<void> {
  await db.insert(federatedIdentities).values(row).onConflictDoNothing();
}

export async function updateFederatedIdentityEmail(
  db: Db,
  issuer: string,
  subject: string,
  email: string | null,
): Promise<void> {
  await db
    .update(federatedIdentities)
    .set({ email })
    .where(and(eq(federatedIdentities.issuer, issuer), eq(federatedIdentities.subject, subject)));
}

/** Users whose address is this one, compared case-insensitively (at most a few; more than one is ambiguous). */
export async function findUsersByEmail(db: Db, email: string): Promise<UserRow[]> {
  const normalised = email.trim().toLowerCase();
  return db.select().from(users).where(sql`lower(${users.email}) = ${normalised}`).limit(5);
}
