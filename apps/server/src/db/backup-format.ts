import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "../config.js";
import { FolderLockedError } from "./folder-lock.js";

/**
 * What both engines' backups share: the source, the results, the expected failure, and the backup file itself
 * (its default name, its kind read from its first bytes, written aside and renamed when complete).
 */

/** An expected failure: the commands print its one-line message, without a stack. */
export class BackupError extends Error {}

export function isExpectedFailure(error: unknown): error is Error {
  return error instanceof BackupError || error instanceof FolderLockedError || error instanceof ConfigError;
}

/** Where pg_dump/pg_restore run from: the environment they inherit (PATH, HOME, libpq's PG* defaults) comes with it. */
export type ChildEnvironment = Readonly<Record<string, string | undefined>>;

export type BackupSource =
  | { engine: "postgres"; url: string; environment: ChildEnvironment }
  | { engine: "pglite"; dataDir: string };

/** The same choice the server makes (`openConfiguredDatabase`): PostgreSQL with DATABASE_URL, else PGlite. */
export function backupSourceOf(config: {
  databaseUrl: string | undefined;
  dataDir: string;
  childEnvironment: ChildEnvironment;
}): BackupSource {
  return config.databaseUrl
    ? { engine: "postgres", url: config.databaseUrl, environment: config.childEnvironment }
    : { engine: "pglite", dataDir: config.dataDir };
}

export type TableRows = { table: string; rows: number };

export type BackupResult = {
  engine: BackupSource["engine"];
  file: string;
  bytes: number;
  /** The tables the backup holds, with their rows where they were counted (PGlite: exactly what was copied). */
  tables: string[];
  rows?: number;
};

export type RestoreResult = {
  engine: BackupSource["engine"];
  file: string;
  /** The database name (PostgreSQL) or data folder (PGlite) restored into. */
  target: string;
  /** Migrations the backup had applied, and those run forward after restoring it. */
  migrationsInBackup: number;
  migratedForward: string[];
  shippedMigrations: number;
  /** PGlite with --force: where the replaced data folder was kept. */
  previousData?: string;
  tables: TableRows[];
};

/** `20260519T143005Z`: sortable, and without the colons some file systems refuse. */
export function backupTimestamp(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/** `vigil-<engine>-<UTC timestamp>.<dump|tar.gz>`, in DATA_DIR/backups (PGlite) or the working folder (PostgreSQL). */
export function defaultBackupFile(
  source: BackupSource,
  folders: { dataDir: string; workingDir: string },
  now = new Date(),
): string {
  const stamp = backupTimestamp(now);
  return source.engine === "pglite"
    ? path.join(folders.dataDir, "backups", `vigil-pglite-${stamp}.tar.gz`)
    : path.join(folders.workingDir, `vigil-postgres-${stamp}.dump`);
}

type BackupKind = "postgres-dump" | "gzip" | "tar" | "unknown";

function backupKindOf(file: string): BackupKind {
  const head = Buffer.alloc(262);
  const fd = openSync(file, "r");
  let length: number;
  try {
    length = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (length >= 5 && head.subarray(0, 5).toString("latin1") === "PGDMP") return "postgres-dump";
  if (length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  if (length >= 262 && head.subarray(257, 262).toString("latin1") === "ustar") return "tar";
  return "unknown";
}

export function checkBackupFile(file: string, engine: BackupSource["engine"]): BackupKind {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(file);
  } catch {
    throw new BackupError(`The backup file ${file} does not exist.`);
  }
  if (!stats.isFile()) throw new BackupError(`${file} is not a file.`);
  const kind = backupKindOf(file);
  if (engine === "postgres" && kind !== "postgres-dump") {
    throw new BackupError(
      kind === "unknown"
        ? `${file} is not a pg_dump custom-format backup.`
        : `${file} is a backup of the embedded database (PGlite), but DATABASE_URL names a PostgreSQL database. ` +
            "Unset DATABASE_URL to restore it into DATA_DIR.",
    );
  }
  if (engine === "pglite" && (kind === "postgres-dump" || kind === "unknown")) {
    throw new BackupError(
      kind === "postgres-dump"
        ? `${file} is a PostgreSQL backup (pg_dump), but DATABASE_URL is not set, so the target is the embedded ` +
            "database. Set DATABASE_URL to the PostgreSQL database to restore it into."
        : `${file} is not a Vigil backup of the embedded database (a .tar.gz made by db:backup).`,
    );
  }
  return kind;
}

/** Refuses to overwrite, writes aside and renames, so a failed backup never leaves a file that looks complete. */
export function prepareBackupFile(file: string): string {
  if (existsSync(file)) throw new BackupError(`${file} already exists; choose another file with --out.`);
  // Backups hold patient data: only the owner reads them.
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  return partial;
}

export function finishBackupFile(partial: string, file: string): number {
  chmodSync(partial, 0o600);
  renameSync(partial, file);
  return statSync(file).size;
}
