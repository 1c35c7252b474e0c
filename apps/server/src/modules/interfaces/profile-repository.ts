import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { hl7Messages, interfaceProfileRevisions } from "../../db/schema.js";

export type InterfaceProfileRevisionRow = typeof interfaceProfileRevisions.$inferSelect;

/** Every revision of the client's interface profile, newest first. */
export async function findInterfaceProfileRevisions(db: Db, clientId: string): Promise<InterfaceProfileRevisionRow[]> {
  return db
    .select()
    .from(interfaceProfileRevisions)
    .where(eq(interfaceProfileRevisions.clientId, clientId))
    .orderBy(desc(interfaceProfileRevisions.revision));
}

export async function findLatestInterfaceProfileRevision(
  db: Db,
  clientId: string,
): Promise<InterfaceProfileRevisionRow | undefined> {
  const [row] = await db
    .select()
    .from(interfaceProfileRevisions)
    .where(eq(interfaceProfileRevisions.clientId, clientId))
    .orderBy(desc(interfaceProfileRevisions.revision))
    .limit(1);
  return row;
}

/** A revision that is the latest of its client (later revisions replace the identities earlier ones named). */
const isLatestOfItsClient = sql`${interfaceProfileRevisions.revision} = (select max(r.revision) from interface_profile_revisions r where r.client_id = ${interfaceProfileRevisions.clientId})`;

/**
 * The latest revisions that name this sending identity (MSH-3, MSH-4), compared without case, of any client but
 * `exceptClientId`. `interface_profile_revisions_identity_idx` serves the comparison.
 */
export async function findLatestRevisionsForIdentity(
  db: Db,
  identity: { sendingApplication: string; sendingFacility: string },
  exceptClientId?: string,
): Promise<InterfaceProfileRevisionRow[]> {
  return db
    .select()
    .from(interfaceProfileRevisions)
    .where(
      and(
        sql`lower(${interfaceProfileRevisions.sendingApplication}) = lower(${identity.sendingApplication})`,
        sql`lower(${interfaceProfileRevisions.sendingFacility}) = lower(${identity.sendingFacility})`,
        isLatestOfItsClient,
        exceptClientId ? ne(interfaceProfileRevisions.clientId, exceptClientId) : undefined,
      ),
    );
}

/**
 * Every profile append takes this transaction-scoped lock first: the check that no other client's latest revision
 * owns the identity and the insert then happen with no other append in between (appends are rare; one lock for all
 * keeps two clients from claiming one identity at the same moment).
 */
export async function lockInterfaceProfileAppends(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('vigil:interface-profile-append'))`);
}

/** Fails with unique_violation on (client_id, revision) when another append took that number first. */
export async function insertInterfaceProfileRevision(
  db: Db,
  values: Omit<typeof interfaceProfileRevisions.$inferInsert, "id" | "createdAt">,
): Promise<InterfaceProfileRevisionRow> {
  const [row] = await db.insert(interfaceProfileRevisions).values(values).returning();
  return row as InterfaceProfileRevisionRow;
}

/** The outbound row of a test message, logged with what came back. */
export async function insertTestMessageRow(
  db: Db,
  values: Omit<typeof hl7Messages.$inferInsert, "id" | "createdAt" | "direction">,
): Promise<string> {
  const [row] = await db
    .insert(hl7Messages)
    .values({ direction: "outbound", ...values })
    .returning({ id: hl7Messages.id });
  return (row as { id: string }).id;
}
