import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { smartAccessTokens, smartAssertionJtis, smartClients } from "../../db/schema.js";

export type SmartClientRow = typeof smartClients.$inferSelect;
type Jwks = { keys: Record<string, unknown>[] };

export async function findSmartClientsOfClient(db: Db, clientId: string): Promise<SmartClientRow[]> {
  return db.select().from(smartClients).where(eq(smartClients.clientId, clientId)).orderBy(smartClients.createdAt);
}

export async function findSmartClient(
  db: Db,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SmartClientRow | undefined> {
  const query = db.select().from(smartClients).where(eq(smartClients.id, id));
  const [row] = options.forUpdate ? await query.for("update") : await query;
  return row;
}

export async function findSmartClientBySystemId(db: Db, systemClientId: string): Promise<SmartClientRow | undefined> {
  const [row] = await db.select().from(smartClients).where(eq(smartClients.systemClientId, systemClientId));
  return row;
}

/** Fails with unique_violation on `smart_clients_system_client_id_key` when the id is taken. */
export async function insertSmartClient(
  db: Db,
  values: Omit<typeof smartClients.$inferInsert, "id" | "createdAt" | "updatedAt" | "version">,
): Promise<SmartClientRow> {
  const [row] = await db.insert(smartClients).values(values).returning();
  return row as SmartClientRow;
}

export async function updateSmartClientRow(
  db: Db,
  id: string,
  values: Partial<Omit<typeof smartClients.$inferInsert, "id" | "createdAt">>,
): Promise<SmartClientRow> {
  const [row] = await db
    .update(smartClients)
    // biome-ignore lint/plugin/leading-spread-then-keys: updatedAt may be among the values: this one wins
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(smartClients.id, id))
    .returning();
  return row as SmartClientRow;
}

/** Keeps a JWKS fetched from the system's URL, for every instance. */
export async function storeFetchedJwks(db: Db, id: string, jwks: Jwks, at: Date): Promise<void> {
  await db.update(smartClients).set({ fetchedJwks: jwks, fetchedAt: at }).where(eq(smartClients.id, id));
}

/**
 * Records an assertion's jti until its expiry: true when this call was the first use. The primary key decides, so
 * of two instances inserting one jti at once exactly one gets true. Entries past their expiry are cleared first
 * (an assertion that has expired is refused by its `exp` anyway).
 */
export async function claimAssertionJti(
  db: Db,
  systemClientId: string,
  jti: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  await db.delete(smartAssertionJtis).where(lt(smartAssertionJtis.expiresAt, new Date(now.getTime() - 60_000)));
  const inserted = await db
    .insert(smartAssertionJtis)
    .values({ systemClientId, jti, expiresAt })
    .onConflictDoNothing()
    .returning({ jti: smartAssertionJtis.jti });
  return inserted.length === 1;
}

export async function insertAccessToken(
  db: Db,
  values: { tokenHash: string; smartClientId: string; scopes: string[]; expiresAt: Date },
): Promise<void> {
  await db.insert(smartAccessTokens).values(values);
}

/** The live token with this hash and its system, when the token is unexpired, unrevoked and the system enabled. */
export async function findLiveAccessToken(db: Db, tokenHash: string, now: Date) {
  const [row] = await db
    .select({
      scopes: smartAccessTokens.scopes,
      smartClientId: smartClients.id,
      clientId: smartClients.clientId,
      systemClientId: smartClients.systemClientId,
    })
    .from(smartAccessTokens)
    .innerJoin(smartClients, eq(smartClients.id, smartAccessTokens.smartClientId))
    .where(
      and(
        eq(smartAccessTokens.tokenHash, tokenHash),
        gt(smartAccessTokens.expiresAt, now),
        isNull(smartAccessTokens.revokedAt),
        eq(smartClients.enabled, true),
      ),
    );
  return row;
}

/** Ends every live token of a system (its keys, scopes or state changed); returns how many. */
export async function revokeAccessTokens(db: Db, smartClientId: string, now: Date): Promise<number> {
  const rows = await db
    .update(smartAccessTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(smartAccessTokens.smartClientId, smartClientId),
        isNull(smartAccessTokens.revokedAt),
        gt(smartAccessTokens.expiresAt, now),
      ),
    )
    .returning({ hash: smartAccessTokens.tokenHash });
  return rows.length;
}
