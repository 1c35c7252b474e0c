import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { BackupError, type TableRows } from "./backup-format.js";
import { type Db, queryRows } from "./client.js";

/**
 * What a database holds, and its migrations against those this release ships: a backup older than the release is
 * migrated forward after restoring, one from a newer release is refused.
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

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

type ShippedMigration = { tag: string; when: number; hash: string };

function shippedMigrations(): ShippedMigration[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  return readMigrationFiles({ migrationsFolder }).map((file, index) => ({
    tag: journal.entries[index]?.tag ?? `#${index}`,
    when: file.folderMillis,
    hash: file.hash,
  }));
}

export type AppliedMigration = { hash: string; createdAt: number };

type MigrationComparison = {
  shipped: ShippedMigration[];
  applied: number;
  pending: ShippedMigration[];
  unknown: number;
  changed: ShippedMigration[];
};

/** The applied migrations against those this release ships, as the `migrations-current` self-check compares them. */
export function compareMigrations(applied: AppliedMigration[]): MigrationComparison {
  const shipped = shippedMigrations();
  const byTime = new Map(applied.map((row) => [row.createdAt, row.hash]));
  const shippedTimes = new Set(shipped.map((file) => file.when));
  return {
    shipped,
    applied: applied.length,
    pending: shipped.filter((file) => !byTime.has(file.when)),
    unknown: applied.filter((row) => !shippedTimes.has(row.createdAt)).length,
    changed: shipped.filter((file) => byTime.has(file.when) && byTime.get(file.when) !== file.hash),
  };
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

export async function appliedMigrations(db: Db): Promise<AppliedMigration[] | undefined> {
  const [table] = await queryRows<{ present: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as "present"`,
  );
  if (!table?.present) return undefined;
  const rows = await queryRows<{ hash: string; created_at: string | number }>(
    db,
    sql`select hash, created_at from drizzle.__drizzle_migrations order by created_at`,
  );
  return rows.map((row) => ({ hash: row.hash, createdAt: Number(row.created_at) }));
}

export const notVigilBackup = (file: string) =>
  new BackupError(`${file} holds no Vigil migrations table (drizzle.__drizzle_migrations): it is not a Vigil backup.`);
