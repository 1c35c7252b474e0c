import { and, asc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { billingStatementLines, billingStatements } from "../../db/schema.js";

/**
 * Issued statements and their lines. Both tables are append-only: this module inserts and reads them, and has no
 * update or delete, because an issued statement is what a hospital was sent.
 */

export type StatementRow = typeof billingStatements.$inferSelect;
export type StatementValues = typeof billingStatements.$inferInsert;
export type StatementLineRow = typeof billingStatementLines.$inferSelect;
export type StatementLineValues = Omit<typeof billingStatementLines.$inferInsert, "statementId" | "position">;

export type StatementWithLines = { statement: StatementRow; lines: StatementLineRow[] };

/** The statement issued for a client month with its lines in printed order, or undefined when none was. */
export async function findStatementOfMonth(
  db: Db,
  clientId: string,
  month: string,
): Promise<StatementWithLines | undefined> {
  const [statement] = await db
    .select()
    .from(billingStatements)
    .where(and(eq(billingStatements.clientId, clientId), eq(billingStatements.month, month)))
    .limit(1);
  if (!statement) return undefined;
  const lines = await db
    .select()
    .from(billingStatementLines)
    .where(eq(billingStatementLines.statementId, statement.id))
    .orderBy(asc(billingStatementLines.position));
  return { statement, lines };
}

/** (client, month, number) of the statements issued for these clients in [from, to] (months, inclusive). */
export async function findStatementNumbers(
  db: Db,
  clientIds: readonly string[],
  range: { from?: string; to?: string } = {},
): Promise<{ clientId: string; month: string; number: number }[]> {
  if (clientIds.length === 0) return [];
  return db
    .select({ clientId: billingStatements.clientId, month: billingStatements.month, number: billingStatements.number })
    .from(billingStatements)
    .where(
      and(
        inArray(billingStatements.clientId, [...clientIds]),
        range.from ? gte(billingStatements.month, range.from) : undefined,
        range.to ? lte(billingStatements.month, range.to) : undefined,
      ),
    );
}

/** The client's highest statement number (0 before the first); the caller holds the client row's lock. */
export async function findLastStatementNumber(db: Db, clientId: string): Promise<number> {
  const [row] = await db
    .select({ last: sql<number | string | null>`max(${billingStatements.number})` })
    .from(billingStatements)
    .where(eq(billingStatements.clientId, clientId));
  return Number(row?.last ?? 0);
}

/** Stores a statement and its lines (in the order given) as issued. */
export async function insertStatement(
  db: Db,
  values: StatementValues,
  lines: readonly StatementLineValues[],
): Promise<StatementWithLines> {
  const [statement] = await db.insert(billingStatements).values(values).returning();
  const saved = statement as StatementRow;
  const savedLines =
    lines.length === 0
      ? []
      : await db
          .insert(billingStatementLines)
          .values(lines.map((line, index) => ({ statementId: saved.id, position: index + 1, ...line })))
          .returning();
  return { statement: saved, lines: savedLines.sort((left, right) => left.position - right.position) };
}
