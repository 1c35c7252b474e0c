import { once } from "node:events";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { recomputeBillableFigures } from "../apps/server/src/db/billable-figures.js";
import { openDatabase } from "../apps/server/src/db/client.js";
import { recomputeConcurrentPeaks } from "../apps/server/src/db/concurrent-peaks.js";
import { hashPassword } from "../apps/server/src/identity/passwords.js";
import { rebuildCaseClocks } from "../apps/server/src/modules/watch/watch-service.js";
import {
  benchUser,
  fullDatabase,
  fullDatabaseUrl,
  pgliteDataDir,
  pgliteMeasured,
  postgresAdminUrl,
  resultsDir,
  scaleFull,
  scaleTenth,
  smallDatabase,
  smallDatabaseUrl,
} from "./config.js";
import { type DatasetSummary, generateDataset } from "./dataset/generate-dataset.js";
import { generateReceivables, receivablesMonths } from "./dataset/generate-receivables.js";
import { bulkTables, type Sink, type TableSpec } from "./dataset/table-specs.js";

/**
 * `tsx bench/generate-data.ts [--only full|tenth]`: the bench's data.
 *
 * - full: 50 clients, 200 users, 100,000 cases, 1,000,000 time logs into the PostgreSQL database `vigil_bench`
 *   (dropped and created here, then migrated by the server's own migrations);
 * - tenth: a tenth of it, the same rows into `vigil_bench_tenth` and into a PGlite folder (bench-results/pglite-data),
 *   so the PGlite/PostgreSQL ratio compares the engines on identical data.
 *
 * Loading is COPY (pg-copy-streams on PostgreSQL, COPY FROM '/dev/blob' on PGlite), one stream per table, with
 * foreign-key triggers off for the session (`session_replication_role = replica`: the rows are consistent by
 * construction) and the bulk tables' secondary indexes dropped before and rebuilt after; then the board's kept clocks
 * derived from the loaded cases (`rebuildCaseClocks`, what the services keep on every write), then VACUUM ANALYZE, so
 * the planner and the visibility map are as a long-running database's would be.
 */

type Target = {
  label: string;
  sink: Sink;
  /** After every row is written: indexes back, sequence, statistics. */
  finish: (summary: DatasetSummary) => Promise<void>;
};

const log = (message: string) => console.log(`[generate ${new Date().toISOString().slice(11, 19)}] ${message}`);

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL: a COPY stream per table, each on its own connection
// ---------------------------------------------------------------------------------------------------------------

type CopyEntry = {
  buffer: string[];
  size: number;
  client?: pg.Client;
  stream?: NodeJS.WritableStream;
  ready: Promise<void>;
  /** Set while the stream's buffer is full: one wait for its 'drain', however many writes came meanwhile. */
  draining?: Promise<unknown>;
};

class PostgresCopySink implements Sink {
  private readonly entries = new Map<string, CopyEntry>();
  private failure: Error | undefined;
  private waits: Promise<unknown>[] = [];

  constructor(private readonly url: string) {}

  write(spec: TableSpec, line: string): void {
    let entry = this.entries.get(spec.name);
    if (!entry) {
      const created: CopyEntry = { buffer: [], size: 0, ready: Promise.resolve() };
      created.ready = this.open(spec, created);
      this.entries.set(spec.name, created);
      entry = created;
    }
    entry.buffer.push(line);
    entry.size += line.length;
    if (entry.size > 256 * 1024 && entry.stream) this.flush(entry);
  }

  private async open(spec: TableSpec, entry: CopyEntry): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    await client.connect();
    await client.query("set session_replication_role = replica");
    await client.query("set synchronous_commit = off");
    const stream = client.query(copyFrom(spec.copyStatement("STDIN")));
    stream.on("error", (error: Error) => {
      this.failure ??= new Error(`COPY into ${spec.name} failed: ${error.message}`);
    });
    entry.client = client;
    entry.stream = stream;
  }

  private flush(entry: CopyEntry): void {
    if (entry.buffer.length === 0 || !entry.stream) return;
    const chunk = entry.buffer.join("");
    entry.buffer = [];
    entry.size = 0;
    if (!entry.stream.write(chunk) && !entry.draining) {
      entry.draining = once(entry.stream as NodeJS.EventEmitter, "drain").finally(() => {
        entry.draining = undefined;
      });
      this.waits.push(entry.draining);
    }
  }

  async drain(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.ready));
    for (const entry of this.entries.values()) this.flush(entry);
    const waits = this.waits;
    this.waits = [];
    await Promise.all(waits);
    if (this.failure) throw this.failure;
  }

  async finish(): Promise<void> {
    await this.drain();
    await Promise.all(
      [...this.entries.values()].map(async ({ client, stream }) => {
        if (!client || !stream) return;
        const done = once(stream as NodeJS.EventEmitter, "finish");
        stream.end();
        await done;
        await client.end();
      }),
    );
    if (this.failure) throw this.failure;
  }
}

async function recreatePostgresDatabase(name: string, adminUrl = postgresAdminUrl): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
}

type IndexDefinition = { name: string; table: string; definition: string };

/** The bulk tables' indexes that are not constraints (primary keys stay): dropped now, rebuilt after the load. */
async function dropSecondaryIndexes(query: (sql: string) => Promise<{ rows: unknown[] }>): Promise<IndexDefinition[]> {
  const { rows } = await query(
    `select indexname as name, tablename as table, indexdef as definition from pg_indexes
      where schemaname = 'public' and tablename in (${bulkTables.map((table) => `'${table}'`).join(", ")})
        and indexname not in (select conname from pg_constraint)`,
  );
  const indexes = rows as IndexDefinition[];
  for (const index of indexes) await query(`drop index "${index.name}"`);
  return indexes;
}

async function postgresTarget(label: string, name: string, url: string, adminUrl?: string): Promise<Target> {
  await recreatePostgresDatabase(name, adminUrl);
  // The server's own migrations (and its advisory lock), exactly as at its start.
  const migrated = await openDatabase({ kind: "postgres", url, poolSize: 1 });
  await migrated.close();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const indexes = await dropSecondaryIndexes((sql) => admin.query(sql));
  await admin.end();
  const sink = new PostgresCopySink(url);
  return {
    label,
    sink,
    finish: async (summary) => {
      await sink.finish();
      log(`${label}: rows loaded; rebuilding ${indexes.length} indexes`);
      // Two builders at a time: the machine has two cores.
      const queue = [...indexes];
      await Promise.all(
        [0, 1].map(async () => {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          await client.query("set maintenance_work_mem = '1GB'");
          for (let index = queue.shift(); index; index = queue.shift()) await client.query(index.definition);
          await client.end();
        }),
      );
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`select setval('case_number_seq', ${summary.caseNumberSequence})`);
      // COPY bypassed the services that keep the board's clocks: derive them once, as a restore's start would.
      const services = await openDatabase({ kind: "postgres", url, poolSize: 1 });
      log(`${label}: kept clocks of ${await rebuildCaseClocks(services.db)} open cases`);
      // Nor did the billable figures each time-log write keeps: one recomputation from the logs.
      await recomputeBillableFigures(services.db);
      log(`${label}: billable figures recomputed from the time logs`);
      // And each log's concurrent-patient peak, counted per technologist as a restore would.
      log(`${label}: concurrent-patient peaks of ${await recomputeConcurrentPeaks(services.db)} time logs counted`);
      await services.close();
      await generateReceivables((text, params) => client.query(text, params), new Date());
      log(`${label}: ${receivablesMonths} months of invoices, payments and allocations per client`);
      log(`${label}: vacuum analyze`);
      await client.query("vacuum analyze");
      await client.end();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// PGlite: rows gathered per table, then one COPY FROM '/dev/blob' each
// ---------------------------------------------------------------------------------------------------------------

class BlobSink implements Sink {
  readonly tables = new Map<string, { spec: TableSpec; chunks: string[]; buffer: string[] }>();

  write(spec: TableSpec, line: string): void {
    let entry = this.tables.get(spec.name);
    if (!entry) {
      entry = { spec, chunks: [], buffer: [] };
      this.tables.set(spec.name, entry);
    }
    entry.buffer.push(line);
    if (entry.buffer.length >= 4096) {
      entry.chunks.push(entry.buffer.join(""));
      entry.buffer = [];
    }
  }

  async drain(): Promise<void> {}

  async finish(): Promise<void> {
    for (const entry of this.tables.values()) {
      if (entry.buffer.length > 0) entry.chunks.push(entry.buffer.join(""));
      entry.buffer = [];
    }
  }
}

async function pgliteTarget(label: string, dataDir: string): Promise<Target> {
  rmSync(dataDir, { recursive: true, force: true });
  const database = await openDatabase({ kind: "pglite", dataDir });
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const indexes = await dropSecondaryIndexes((sql) => client.query(sql));
  const sink = new BlobSink();
  return {
    label,
    sink,
    finish: async (summary) => {
      await sink.finish();
      await client.exec("set session_replication_role = replica");
      for (const { spec, chunks } of sink.tables.values()) {
        await client.query(spec.copyStatement("'/dev/blob'"), [], { blob: new Blob(chunks) });
        chunks.length = 0;
      }
      await client.exec("set session_replication_role = origin");
      log(`${label}: rows loaded; rebuilding ${indexes.length} indexes`);
      for (const index of indexes) await client.exec(index.definition);
      await client.query(`select setval('case_number_seq', ${summary.caseNumberSequence})`);
      log(`${label}: kept clocks of ${await rebuildCaseClocks(database.db)} open cases`);
      await recomputeBillableFigures(database.db);
      log(`${label}: billable figures recomputed from the time logs`);
      log(`${label}: concurrent-patient peaks of ${await recomputeConcurrentPeaks(database.db)} time logs counted`);
      await generateReceivables((text, params) => client.query(text, params), new Date());
      log(`${label}: ${receivablesMonths} months of invoices, payments and allocations per client`);
      log(`${label}: vacuum analyze`);
      await client.exec("vacuum analyze");
      await database.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------

class TeeSink implements Sink {
  constructor(private readonly sinks: Sink[]) {}
  write(spec: TableSpec, line: string): void {
    for (const sink of this.sinks) sink.write(spec, line);
  }
  async drain(): Promise<void> {
    await Promise.all(this.sinks.map((sink) => sink.drain()));
  }
  async finish(): Promise<void> {}
}

async function generate(label: string, scale: number, targets: Target[], passwordHash: string, now: Date) {
  const started = performance.now();
  log(`${label}: generating at scale ${scale} into ${targets.map((target) => target.label).join(" and ")}`);
  const sink = targets.length === 1 ? (targets[0] as Target).sink : new TeeSink(targets.map((target) => target.sink));
  const summary = await generateDataset(sink, {
    scale,
    passwordHash,
    benchUser,
    now,
    progress: (done, total) => {
      const seconds = (performance.now() - started) / 1000;
      log(
        `${label}: ${done.toLocaleString("en-US")} / ${total.toLocaleString("en-US")} cases (${seconds.toFixed(0)} s)`,
      );
    },
  });
  const generatedSeconds = (performance.now() - started) / 1000;
  for (const target of targets) await target.finish(summary);
  const totalSeconds = (performance.now() - started) / 1000;
  log(
    `${label}: ${summary.cases.toLocaleString("en-US")} cases, ${summary.timeLogs.toLocaleString("en-US")} time logs, ` +
      `${summary.records.toLocaleString("en-US")} records with ${summary.revisions.toLocaleString("en-US")} revisions, ` +
      `${summary.auditEvents.toLocaleString("en-US")} audit events in ${totalSeconds.toFixed(0)} s`,
  );
  return { ...summary, generatedAt: now.toISOString(), seconds: { rows: generatedSeconds, total: totalSeconds } };
}

/**
 * One data set of `scale` into a new PostgreSQL database `name` (dropped first if it exists) on the server of
 * `adminUrl`: what the query-plan test loads its 100,000 cases with.
 */
export async function generatePostgresDataset(options: {
  name: string;
  url: string;
  adminUrl: string;
  scale: number;
}): Promise<DatasetSummary> {
  const passwordHash = await hashPassword(benchUser.password);
  const target = await postgresTarget(`PostgreSQL ${options.name}`, options.name, options.url, options.adminUrl);
  return generate(options.name, options.scale, [target], passwordHash, new Date());
}

export async function generateData(only?: "full" | "tenth"): Promise<void> {
  mkdirSync(resultsDir, { recursive: true });
  const passwordHash = await hashPassword(benchUser.password);
  const now = new Date();
  const written: Record<string, unknown> = {};
  if (only !== "tenth") {
    written.full = await generate(
      "full",
      scaleFull,
      [await postgresTarget(`PostgreSQL ${fullDatabase}`, fullDatabase, fullDatabaseUrl)],
      passwordHash,
      now,
    );
  }
  if (only !== "full") {
    written.tenth = await generate(
      "tenth",
      scaleTenth,
      [
        await postgresTarget(`PostgreSQL ${smallDatabase}`, smallDatabase, smallDatabaseUrl),
        ...(pgliteMeasured
          ? [await pgliteTarget(`PGlite ${path.relative(process.cwd(), pgliteDataDir)}`, pgliteDataDir)]
          : []),
      ],
      passwordHash,
      now,
    );
  }
  // What was generated, beside the results (one file per database name and part).
  writeFileSync(
    path.join(resultsDir, `dataset-${fullDatabase}-${only ?? "all"}.json`),
    `${JSON.stringify(written, null, 2)}\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const index = process.argv.indexOf("--only");
  const only = index >= 0 ? process.argv[index + 1] : undefined;
  if (only !== undefined && only !== "full" && only !== "tenth") {
    console.error("Usage: tsx bench/generate-data.ts [--only full|tenth]");
    process.exit(2);
  }
  generateData(only).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
