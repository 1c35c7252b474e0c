import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { verificationCodes } from "../db/schema.js";

export type VerificationCodeRow = typeof verificationCodes.$inferSelect;

export async function discardVerificationCodes(db: Db, userSub: string, purpose: string): Promise<void> {
  await db
    .delete(verificationCodes)
    .where(and(eq(verificationCodes.userSub, userSub), eq(verificationCodes.purpose, purpose)));
}

/** Issuing a code replaces every earlier code of the same purpose: only the newest one works. */
export async function replaceVerificationCode(
  db: Db,
  row: Omit<typeof verificationCodes.$inferInsert, "id" | "attempts" | "consumedAt">,
): Promise<VerificationCodeRow> {
  await discardVerificationCodes(db, row.userSub, row.purpose);
  const [inserted] = await db.insert(verificationCodes).values(row).returning();
  return inserted as VerificationCodeRow;
}

export async function findLatestVerificationCode(
  db: Db,
  userSub: string,
  purpose: string,
): Promise<VerificationCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.userSub, userSub), eq(verificationCodes.purpose, purpose)))
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  return row;
}

export async function findVerificationCodeById(db: Db, id: string): Promise<VerificationCodeRow | undefined> {
  const [row] = await db.select().from(verificationCodes).where(eq(verificationCodes.id, id)).limit(1);
  return row;
}

export async function countFailedVerificationAttempt(db: Db, id: string): Promise<void> {
  await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(eq(verificationCodes.id, id));
}

/** Marks a code used; false when a concurrent request used it first. */
export async function consumeVerificationCode(db: Db, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(verificationCodes)
    .set({ consumedAt: at })
    .where(and(eq(verificationCodes.id, id), sql`${verificationCodes.consumedAt} is null`))
    .returning({ id: verificationCodes.id });
  return rows.length > 0;
}

export async function deleteExpiredVerificationCodes(db: Db, before: Date): Promise<void> {
  await db.delete(verificationCodes).where(lt(verificationCodes.expiresAt, before));
}
