import { sql } from "drizzle-orm";
import { BackupError, type TableRows } from "./backup-format.js";
import { type Db, queryRows } from "./client.js";
import type { MigrationComparison } from "./migration-status.js";

/**
 * What a backup holds (its tables and rows), and what its migrations allow (migration-status.ts compares them): a
 * backup older than the release is migrated forward after restoring, one from a newer release is refused.
 */

/** Every table of the application (schema public) and drizzle's migrations table, with its row count. */
export async function countTables(db: Db): Promise<TableRows[]> {
  const tables = await queryRows<{ schema: string; name: string }>(
    db,
    sql`select table_schema as "schema", table_name as "name" from information_schema.tables
        where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE'
        order by table_schema = 'drizzle', table_name`,
  );
  const counted: TableRows[] = [];
  for (const { schema, name } of tables) {
    const [row] = await queryRows<{ rows: number }>(
      db,
      sql`select count(*)::int as "rows" from ${sql.identifier(schema)}.${sql.identifier(name)}`,
    );
    counted.push({ table: `${schema}.${name}`, rows: row?.rows ?? 0 });
  }
  return counted;
}

export function newerReleaseError(comparison: MigrationComparison): BackupError {
  return new BackupError(
    `The backup was made by a newer Vigil release: it has ${comparison.unknown} migration(s) this release does not ` +
      "ship. Restore it with that release (or a later one).",
  );
}

/** After migrating forward, the applied migrations must be exactly the shipped ones, or the server would refuse. */
export function checkMigrationsCurrent(comparison: MigrationComparison): void {
  if (comparison.unknown > 0) throw newerReleaseError(comparison);
  if (comparison.pending.length > 0) {
    throw new BackupError(
      `Restored, but ${comparison.pending.length} migration(s) stay pending (first: ${comparison.pending[0]?.tag}).`,
    );
  }
  if (comparison.changed.length > 0) {
    throw new BackupError(
      `Restored, but migration ${comparison.changed[0]?.tag} differs from the one the backup had applied.`,
    );
  }
}

export const notVigilBackup = (file: string) =>
  new BackupError(`${file} holds no Vigil migrations table (drizzle.__drizzle_migrations): it is not a Vigil backup.`);
