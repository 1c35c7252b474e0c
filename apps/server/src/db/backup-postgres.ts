import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { userInfo } from "node:os";
import pg from "pg";
import {
  BackupError,
  type BackupResult,
  type ChildEnvironment,
  checkBackupFile,
  finishBackupFile,
  prepareBackupFile,
  type RestoreResult,
} from "./backup-format.js";
import { checkMigrationsCurrent, countTables, newerReleaseError, notVigilBackup } from "./backup-migrations.js";
import { recomputeBillableFiguresIfMissing } from "./billable-figures.js";
import { openDatabase } from "./client.js";
import { fillMissingConcurrentPeaks } from "./concurrent-peaks.js";
import { type AppliedMigration, appliedMigrations, compareMigrations } from "./migration-status.js";

/** Backup and restore of a PostgreSQL database through pg_dump/pg_restore (custom format). */

export type LibpqConnection = {
  /** Variables for pg_dump/pg_restore: the connection, with the password in PGPASSWORD, never in arguments. */
  env: Record<string, string>;
  /** What the tools inherit beneath those (PATH to find them, HOME for ~/.pgpass): the configuration's environment. */
  inherited: ChildEnvironment;
  database: string;
  /** For messages: the URL without its password. */
  display: string;
};

/**
 * The parameters of a postgres:// URL as libpq environment variables (https://www.postgresql.org/docs/15/libpq-envars.html),
 * over `inherited`, the environment the configuration was read from (config.ts is the one reader of process.env).
 */
export function libpqConnection(url: string, inherited: ChildEnvironment): LibpqConnection {
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
  const user = env.PGUSER ?? inherited.PGUSER ?? userInfo().username;
  const database = env.PGDATABASE ?? inherited.PGDATABASE ?? user;
  env.PGDATABASE = database;
  const display = new URL(url);
  display.password = "";
  display.searchParams.delete("password");
  return { env, inherited, database, display: display.toString() };
}

type ToolName = "pg_dump" | "pg_restore";

/** Runs a PostgreSQL client tool; a missing tool or a failure becomes a one-line BackupError. */
function runTool(tool: ToolName, args: string[], connection: LibpqConnection): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = Object.assign({}, connection.inherited, connection.env);
    const child = spawn(tool, args, { env, stdio: ["ignore", "pipe", "pipe"] });
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
async function listDumpEntries(file: string, connection: LibpqConnection): Promise<DumpEntry[]> {
  const listing = await runTool("pg_restore", ["--list", file], connection);
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
async function dumpMigrations(file: string, connection: LibpqConnection): Promise<AppliedMigration[]> {
  const script = await runTool(
    "pg_restore",
    ["--data-only", "--schema=drizzle", "--table=__drizzle_migrations", "--file=-", file],
    connection,
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

export async function backupPostgres(url: string, file: string, environment: ChildEnvironment): Promise<BackupResult> {
  const connection = libpqConnection(url, environment);
  // Connect once first: a wrong URL or a stopped server reads better from here than from pg_dump.
  await withPostgresClient(connection, url, async () => undefined);
  const partial = prepareBackupFile(file);
  try {
    // --no-password: fail rather than prompt when the URL has none and no ~/.pgpass matches.
    await runTool("pg_dump", ["--format=custom", "--no-password", `--file=${partial}`], connection);
    const entries = await listDumpEntries(partial, connection);
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

export async function restorePostgres(
  url: string,
  file: string,
  force: boolean,
  environment: ChildEnvironment,
): Promise<RestoreResult> {
  checkBackupFile(file, "postgres");
  const connection = libpqConnection(url, environment);
  const inBackup = compareMigrations(await dumpMigrations(file, connection));
  if (inBackup.unknown > 0) throw newerReleaseError(inBackup);
  const dumped = new Set(
    (await listDumpEntries(file, connection))
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
    connection,
  );

  // Opening the database migrates it forward, exactly as the server does at start (under the advisory lock).
  const database = await openDatabase({ kind: "postgres", url, poolSize: 1 }).catch((error: Error) => {
    throw new BackupError(`Restored, but migrating it forward failed: ${error.message}`);
  });
  try {
    const after = compareMigrations((await appliedMigrations(database.db)) ?? []);
    checkMigrationsCurrent(after);
    // A backup whose logs came without their billable figures (a bulk load) gets them now, before anyone bills; the same for the logs' concurrent-patient peaks.
    await recomputeBillableFiguresIfMissing(database.db);
    await fillMissingConcurrentPeaks(database.db);
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
