import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import {
  BackupError,
  type BackupResult,
  backupTimestamp,
  checkBackupFile,
  finishBackupFile,
  prepareBackupFile,
  type RestoreResult,
} from "./backup-format.js";
import { checkMigrationsCurrent, countTables, newerReleaseError, notVigilBackup } from "./backup-migrations.js";
import { recomputeBillableFiguresIfMissing } from "./billable-figures.js";
import { type Db, migrationsFolder, pgliteExtensions } from "./client.js";
import { fillMissingConcurrentPeaks } from "./concurrent-peaks.js";
import { acquireFolderLock } from "./folder-lock.js";
import { appliedMigrations, compareMigrations } from "./migration-status.js";

/** Backup and restore of the embedded PGlite: a gzipped tar of its data folder, taken under the server's lock. */

function pgliteFolder(dataDir: string): string {
  return path.join(dataDir, "pglite");
}

function holdsDatabase(folder: string): boolean {
  return existsSync(path.join(folder, "PG_VERSION"));
}

function isEmptyFolder(folder: string): boolean {
  return !existsSync(folder) || readdirSync(folder).length === 0;
}

export async function backupPglite(dataDir: string, file: string): Promise<BackupResult> {
  const folder = pgliteFolder(dataDir);
  if (!holdsDatabase(folder)) {
    throw new BackupError(`There is no embedded database in ${folder} (DATA_DIR=${dataDir}): nothing to back up.`);
  }
  // The same lock the server takes: a running server is refused with its own message.
  const lock = acquireFolderLock(dataDir);
  try {
    const partial = prepareBackupFile(file);
    const client = await PGlite.create({ dataDir: folder, extensions: pgliteExtensions });
    try {
      // Flush everything to the data files, so the copy needs no crash recovery when it is opened.
      await client.query("checkpoint");
      const counted = await countTables(drizzlePglite(client) as unknown as Db);
      const dump = await client.dumpDataDir("gzip");
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
      return {
        engine: "pglite",
        file,
        bytes: finishBackupFile(partial, file),
        tables: counted.map((table) => table.table),
        rows: counted.reduce((sum, table) => sum + table.rows, 0),
      };
    } finally {
      await client.close();
      rmSync(partial, { force: true });
    }
  } finally {
    lock.release();
  }
}

export async function restorePglite(dataDir: string, file: string, force: boolean, now: Date): Promise<RestoreResult> {
  const kind = checkBackupFile(file, "pglite");
  mkdirSync(dataDir, { recursive: true });
  const lock = acquireFolderLock(dataDir);
  const folder = pgliteFolder(dataDir);
  const staging = path.join(dataDir, `pglite.restoring-${process.pid}`);
  try {
    if (!isEmptyFolder(folder) && !force) {
      throw new BackupError(
        `${folder} already holds a database. Restoring replaces it (the current folder is kept aside): run again ` +
          "with --force.",
      );
    }
    // Load into a folder beside the live one and swap only once it opened, migrated and closed cleanly: a bad
    // or too new backup leaves the current data as it was.
    rmSync(staging, { recursive: true, force: true });
    const blob = new Blob([readFileSync(file)], { type: kind === "gzip" ? "application/x-gzip" : "application/x-tar" });
    let result: Omit<RestoreResult, "previousData">;
    try {
      result = await loadPgliteBackup(staging, blob, file, folder);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw error;
    }
    let previousData: string | undefined;
    if (existsSync(folder)) {
      if (isEmptyFolder(folder)) rmSync(folder, { recursive: true });
      else {
        const aside = path.join(dataDir, `pglite.before-restore-${backupTimestamp(now)}`);
        previousData = aside;
        for (let copy = 2; existsSync(previousData); copy++) previousData = `${aside}-${copy}`;
        renameSync(folder, previousData);
      }
    }
    try {
      renameSync(staging, folder);
    } catch (error) {
      if (previousData) renameSync(previousData, folder);
      throw error;
    }
    return { previousData, ...result };
  } finally {
    lock.release();
  }
}

async function loadPgliteBackup(
  staging: string,
  blob: Blob,
  file: string,
  target: string,
): Promise<Omit<RestoreResult, "previousData">> {
  let client: PGlite;
  try {
    client = await PGlite.create({ dataDir: staging, loadDataDir: blob, extensions: pgliteExtensions });
  } catch (error) {
    throw new BackupError(`Could not open ${file} as an embedded database: ${(error as Error).message}`);
  }
  try {
    const db = drizzlePglite(client) as unknown as Db;
    const applied = await appliedMigrations(db);
    if (!applied) throw notVigilBackup(file);
    const inBackup = compareMigrations(applied);
    if (inBackup.unknown > 0) throw newerReleaseError(inBackup);
    // What the server does at start.
    await migratePglite(drizzlePglite(client), { migrationsFolder }).catch((error: Error) => {
      throw new BackupError(`Migrating the backup forward failed: ${error.message}`);
    });
    const after = compareMigrations((await appliedMigrations(db)) ?? []);
    checkMigrationsCurrent(after);
    // A backup whose logs came without their billable figures (a bulk load) gets them now, before anyone bills; the same for the logs' concurrent-patient peaks.
    await recomputeBillableFiguresIfMissing(db);
    await fillMissingConcurrentPeaks(db);
    await client.query("checkpoint");
    return {
      engine: "pglite",
      file,
      target,
      migrationsInBackup: inBackup.applied,
      migratedForward: inBackup.pending.map((migration) => migration.tag),
      shippedMigrations: after.shipped.length,
      tables: await countTables(db),
    };
  } finally {
    await client.close();
  }
}
