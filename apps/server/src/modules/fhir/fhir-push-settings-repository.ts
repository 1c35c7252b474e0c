import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { fhirPushSettings } from "../../db/schema.js";

export type FhirPushSettingsRow = typeof fhirPushSettings.$inferSelect;
type Values = typeof fhirPushSettings.$inferInsert;

export async function findFhirPushSettings(
  db: Db,
  clientId: string,
  options: { forUpdate?: boolean } = {},
): Promise<FhirPushSettingsRow | undefined> {
  const query = db.select().from(fhirPushSettings).where(eq(fhirPushSettings.clientId, clientId)).limit(1);
  const [row] = options.forUpdate ? await query.for("update") : await query;
  return row;
}

/** The first settings of a client; undefined when another request saved them first (the primary key). */
export async function insertFhirPushSettings(db: Db, values: Values): Promise<FhirPushSettingsRow | undefined> {
  const [row] = await db.insert(fhirPushSettings).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateFhirPushSettingsRow(
  db: Db,
  clientId: string,
  values: Partial<Values>,
): Promise<FhirPushSettingsRow | undefined> {
  const [row] = await db
    .update(fhirPushSettings)
    // biome-ignore lint/plugin/leading-spread-then-keys: updatedAt may be among the values: this one wins
    .set({ ...values, updatedAt: new Date() })
    .where(eq(fhirPushSettings.clientId, clientId))
    .returning();
  return row;
}
