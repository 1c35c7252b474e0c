import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/client.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A file holding a dump of an in-memory PGlite with every migration applied; empty on PostgreSQL runs. */
    pgliteTemplate: string;
    /** On PostgreSQL runs, a migrated database to create each file's database from; empty on PGlite runs. */
    postgresTemplate: string;
    /** On PostgreSQL runs, the prefix of this run's databases (`<prefix>_…`), all dropped when the run ends. */
    postgresRunPrefix: string;
  }
}

const migrationsFolder = path.resolve(import.meta.dirname, "../db/migrations");

/** Names the template after the migrations' content, so a changed migration never reuses an old one. */
function migrationsDigest(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(migrationsFolder, { recursive: true, encoding: "utf8" }).sort()) {
    const full = path.join(migrationsFolder, file);
    if (file.endsWith(".sql") || file.endsWith(".json")) hash.update(file).update(readFileSync(full));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * Vitest global setup of the server project. Every API test file needs a fresh, migrated database, and making one
 * from nothing is the slowest part of most files: PGlite's initdb (in WebAssembly) takes several seconds, and the
 * migrations on a new PostgreSQL database took ~6 s a file on a loaded 2-core machine against ~0.6 s for a copy
 * (on an idle one both take ~0.4 s: the copy pays off when the workers and the database server share the cores).
 * So a migrated one is made once per migrations digest and shared: a PGlite dump through
 * `inject("pgliteTemplate")`, or a PostgreSQL template database through `inject("postgresTemplate")`.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const prefix = `vigil_test_r${randomBytes(4).toString("hex")}`;
    project.provide("pgliteTemplate", "");
    project.provide("postgresTemplate", await ensurePostgresTemplate(url, `vigil_test_template_${migrationsDigest()}`));
    project.provide("postgresRunPrefix", prefix);
    return () => dropRunDatabases(url, prefix);
  }
  project.provide("postgresTemplate", "");
  project.provide("postgresRunPrefix", "");
  const file = path.join(tmpdir(), `vigil-pglite-template-${migrationsDigest()}.tar`);
  if (!existsSync(file)) {
    const database = await openDatabase({ kind: "pglite" });
    const client = (database.db as unknown as { $client: { dumpDataDir(compression: "none"): Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir("none");
    await database.close();
    // Written aside and renamed, so a parallel run never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  project.provide("pgliteTemplate", file);
  return undefined;
}

/**
 * Drops the run's databases at its end, many at once. Each DROP DATABASE waits for a checkpoint: one per test file
 * in its last hook cost ~2 s on an idle machine, and minutes while another file bulk-loaded 100,000 cases; drops
 * made together share their checkpoints.
 */
async function dropRunDatabases(url: string, prefix: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  let names: string[];
  try {
    const found = await admin.query<{ datname: string }>(
      "select datname from pg_database where starts_with(datname, $1)",
      [`${prefix}_`],
    );
    names = found.rows.map((row) => row.datname);
  } finally {
    await admin.end();
  }
  const dropOne = async (name: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`drop database if exists ${name} with (force)`);
    } finally {
      await client.end();
    }
  };
  for (let start = 0; start < names.length; start += 24) {
    await Promise.all(names.slice(start, start + 24).map(dropOne));
  }
}

/**
 * The migrated template database `name` on the server at `url`, made if missing. It is migrated under a name of
 * its own and renamed once complete, so a run started alongside (another developer's, the same digest) never
 * copies a half-migrated one; whoever renames second drops their copy. Kept between runs, like the PGlite dump.
 */
async function ensurePostgresTemplate(url: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const exists = async () =>
      (await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1;
    if (await exists()) return name;
    const partial = `${name}_${process.pid}`;
    await admin.query(`drop database if exists ${partial} with (force)`);
    await admin.query(`create database ${partial}`);
    const partialUrl = new URL(url);
    partialUrl.pathname = `/${partial}`;
    const database = await openDatabase({ kind: "postgres", url: partialUrl.toString(), poolSize: 1 });
    await database.close();
    try {
      await admin.query(`alter database ${partial} rename to ${name}`);
    } catch (error) {
      await admin.query(`drop database if exists ${partial} with (force)`);
      if (!(await exists())) throw error;
    }
    return name;
  } finally {
    await admin.end();
  }
}
