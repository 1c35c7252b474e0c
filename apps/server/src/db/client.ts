import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleNodePostgres } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePostgres } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { acquireFolderLock, type FolderLock } from "./folder-lock.js";
import { PgliteConnection } from "./pglite-connection.js";
import { PgliteThread } from "./pglite-thread.js";
import * as schema from "./schema.js";

/** Both drivers give the same Drizzle surface; repositories take this (or a transaction of it). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  engine: "postgres" | "pglite";
  close: () => Promise<void>;
  /**
   * Calls `onNotify` with each payload NOTIFYed on `channels` (after the sender's commit), and the channel it came
   * on; resolves to a stop function. PostgreSQL: one connection of its own for all the channels, outside the pool
   * (LISTEN holds it); `onLost` says it dropped, and the caller listens again (events/notification-listener.ts).
   * PGlite: its in-process listen, which cannot drop.
   */
  listen: (
    channels: string | readonly string[],
    onNotify: (payload: string, channel: string) => void,
    onLost: (error: Error) => void,
  ) => Promise<Unlisten>;
  /** PostgreSQL: its pool's use now. PGlite has no pool (one connection, in the process): undefined. */
  poolUse?: () => PoolUse;
};

export type Unlisten = () => Promise<void>;

/** A PostgreSQL pool's connections right now (pg's own counters), for the operators' metrics. */
export type PoolUse = { total: number; idle: number; waiting: number; max: number };

/** The generated SQL migrations, read from the source tree (also by migration-status.ts). */
export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
/** Any constant works; it keeps two instances starting together from migrating at once. */
const migrationLockKey = 7_347_001;

export type OpenDatabaseOptions =
  | { kind: "postgres"; url: string; poolSize?: number }
  /**
   * `dataDir` undefined: in memory (tests). `template`: start from a dump of an already initialised cluster
   * (`dumpDataDir`) instead of running initdb, which takes PGlite seconds; migrations still run after it.
   * `thread`: where PGlite runs: `worker`, a thread of its own (`PgliteThread`, pglite-thread.ts), or `main`, the
   * caller's (`PgliteConnection`, pglite-connection.ts); undefined: `pgliteDefaultThread`. Either way `db.$client` answers query, exec, transaction, listen
   * and dumpDataDir.
   */
  | { kind: "pglite"; dataDir?: string; template?: Blob; thread?: PgliteThreadChoice };

export type PgliteThreadChoice = "worker" | "main";
/** Where PGlite runs when the caller does not say (PGLITE_THREAD; docs/operations.md, "PGlite on its own thread"). */
export const pgliteDefaultThread: PgliteThreadChoice = "main";

/** The database the configuration names: PostgreSQL with DATABASE_URL, else PGlite in DATA_DIR. */
export function openConfiguredDatabase(config: {
  databaseUrl: string | undefined;
  dataDir: string;
  pgliteThread?: PgliteThreadChoice;
}): Promise<Database> {
  return openDatabase(
    config.databaseUrl
      ? { kind: "postgres", url: config.databaseUrl }
      : { kind: "pglite", dataDir: config.dataDir, thread: config.pgliteThread },
  );
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.kind === "postgres") return openPostgres(options.url, options.poolSize ?? 10);
  return openPglite(options.dataDir, options.template, options.thread ?? pgliteDefaultThread);
}

/**
 * Every long-lived connection (the pool's, the listening one) sends TCP keep-alive probes from a minute idle: they keep
 * a firewall's or NAT's state for it, and a peer gone without a word is found in minutes rather than the operating
 * system's default two hours — for the listening connection, minutes without live events or cache drops.
 */
const tcpKeepAlive = { keepAlive: true, keepAliveInitialDelayMillis: 60_000 };

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  // Migrate on one dedicated connection holding an advisory lock, so concurrent starts wait for each other.
  const migrationClient = new pg.Client({ connectionString: url });
  await migrationClient.connect();
  try {
    await migrationClient.query("select pg_advisory_lock($1)", [migrationLockKey]);
    await migrateNodePostgres(drizzleNodePostgres(migrationClient), { migrationsFolder });
  } finally {
    await migrationClient.query("select pg_advisory_unlock($1)", [migrationLockKey]).catch(() => undefined);
    await migrationClient.end();
  }
  // JIT off for Vigil's sessions: its statements are short, and on the benchmark's reports and statements over a
  // million time logs PostgreSQL spent ~75 ms compiling expressions to save a few; a connection string's own
  // `options` still win (pg lets the URL override this setting).
  //
  // Connections are kept once opened (`min` = `max`; pg's default closes them after 10 s idle). A new one costs a
  // backend process with cold catalog caches and re-prepares every prepared read, so after a quiet spell (a night
  // shift's one click a minute) each request paid that. A connection cut anyway errors on the pool (below) and is
  // replaced on the next query.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    min: poolSize,
    ...tcpKeepAlive,
    options: "-c jit=off",
  });
  // An idle connection can be cut by the server (restart, failover, pg_terminate_backend). pg reports that on
  // the pool; without a listener it would be an uncaught exception that stops the process. The pool replaces
  // the connection on the next query, so noting it is enough.
  pool.on("error", (error) => {
    console.warn(`PostgreSQL closed an idle connection: ${error.message}`);
  });
  const db = drizzleNodePostgres(pool, { schema }) as unknown as Db;
  return {
    db,
    engine: "postgres",
    close: () => pool.end(),
    listen: (...args) => listenPostgres(url, ...args),
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
  };
}

async function listenPostgres(
  url: string,
  channels: string | readonly string[],
  onNotify: (payload: string, channel: string) => void,
  onLost: (error: Error) => void,
): Promise<Unlisten> {
  const heard = new Set([channels].flat());
  const client = new pg.Client({ connectionString: url, ...tcpKeepAlive });
  let stopped = false;
  const lost = (error: Error) => {
    if (stopped) return;
    stopped = true;
    client.end().catch(() => undefined);
    onLost(error);
  };
  client.on("error", lost);
  client.on("end", () => lost(new Error("the listening connection ended")));
  client.on("notification", (message) => {
    if (heard.has(message.channel)) onNotify(message.payload ?? "", message.channel);
  });
  try {
    await client.connect();
    // One statement, so the connection shows as `listen …` in pg_stat_activity (operators and tests find it so).
    await client.query([...heard].map((channel) => `listen ${client.escapeIdentifier(channel)}`).join("; "));
  } catch (error) {
    stopped = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  return async () => {
    stopped = true;
    await client.end().catch(() => undefined);
  };
}

/**
 * PGlite's buffer pool lives inside its WASM memory, in the server's own process: PostgreSQL's default 128 MB put
 * the embedded server at ~440 MB under the benchmark's load, 16 MB at ~330 MB, with the same CPU per request (the
 * data files stay in the operating system's page cache either way).
 */
const pgliteStartParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

/**
 * The contrib extensions the migrations create (`pg_trgm`: the case search's trigram index). PGlite bundles each
 * separately; whoever opens a Vigil folder and may write to it or migrate it passes these.
 */
export const pgliteExtensions = { pg_trgm };

async function openPglite(
  dataDir: string | undefined,
  template: Blob | undefined,
  thread: PgliteThreadChoice,
): Promise<Database> {
  let lock: FolderLock | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    // PGlite is single-process: a second process on the same folder would corrupt it, so refuse before opening.
    lock = acquireFolderLock(dataDir);
  }
  let client: PgliteConnection | PgliteThread;
  try {
    const folder = dataDir ? path.join(dataDir, "pglite") : undefined;
    const loaded = !dataDir && template ? template : undefined;
    client =
      thread === "worker"
        ? await PgliteThread.start({ dataDir: folder, template: loaded, startParams: pgliteStartParams })
        : new PgliteConnection(
            await PGlite.create({
              startParams: pgliteStartParams,
              extensions: pgliteExtensions,
              ...(folder ? { dataDir: folder } : {}),
              ...(loaded ? { loadDataDir: loaded } : {}),
            }),
          );
  } catch (error) {
    lock?.release();
    throw error;
  }
  // Drizzle's PGlite driver calls only what both stand-ins offer (query, transaction; exec and listen here).
  const driver = client as unknown as PGlite;
  const db = drizzlePglite(driver, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(driver), { migrationsFolder });
  return {
    db,
    engine: "pglite",
    listen: async (channels, onNotify) => {
      const stops = await Promise.all(
        [channels].flat().map((channel) => driver.listen(channel, (payload) => onNotify(payload, channel))),
      );
      return async () => {
        for (const stop of stops) await stop();
      };
    },
    close: async () => {
      await client.close();
      lock?.release();
    },
  };
}

/** Raw SQL rows. Both drivers answer `{ rows }`; the shared Drizzle type cannot say so. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export async function pingDatabase(db: Db): Promise<number> {
  const started = performance.now();
  await db.execute(sql`select 1`);
  return performance.now() - started;
}
