import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePostgres } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePostgres } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../config.js";
import { backupDatabase, describeRestore, restoreDatabase } from "../db/backup.js";
import type { BackupSource, RestoreResult } from "../db/backup-format.js";
import { type Db, openDatabase, pgliteExtensions, queryRows } from "../db/client.js";
import { seedDemoData } from "../seed/seed-demo-data.js";

/** Like the other API tests: PostgreSQL when DATABASE_URL is set, else the embedded engine. */
const postgresUrl = loadConfig().databaseUrl;
const migrationsFolder = path.resolve(import.meta.dirname, "../db/migrations");
const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};
const shippedTags = journal.entries.map((entry) => entry.tag);

/** PGlite's start and a data folder's copy are CPU-bound: a few seconds each alone, far more on a busy machine. */
const slowEngineWork = 120_000;

let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), "vigil-backup-test-"));
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/**
 * Every table of the catalog (schema public, plus drizzle's migrations table) as row count and a digest of all its
 * rows in a stable order, and every sequence's position: two databases with equal snapshots hold the same data.
 */
async function snapshot(db: Db): Promise<Record<string, string>> {
  const tables = await queryRows<{ schema: string; name: string }>(
    db,
    sql`select table_schema as "schema", table_name as "name" from information_schema.tables
         where table_schema = 'public' and table_type = 'BASE TABLE'
        union all select 'drizzle', '__drizzle_migrations'
        order by 1, 2`,
  );
  const state: Record<string, string> = {};
  for (const { schema, name } of tables) {
    const [row] = await queryRows<{ rows: number; digest: string }>(
      db,
      sql`select count(*)::int as "rows", md5(coalesce(string_agg(t::text, E'\n' order by t::text), '')) as "digest"
            from ${sql.identifier(schema)}.${sql.identifier(name)} t`,
    );
    state[`${schema}.${name}`] = `${row?.rows} rows, md5 ${row?.digest}`;
  }
  const sequences = await queryRows<{ schema: string; name: string }>(
    db,
    sql`select sequence_schema as "schema", sequence_name as "name" from information_schema.sequences
         where sequence_schema in ('public', 'drizzle')`,
  );
  for (const { schema, name } of sequences) {
    const [row] = await queryRows<{ position: string }>(
      db,
      sql`select last_value::text || ' ' || is_called::text as "position"
            from ${sql.identifier(schema)}.${sql.identifier(name)}`,
    );
    state[`sequence ${schema}.${name}`] = row?.position ?? "";
  }
  return state;
}

function rowCounts(state: Record<string, string>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(state)
      .filter(([key]) => !key.startsWith("sequence "))
      .map(([key, value]) => [key, Number.parseInt(value, 10)]),
  );
}

function restoredCounts(result: RestoreResult): Record<string, number> {
  return Object.fromEntries(result.tables.map((table) => [table.table, table.rows]));
}

/** The demo data, and a check that it is real data: most tables have rows. */
async function seededSnapshot(db: Db): Promise<Record<string, string>> {
  expect((await seedDemoData(db)).length).toBeGreaterThan(0);
  const state = await snapshot(db);
  const filled = Object.values(rowCounts(state)).filter((rows) => rows > 0);
  expect(filled.length).toBeGreaterThanOrEqual(15);
  return state;
}

/** What a database changed after the backup looks like: edited, deleted and a table of a newer release. */
async function changeData(db: Db): Promise<void> {
  await db.execute(sql`update users set name = 'Changed after the backup'`);
  await db.execute(sql`truncate case_time_logs, case_record_revisions, case_records cascade`);
  await db.execute(sql`delete from client_useful_links`);
  await db.execute(sql`create table newer_feature (id int primary key, sub uuid references users(sub))`);
  await db.execute(sql`insert into newer_feature select 1, sub from users limit 1`);
}

/** A copy of the migrations without the last one: what an older release shipped. */
function olderMigrations(): string {
  const folder = mkdtempSync(path.join(workDir, "older-migrations-"));
  cpSync(migrationsFolder, folder, { recursive: true });
  const older = { ...journal, entries: journal.entries.slice(0, -1) };
  writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(older));
  rmSync(path.join(folder, `${shippedTags.at(-1)}.sql`));
  return folder;
}

async function appliedMigrationCount(db: Db): Promise<number> {
  const [row] = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as "total" from drizzle.__drizzle_migrations`,
  );
  return row?.total ?? 0;
}

/** Runs one of the commands as `npm run db:…` does (tsx), returning its exit code and output. */
function runCommand(
  command: "backup-command.ts" | "restore-command.ts",
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const serverDir = path.resolve(import.meta.dirname, "../..");
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", path.join(serverDir, "src", "db", command), ...args],
      { cwd: serverDir, env: { ...process.env, LOG_LEVEL: "silent", ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function expectOneLineFailure(result: { code: number; stderr: string }, reason: RegExp): void {
  expect(result.code).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(reason);
}

describe.skipIf(postgresUrl)("backup and restore of the embedded database (PGlite)", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(workDir, "data-"));
  });

  it(
    "restores exactly the data of the backup, after refusing a folder in use and a non-empty folder without --force",
    async () => {
      const source: BackupSource = { engine: "pglite", dataDir };
      const file = path.join(workDir, "embedded.tar.gz");
      // A data folder from the run's migrated template (pglite-template.ts), which spares PGlite's initdb.
      const template = await PGlite.create({
        dataDir: path.join(dataDir, "pglite"),
        loadDataDir: new Blob([readFileSync(inject("pgliteTemplate"))]),
      });
      await template.close();
      const database = await openDatabase({ kind: "pglite", dataDir });
      const atBackup = await seededSnapshot(database.db);

      // This process holds the folder's lock, as a running server does.
      await expect(backupDatabase(source, file)).rejects.toThrow(/in use by another Vigil process/);
      await database.close();
      const backup = await backupDatabase(source, file);
      expect(backup.tables).toEqual(expect.arrayContaining(Object.keys(rowCounts(atBackup))));
      expect(readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
      expect(statSync(file).mode & 0o777).toBe(0o600);
      await expect(backupDatabase(source, file)).rejects.toThrow(/already exists/);

      const changed = await openDatabase({ kind: "pglite", dataDir });
      await changeData(changed.db);
      expect(await snapshot(changed.db)).not.toEqual(atBackup);
      await expect(restoreDatabase(source, file, { force: true })).rejects.toThrow(/in use by another Vigil process/);
      await changed.close();
      await expect(restoreDatabase(source, file)).rejects.toThrow(/already holds a database.*--force/);

      const restored = await restoreDatabase(source, file, { force: true });
      expect(restored.migratedForward).toEqual([]);
      expect(restoredCounts(restored)).toEqual(rowCounts(atBackup));
      expect(restored.previousData && existsSync(path.join(restored.previousData, "PG_VERSION"))).toBe(true);
      const printed = describeRestore(restored);
      expect(printed).toMatch(/^public\.users\s+6$/m);
      expect(printed).toMatch(new RegExp(`^drizzle\\.__drizzle_migrations\\s+${shippedTags.length}$`, "m"));
      expect(printed).toContain("kept as");
      expect(existsSync(path.join(dataDir, "vigil.lock"))).toBe(false);

      // The restored folder opens as the server would open it, and holds what was backed up.
      const reopened = await openDatabase({ kind: "pglite", dataDir });
      try {
        expect(await snapshot(reopened.db)).toEqual(atBackup);
      } finally {
        await reopened.close();
      }
    },
    slowEngineWork,
  );

  it(
    "migrates an older backup forward, and refuses one from a newer release leaving the folder untouched",
    async () => {
      // The older release's migrations may create contrib extensions (pg_trgm), which PGlite loads only when asked.
      const client = await PGlite.create({ extensions: pgliteExtensions });
      await migratePglite(drizzlePglite(client), { migrationsFolder: olderMigrations() });
      const older = path.join(workDir, "older.tar.gz");
      writeFileSync(older, Buffer.from(await (await client.dumpDataDir("gzip")).arrayBuffer()));
      await client.query("insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer', 9999999999999)");
      const newer = path.join(workDir, "newer.tar.gz");
      writeFileSync(newer, Buffer.from(await (await client.dumpDataDir("gzip")).arrayBuffer()));
      await client.close();

      const freshDir = mkdtempSync(path.join(workDir, "fresh-"));
      const fresh: BackupSource = { engine: "pglite", dataDir: freshDir };
      await expect(restoreDatabase(fresh, newer)).rejects.toThrow(/newer Vigil release/);
      expect(readdirSync(freshDir)).toEqual([]);

      const restored = await restoreDatabase(fresh, older);
      expect(restored.migrationsInBackup).toBe(shippedTags.length - 1);
      expect(restored.migratedForward).toEqual([shippedTags.at(-1)]);
      const reopened = await openDatabase({ kind: "pglite", dataDir: freshDir });
      try {
        expect(await appliedMigrationCount(reopened.db)).toBe(shippedTags.length);
      } finally {
        await reopened.close();
      }
    },
    slowEngineWork,
  );

  it(
    "runs as commands: a summary and exit 0, or one line and exit 1 for a folder in use or a missing file",
    async () => {
      // The data folder the first test restored (tests of a file run in order): a database with the demo data.
      const env = { DATA_DIR: dataDir, DATABASE_URL: "", INIT_CWD: workDir };
      const backedUp = await runCommand("backup-command.ts", [], env);
      expect(backedUp.stderr).toBe("");
      expect(backedUp.code).toBe(0);
      const [name] = readdirSync(path.join(dataDir, "backups"));
      expect(name).toMatch(/^vigil-pglite-\d{8}T\d{6}Z\.tar\.gz$/);
      expect(backedUp.stdout).toContain(path.join(dataDir, "backups", name as string));

      // A live process of this machine holds the lock: what a running server looks like to the command.
      writeFileSync(path.join(dataDir, "vigil.lock"), `${process.ppid}@${hostname()}`);
      try {
        expectOneLineFailure(await runCommand("backup-command.ts", [], env), /in use by another Vigil process/);
      } finally {
        rmSync(path.join(dataDir, "vigil.lock"));
      }
      // A relative file is where the command was typed (INIT_CWD).
      expectOneLineFailure(
        await runCommand("restore-command.ts", ["missing.tar.gz", "--force"], env),
        new RegExp(`The backup file ${path.join(workDir, "missing.tar.gz")} does not exist`),
      );
    },
    slowEngineWork,
  );
});

describe.runIf(postgresUrl)("backup and restore of a PostgreSQL database", () => {
  const scratch: string[] = [];

  /** A new database of its own on the test server, never the shared one's tables; dropped after the tests. */
  async function scratchDatabase(): Promise<string> {
    const name = `vigil_backup_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
    scratch.push(name);
    const url = new URL(postgresUrl as string);
    url.pathname = `/${name}`;
    return url.toString();
  }

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    for (const name of scratch) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  async function snapshotOf(url: string): Promise<Record<string, string>> {
    const database = await openDatabase({ kind: "postgres", url, poolSize: 1 });
    try {
      return await snapshot(database.db);
    } finally {
      await database.close();
    }
  }

  it(
    "restores exactly the data of the backup, after refusing connected sessions and a non-empty database without --force",
    async () => {
      const url = await scratchDatabase();
      const source: BackupSource = { engine: "postgres", url, environment: process.env };
      const file = path.join(workDir, "postgres.dump");
      const database = await openDatabase({ kind: "postgres", url, poolSize: 2 });
      const atBackup = await seededSnapshot(database.db);
      await database.close();

      const backup = await backupDatabase(source, file);
      expect(backup.tables).toEqual(expect.arrayContaining(Object.keys(rowCounts(atBackup))));
      expect(readFileSync(file).subarray(0, 5).toString("latin1")).toBe("PGDMP");
      expect(statSync(file).mode & 0o777).toBe(0o600);

      const changed = await openDatabase({ kind: "postgres", url, poolSize: 2 });
      await changeData(changed.db);
      expect(await snapshot(changed.db)).not.toEqual(atBackup);
      // The open pool is what a running server looks like.
      await expect(restoreDatabase(source, file)).rejects.toThrow(/other session\(s\) are connected/);
      await changed.close();
      await expect(restoreDatabase(source, file)).rejects.toThrow(/is not empty.*--force/);

      const restored = await restoreDatabase(source, file, { force: true });
      expect(restored.migratedForward).toEqual([]);
      expect(restoredCounts(restored)).toEqual(rowCounts(atBackup));
      // Also proves the table of the "newer release" is gone: the snapshot lists the catalog's tables.
      expect(await snapshotOf(url)).toEqual(atBackup);

      // Another machine: an empty database needs no --force.
      const freshUrl = await scratchDatabase();
      await restoreDatabase({ engine: "postgres", url: freshUrl, environment: process.env }, file);
      expect(await snapshotOf(freshUrl)).toEqual(atBackup);
    },
    slowEngineWork,
  );

  it(
    "migrates an older backup forward, and refuses one from a newer release before touching the database",
    async () => {
      const olderUrl = await scratchDatabase();
      const client = new pg.Client({ connectionString: olderUrl });
      await client.connect();
      const older = path.join(workDir, "older.dump");
      const newer = path.join(workDir, "newer.dump");
      try {
        await migrateNodePostgres(drizzleNodePostgres(client), { migrationsFolder: olderMigrations() });
        await backupDatabase({ engine: "postgres", url: olderUrl, environment: process.env }, older);
        await client.query(
          "insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer', 9999999999999)",
        );
        await backupDatabase({ engine: "postgres", url: olderUrl, environment: process.env }, newer);
      } finally {
        await client.end();
      }

      const targetUrl = await scratchDatabase();
      const target: BackupSource = { engine: "postgres", url: targetUrl, environment: process.env };
      await expect(restoreDatabase(target, newer)).rejects.toThrow(/newer Vigil release/);
      const untouched = new pg.Client({ connectionString: targetUrl });
      await untouched.connect();
      const tables = await untouched.query("select count(*)::int as total from pg_tables where schemaname = 'public'");
      await untouched.end();
      expect(tables.rows[0]?.total).toBe(0);

      const restored = await restoreDatabase(target, older);
      expect(restored.migrationsInBackup).toBe(shippedTags.length - 1);
      expect(restored.migratedForward).toEqual([shippedTags.at(-1)]);
      const reopened = await openDatabase({ kind: "postgres", url: targetUrl, poolSize: 1 });
      try {
        expect(await appliedMigrationCount(reopened.db)).toBe(shippedTags.length);
      } finally {
        await reopened.close();
      }
    },
    slowEngineWork,
  );

  it(
    "runs as commands: a summary and exit 0, or one line and exit 1 for an unreachable database or a wrong file",
    async () => {
      const url = await scratchDatabase();
      const database = await openDatabase({ kind: "postgres", url, poolSize: 1 });
      await database.close();
      const env = { DATABASE_URL: url, INIT_CWD: workDir };
      const backedUp = await runCommand("backup-command.ts", ["--out", "cli.dump"], env);
      expect(backedUp.stderr).toBe("");
      expect(backedUp.code).toBe(0);
      expect(backedUp.stdout).toContain(path.join(workDir, "cli.dump"));

      const missingDatabase = new URL(url);
      missingDatabase.pathname = "/vigil_backup_test_missing";
      expectOneLineFailure(
        await runCommand("restore-command.ts", ["cli.dump"], { ...env, DATABASE_URL: missingDatabase.toString() }),
        /Could not connect to .*vigil_backup_test_missing.*does not exist/,
      );
      writeFileSync(path.join(workDir, "not-a-backup.dump"), "hello");
      expectOneLineFailure(
        await runCommand("restore-command.ts", ["not-a-backup.dump"], env),
        /not a pg_dump custom-format backup/,
      );
      const restored = await runCommand("restore-command.ts", ["cli.dump", "--force"], env);
      expect(restored.stderr).toBe("");
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(/^drizzle\.__drizzle_migrations\s+\d+$/m);
    },
    slowEngineWork,
  );
});
