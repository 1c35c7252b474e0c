import { spawn } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { ConfigError } from "../config.js";
import { type Db, openDatabase, pgliteExtensions, queryRows } from "./client.js";
import { acquireFolderLock, FolderLockedError } from "./folder-lock.js";

/**
 * Backup and restore of the configured database (`npm run db:backup`, `npm run db:restore`): PostgreSQL through
 * pg_dump/pg_restore (custom format), the embedded PGlite as a gzipped tar of its data folder. Both restores end
 * where the server would start: migrations run forward when the backup is older, and refused when it is newer.
 */

/** An expected failure: the commands print its one-line message, without a stack. */
export class BackupError extends Error {}

export function isExpectedFailure(error: unknown): error is Error {
  return error instanceof BackupError || error instanceof FolderLockedError || error instanceof ConfigError;
}

export type BackupSource = { engine: "postgres"; url: string } | { engine: "pglite"; dataDir: string };

/** The same choice the server makes (`openConfiguredDatabase`): PostgreSQL with DATABASE_URL, else PGlite. */
export function backupSourceOf(config: { databaseUrl: string | undefined; dataDir: string }): BackupSource {
  return config.databaseUrl
    ? { engine: "postgres", url: config.databaseUrl }
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

// ---------------------------------------------------------------------------------------------------------------
// File names and files

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

function checkBackupFile(file: string, engine: BackupSource["engine"]): BackupKind {
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
function prepareBackupFile(file: string): string {
  if (existsSync(file)) throw new BackupError(`${file} already exists; choose another file with --out.`);
  // Backups hold patient data: only the owner reads them.
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  return partial;
}

function finishBackupFile(partial: string, file: string): number {
  chmodSync(partial, 0o600);
  renameSync(partial, file);
  return statSync(file).size;
}

// ---------------------------------------------------------------------------------------------------------------
// What a database holds, and its migrations

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

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

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

type AppliedMigration = { hash: string; createdAt: number };

type MigrationComparison = {
  shipped: ShippedMigration[];
  applied: number;
  pending: ShippedMigration[];
  unknown: number;
  changed: ShippedMigration[];
};

/** The applied migrations against those this release ships, as the `migrations-current` self-check compares them. */
function compareMigrations(applied: AppliedMigration[]): MigrationComparison {
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

function newerReleaseError(comparison: MigrationComparison): BackupError {
  return new BackupError(
    `The backup was made by a newer Vigil release: it has ${comparison.unknown} migration(s) this release does not ` +
      "ship. Restore it with that release (or a later one).",
  );
}

/** After migrating forward, the applied migrations must be exactly the shipped ones, or the server would refuse. */
function checkMigrationsCurrent(comparison: MigrationComparison): void {
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

async function appliedMigrations(db: Db): Promise<AppliedMigration[] | undefined> {
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

const notVigilBackup = (file: string) =>
  new BackupError(`${file} holds no Vigil migrations table (drizzle.__drizzle_migrations): it is not a Vigil backup.`);

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL

export type LibpqConnection = {
  /** Variables for pg_dump/pg_restore: the connection, with the password in PGPASSWORD, never in arguments. */
  env: Record<string, string>;
  database: string;
  /** For messages: the URL without its password. */
  display: string;
};

/** The parameters of a postgres:// URL as libpq environment variables (https://www.postgresql.org/docs/15/libpq-envars.html). */
export function libpqConnection(url: string): LibpqConnection {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BackupError("DATABASE_URL is not a valid URL.");
  }
  const env: Record<string, string> = {};
  const set = (name: string, value: string | null | undefined) => {
    if (value) env[name] = value;
  };
  set("PGHOST", decodeURIComponent(parsed.hostname).replace(/^\[(.*)\]$/, "$1"));
  set("PGPORT", parsed.port);
  set("PGUSER", decodeURIComponent(parsed.username));
  set("PGPASSWORD", decodeURIComponent(parsed.password));
  set("PGDATABASE", decodeURIComponent(parsed.pathname.replace(/^\//, "")));
  const query = parsed.searchParams;
  set("PGHOST", query.get("host"));
  set("PGPORT", query.get("port"));
  set("PGUSER", query.get("user"));
  set("PGPASSWORD", query.get("password"));
  set("PGDATABASE", query.get("dbname"));
  set("PGAPPNAME", query.get("application_name"));
  set("PGOPTIONS", query.get("options"));
  set("PGSSLROOTCERT", query.get("sslrootcert"));
  set("PGSSLCERT", query.get("sslcert"));
  set("PGSSLKEY", query.get("sslkey"));
  set("PGCONNECT_TIMEOUT", query.get("connect_timeout") ?? "10");
  // node-postgres accepts `ssl=true` and `sslmode=no-verify`; libpq's nearest is `require` (encrypted, unverified).
  const sslmode = query.get("sslmode");
  const ssl = query.get("ssl");
  if (sslmode) set("PGSSLMODE", sslmode === "no-verify" ? "require" : sslmode);
  else if (ssl === "true" || ssl === "1") set("PGSSLMODE", "require");
  // libpq's defaults when the URL leaves them out: the variables already set, then the user's name.
  const user = env.PGUSER ?? process.env.PGUSER ?? userInfo().username;
  const database = env.PGDATABASE ?? process.env.PGDATABASE ?? user;
  env.PGDATABASE = database;
  const display = new URL(url);
  display.password = "";
  display.searchParams.delete("password");
  return { env, database, display: display.toString() };
}

type ToolName = "pg_dump" | "pg_restore";

/** Runs a PostgreSQL client tool; a missing tool or a failure becomes a one-line BackupError. */
function runTool(tool: ToolName, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new BackupError(
              `${tool} was not found: install the PostgreSQL client tools (Debian: apt install postgresql-client) ` +
                "of the server's major version or newer, and put them on PATH.",
            )
          : new BackupError(`Could not run ${tool}: ${error.message}`),
      );
    });
    child.on("close", (code, signal) => {
      if (code === 0) {
        resolve(Buffer.concat(stdout).toString("utf8"));
        return;
      }
      const lines = Buffer.concat(stderr)
        .toString("utf8")
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean);
      // The first error names the cause (a connection refused, a version mismatch); the rest are consequences.
      const reason = lines.find((line) => /error:|fatal:/i.test(line)) ?? lines.at(-1) ?? `exit ${code ?? signal}`;
      reject(new BackupError(`${tool} failed: ${reason.replace(new RegExp(`^${tool}: `), "")}`));
    });
  });
}

async function withPostgresClient<T>(
  connection: LibpqConnection,
  url: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new BackupError(`Could not connect to ${connection.display}: ${(error as Error).message}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

type DumpEntry = { kind: string; schema: string; name: string };

/** The archive's table of contents (`pg_restore --list`): reading it also proves the file is a readable archive. */
async function listDumpEntries(file: string, env: Record<string, string>): Promise<DumpEntry[]> {
  const listing = await runTool("pg_restore", ["--list", file], env);
  const entries: DumpEntry[] = [];
  for (const line of listing.split("\n")) {
    const match =
      /^\d+; \d+ \d+ (TABLE DATA|TABLE|SEQUENCE OWNED BY|SEQUENCE SET|SEQUENCE|MATERIALIZED VIEW|VIEW) (\S+) (\S+) /.exec(
        line,
      );
    if (match) entries.push({ kind: match[1] as string, schema: match[2] as string, name: match[3] as string });
  }
  return entries;
}

/** The migrations the backup had applied, read from its data without restoring it. */
async function dumpMigrations(file: string, env: Record<string, string>): Promise<AppliedMigration[]> {
  const script = await runTool(
    "pg_restore",
    ["--data-only", "--schema=drizzle", "--table=__drizzle_migrations", "--file=-", file],
    env,
  );
  const lines = script.split("\n");
  const start = lines.findIndex((line) => /^COPY drizzle\.__drizzle_migrations \(.*\) FROM stdin;$/.test(line));
  const columns = /\((.*)\)/.exec(lines[start] ?? "")?.[1]?.split(", ") ?? [];
  const hashColumn = columns.indexOf("hash");
  const createdAtColumn = columns.indexOf("created_at");
  if (start < 0 || hashColumn < 0 || createdAtColumn < 0) throw notVigilBackup(file);
  const applied: AppliedMigration[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "\\.") break;
    const fields = line.split("\t");
    applied.push({ hash: fields[hashColumn] ?? "", createdAt: Number(fields[createdAtColumn]) });
  }
  return applied;
}

async function backupPostgres(url: string, file: string): Promise<BackupResult> {
  const connection = libpqConnection(url);
  // Connect once first: a wrong URL or a stopped server reads better from here than from pg_dump.
  await withPostgresClient(connection, url, async () => undefined);
  const partial = prepareBackupFile(file);
  try {
    // --no-password: fail rather than prompt when the URL has none and no ~/.pgpass matches.
    await runTool("pg_dump", ["--format=custom", "--no-password", `--file=${partial}`], connection.env);
    const entries = await listDumpEntries(partial, connection.env);
    const bytes = finishBackupFile(partial, file);
    // pg_dump reads one snapshot while the server may keep writing, so rows are not counted beside it.
    const tables = entries
      .filter((entry) => entry.kind === "TABLE" && (entry.schema === "public" || entry.schema === "drizzle"))
      .map((entry) => `${entry.schema}.${entry.name}`);
    return { engine: "postgres", file, bytes, tables };
  } finally {
    rmSync(partial, { force: true });
  }
}

async function restorePostgres(url: string, file: string, force: boolean): Promise<RestoreResult> {
  checkBackupFile(file, "postgres");
  const connection = libpqConnection(url);
  const inBackup = compareMigrations(await dumpMigrations(file, connection.env));
  if (inBackup.unknown > 0) throw newerReleaseError(inBackup);
  const dumped = new Set(
    (await listDumpEntries(file, connection.env))
      .filter((entry) => ["TABLE", "SEQUENCE", "VIEW", "MATERIALIZED VIEW"].includes(entry.kind))
      .map((entry) => `${entry.schema}.${entry.name}`),
  );

  await withPostgresClient(connection, url, async (client) => {
    const sessions = await client.query<{ total: number }>(
      // Client sessions only: autovacuum workers also show up under the database.
      `select count(*)::int as total from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    const others = sessions.rows[0]?.total ?? 0;
    if (others > 0 && !force) {
      throw new BackupError(
        `${others} other session(s) are connected to database ${connection.database}: stop every Vigil server using ` +
          "it first (or pass --force to restore anyway).",
      );
    }
    const existing = await client.query<{ schema: string; name: string; kind: string }>(
      `select n.nspname as schema, c.relname as name, c.relkind as kind from pg_class c
         join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'p', 'S', 'v', 'm')`,
    );
    const tables = existing.rows.filter((row) => row.kind === "r" || row.kind === "p").length;
    if (existing.rows.length > 0 && !force) {
      throw new BackupError(
        `Database ${connection.database} is not empty (${tables} tables). Restoring replaces its contents: stop ` +
          "every Vigil server using it, then run again with --force.",
      );
    }
    // pg_restore --clean drops what the backup holds; what it does not (tables of a newer release) would stay and
    // could block those drops or the migrations run afterwards, so they go first.
    // Views first, then tables (with what depends on them), then sequences without cascade, so that nothing a
    // table of the backup still uses can go.
    const order = ["v", "m", "r", "p", "S"];
    const extra = existing.rows
      .filter((row) => !dumped.has(`${row.schema}.${row.name}`))
      .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
    if (extra.length > 0) {
      const drops = extra.map((row) => {
        const name = `${client.escapeIdentifier(row.schema)}.${client.escapeIdentifier(row.name)}`;
        if (row.kind === "S") return `drop sequence if exists ${name}`;
        return `drop ${row.kind === "v" ? "view" : row.kind === "m" ? "materialized view" : "table"} if exists ${name} cascade`;
      });
      try {
        await client.query(`begin; ${drops.join("; ")}; commit`);
      } catch (error) {
        await client.query("rollback").catch(() => undefined);
        throw new BackupError(`Could not drop what the backup does not hold: ${(error as Error).message}`);
      }
    }
  });

  await runTool(
    "pg_restore",
    [
      "--clean",
      "--if-exists",
      "--no-owner",
      "--single-transaction",
      "--exit-on-error",
      "--no-password",
      `--dbname=${connection.database}`,
      file,
    ],
    connection.env,
  );

  // Opening the database migrates it forward, exactly as the server does at start (under the advisory lock).
  const database = await openDatabase({ kind: "postgres", url, poolSize: 1 }).catch((error: Error) => {
    throw new BackupError(`Restored, but migrating it forward failed: ${error.message}`);
  });
  try {
    const after = compareMigrations((await appliedMigrations(database.db)) ?? []);
    checkMigrationsCurrent(after);
    return {
      engine: "postgres",
      file,
      target: connection.database,
      migrationsInBackup: inBackup.applied,
      migratedForward: inBackup.pending.map((migration) => migration.tag),
      shippedMigrations: after.shipped.length,
      tables: await countTables(database.db),
    };
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// PGlite

function pgliteFolder(dataDir: string): string {
  return path.join(dataDir, "pglite");
}

function holdsDatabase(folder: string): boolean {
  return existsSync(path.join(folder, "PG_VERSION"));
}

function isEmptyFolder(folder: string): boolean {
  return !existsSync(folder) || readdirSync(folder).length === 0;
}

async function backupPglite(dataDir: string, file: string): Promise<BackupResult> {
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

async function restorePglite(dataDir: string, file: string, force: boolean, now: Date): Promise<RestoreResult> {
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
    return { ...result, previousData };
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

// ---------------------------------------------------------------------------------------------------------------
// The two operations

export function backupDatabase(source: BackupSource, file: string): Promise<BackupResult> {
  return source.engine === "postgres" ? backupPostgres(source.url, file) : backupPglite(source.dataDir, file);
}

export function restoreDatabase(
  source: BackupSource,
  file: string,
  options: { force?: boolean; now?: Date } = {},
): Promise<RestoreResult> {
  const force = options.force ?? false;
  return source.engine === "postgres"
    ? restorePostgres(source.url, file, force)
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
