import { desc, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { signingKeys } from "../db/schema.js";

export type SigningKeyRow = typeof signingKeys.$inferSelect;

export async function findActiveSigningKey(db: Db): Promise<SigningKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(signingKeys)
    .where(isNull(signingKeys.retiredAt))
    .orderBy(desc(signingKeys.createdAt))
    .limit(1);
  return row;
}

/** Keys that may still have signed a live token: active ones and those retired after `since`. */
export async function listPublishedSigningKeys(db: Db, since: Date): Promise<SigningKeyRow[]> {
  return db
    .select()
    .from(signingKeys)
    .where(or(isNull(signingKeys.retiredAt), gt(signingKeys.retiredAt, since)))
    .orderBy(desc(signingKeys.createdAt));
}

export async function insertSigningKey(db: Db, row: typeof signingKeys.$inferInsert): Promise<void> {
  await db.insert(signingKeys).values(row);
}

export async function retireSigningKeys(db: Db, at: Date): Promise<void> {
  await db.update(signingKeys).set({ retiredAt: at }).where(isNull(signingKeys.retiredAt));
}

/** The advisory lock that key rotations take; a number of its own, beside the migrations' (db/client.ts). */
const signingKeyRotationLock = 7_362_001;

/** Serialises key rotation between instances until the transaction ends. */
export async function lockSigningKeys(db: Db): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${signingKeyRotationLock})`);
}
