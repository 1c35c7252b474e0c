import { and, asc, desc, eq, isNull, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { clientContacts } from "../../db/schema.js";
import type { RowLock } from "./clients-repository.js";

export type ContactRow = typeof clientContacts.$inferSelect;
export type ContactValues = Pick<
  typeof clientContacts.$inferInsert,
  "name" | "role" | "email" | "phone" | "isPrimary" | "notifyOnCritical" | "notes"
>;

/** The client's contacts that are not removed: the primary first, then by name. */
export async function findContactsOfClient(db: Db, clientId: string): Promise<ContactRow[]> {
  return db
    .select()
    .from(clientContacts)
    .where(and(eq(clientContacts.clientId, clientId), isNull(clientContacts.removedAt)))
    .orderBy(desc(clientContacts.isPrimary), asc(sql`lower(${clientContacts.name})`), asc(clientContacts.createdAt));
}

/** A contact that is not removed; with `clientId`, only when it belongs to that client. */
export async function findContact(
  db: Db,
  id: string,
  options: { clientId?: string; lock?: RowLock } = {},
): Promise<ContactRow | undefined> {
  const conditions: SQL[] = [eq(clientContacts.id, id), isNull(clientContacts.removedAt)];
  if (options.clientId) conditions.push(eq(clientContacts.clientId, options.clientId));
  const query = db
    .select()
    .from(clientContacts)
    .where(and(...conditions))
    .limit(1);
  const [row] = options.lock ? await query.for(options.lock) : await query;
  return row;
}

export async function insertContact(db: Db, values: ContactValues & { clientId: string }): Promise<ContactRow> {
  const [row] = await db.insert(clientContacts).values(values).returning();
  return row as ContactRow;
}

/** Changes a contact and moves it to its next version. */
export async function updateContactRow(
  db: Db,
  id: string,
  values: Partial<ContactValues> & { removedAt?: Date },
): Promise<ContactRow | undefined> {
  const [row] = await db
    .update(clientContacts)
    .set({ version: sql`${clientContacts.version} + 1`, updatedAt: sql`now()`, ...values })
    .where(eq(clientContacts.id, id))
    .returning();
  return row;
}

/** Makes every other live contact of the client not primary (new versions); returns their ids. */
export async function clearPrimaryContacts(db: Db, clientId: string, exceptId?: string): Promise<string[]> {
  const conditions: SQL[] = [
    eq(clientContacts.clientId, clientId),
    eq(clientContacts.isPrimary, true),
    isNull(clientContacts.removedAt),
  ];
  if (exceptId) conditions.push(ne(clientContacts.id, exceptId));
  const rows = await db
    .update(clientContacts)
    .set({ isPrimary: false, version: sql`${clientContacts.version} + 1`, updatedAt: sql`now()` })
    .where(and(...conditions))
    .returning({ id: clientContacts.id });
  return rows.map((row) => row.id);
}
