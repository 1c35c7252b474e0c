import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/client.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A file holding a dump of an in-memory PGlite with every migration applied; empty on PostgreSQL runs. */
    pgliteTemplate: string;
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
 * Vitest global setup of the server project. Initialising a PGlite cluster (its initdb, in WebAssembly) takes
 * several seconds and every API test file needs a fresh database; loading a dump of a migrated cluster takes a
 * fraction of that. The dump is made once per migrations digest and shared through `inject("pgliteTemplate")`.
 */
export default async function setup(project: TestProject): Promise<void> {
  if (process.env.DATABASE_URL) {
    project.provide("pgliteTemplate", "");
    return;
  }
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
}
