import type { BackupResult, BackupSource, RestoreResult } from "./backup-format.js";
import { backupPglite, restorePglite } from "./backup-pglite.js";
import { backupPostgres, restorePostgres } from "./backup-postgres.js";

/**
 * Backup and restore of the configured database (`npm run db:backup`, `npm run db:restore`): PostgreSQL through
 * pg_dump/pg_restore (custom format, backup-postgres.ts), the embedded PGlite as a gzipped tar of its data folder
 * (backup-pglite.ts). Both restores end where the server would start: migrations run forward when the backup is
 * older, and refused when it is newer (backup-migrations.ts).
 */

export function backupDatabase(source: BackupSource, file: string): Promise<BackupResult> {
  return source.engine === "postgres"
    ? backupPostgres(source.url, file, source.environment)
    : backupPglite(source.dataDir, file);
}

export function restoreDatabase(
  source: BackupSource,
  file: string,
  options: { force?: boolean; now?: Date } = {},
): Promise<RestoreResult> {
  const force = options.force ?? false;
  return source.engine === "postgres"
    ? restorePostgres(source.url, file, force, source.environment)
    : restorePglite(source.dataDir, file, force, options.now ?? new Date());
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function describeBackup(result: BackupResult): string {
  const engine = result.engine === "postgres" ? "PostgreSQL (pg_dump, custom format)" : "embedded PGlite (tar.gz)";
  return (
    `Backed up the ${engine} database to ${result.file} (${formatBytes(result.bytes)}): ` +
    `${result.tables.length} tables${result.rows === undefined ? "" : `, ${result.rows} rows`}.`
  );
}

export function describeRestore(result: RestoreResult): string {
  const where =
    result.engine === "postgres" ? `PostgreSQL database ${result.target}` : `embedded database ${result.target}`;
  const width = Math.max(...result.tables.map((table) => table.table.length), 5);
  const lines = [
    `Restored ${result.file} into the ${where}.`,
    result.migratedForward.length > 0
      ? `Migrations: the backup had ${result.migrationsInBackup} of ${result.shippedMigrations}; applied ` +
        `${result.migratedForward.join(", ")}. All ${result.shippedMigrations} are applied now.`
      : `Migrations: all ${result.shippedMigrations} applied, as this release ships them.`,
    ...(result.previousData
      ? [`The replaced data folder was kept as ${result.previousData}; delete it once the restore is checked.`]
      : []),
    "",
    `${"table".padEnd(width)}  rows`,
    ...result.tables.map((table) => `${table.table.padEnd(width)}  ${table.rows}`),
  ];
  return lines.join("\n");
}
