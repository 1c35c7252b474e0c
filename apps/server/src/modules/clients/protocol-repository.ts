import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { preparedOnce } from "../../db/prepared-once.js";
import { protocolRevisions } from "../../db/schema.js";

export type ProtocolRevisionRow = typeof protocolRevisions.$inferSelect;

/** Every revision of the client's protocol, newest first. */
export async function findProtocolRevisions(db: Db, clientId: string): Promise<ProtocolRevisionRow[]> {
  return db
    .select()
    .from(protocolRevisions)
    .where(eq(protocolRevisions.clientId, clientId))
    .orderBy(desc(protocolRevisions.revision));
}

export async function findLatestProtocolRevision(db: Db, clientId: string): Promise<ProtocolRevisionRow | undefined> {
  const [row] = await db
    .select()
    .from(protocolRevisions)
    .where(eq(protocolRevisions.clientId, clientId))
    .orderBy(desc(protocolRevisions.revision))
    .limit(1);
  return row;
}

/** Fails with unique_violation on (client_id, revision) when another append took that number first. */
export async function insertProtocolRevision(
  db: Db,
  values: Omit<typeof protocolRevisions.$inferInsert, "id" | "createdAt">,
): Promise<ProtocolRevisionRow> {
  const [row] = await db.insert(protocolRevisions).values(values).returning();
  return row as ProtocolRevisionRow;
}

export async function findProtocolRevisionById(db: Db, id: string): Promise<ProtocolRevisionRow | undefined> {
  const statement = preparedOnce(db, "protocol-revision", () =>
    db
      .select()
      .from(protocolRevisions)
      .where(eq(protocolRevisions.id, sql.placeholder("id")))
      .limit(1)
      .prepare(""),
  );
  const [row] = await statement.execute({ id });
  return row;
}
