import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";

/**
 * The state of every table, to prove that a refused write wrote nothing: a row count and a digest of the rows'
 * contents (so an UPDATE that slipped through before the refusal shows too, not only an INSERT).
 */
export type TableSnapshot = Record<string, { rows: number; digest: string }>;

/**
 * Refusals are audited on purpose (patient data, administration), so the audit log is expected to grow; and the
 * public calls (a critical finding's acknowledgement link) count every call against the caller's address, refused
 * ones above all, in the shared `rate_limits` counters.
 */
export const tablesWrittenOnRefusal = ["audit_events", "rate_limits"];

export async function tablesToWatch(db: Db): Promise<string[]> {
  const result = await db.execute(
    sql`select table_name::text as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const rows = (result as unknown as { rows: { name: string }[] }).rows;
  return rows.map((row) => row.name).filter((name) => !tablesWrittenOnRefusal.includes(name));
}

export async function snapshotTables(db: Db, tables: readonly string[]): Promise<TableSnapshot> {
  // Table names come from the catalogue, not from input; quoted all the same.
  const parts = tables.map(
    (table) =>
      `select '${table}' as name, count(*)::int as rows, ` +
      `md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as digest from "${table}" t`,
  );
  const result = await db.execute(sql.raw(parts.join(" union all ")));
  const rows = (result as unknown as { rows: { name: string; rows: number; digest: string }[] }).rows;
  return Object.fromEntries(rows.map((row) => [row.name, { rows: Number(row.rows), digest: row.digest }]));
}

/** The tables whose rows or contents differ, with their row counts before and after. */
export function changedTables(before: TableSnapshot, after: TableSnapshot): string[] {
  return Object.keys(after)
    .filter((table) => before[table]?.digest !== after[table]?.digest)
    .map((table) => `${table} (${before[table]?.rows ?? 0} → ${after[table]?.rows ?? 0} rows)`);
}
