import { desc, gt, isNull, or } from "drizzle-orm";
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
