import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { type Db, migrationsFolder, queryRows } from "./client.js";

/**
 * The migrations this release ships against those a database has applied, read from drizzle's own bookkeeping
 * (one row per applied file, keyed by the journal time it was made at). A restore migrates an older backup forward
 * and refuses a newer one (backup-migrations.ts); the `migrations-current` self-check reports the same comparison.
 */

export type ShippedMigration = { tag: string; when: number; hash: string };

export function shippedMigrations(): ShippedMigration[] {
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

export type MigrationComparison = {
  shipped: ShippedMigration[];
  applied: number;
  pending: ShippedMigration[];
  unknown: number;
  changed: ShippedMigration[];
};

/** The applied migrations against those this release ships: pending, unknown (a newer release's) and changed ones. */
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

/** The applied migrations, oldest first; undefined when the database was never migrated (no table). */
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
