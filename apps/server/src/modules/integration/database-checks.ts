import { statfs } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client.js";
import { appliedMigrations, compareMigrations } from "../../db/migration-status.js";
import { databaseHint, fail, type IntegrationCheck, pass, round, skipped } from "./integration-check.js";

/** The database's checks: its round trip, its migrations, its clock against ours, and the embedded one's disk. */

/** A healthy database answers a trivial query in milliseconds; a second means load, network or a dying disk. */
const slowDatabaseMs = 1000;

export const databaseRoundTrip: IntegrationCheck = {
  id: "database-round-trip",
  title: "Database round trip",
  purpose: "One query to the database and back: is it up, how fast, which engine and version.",
  async run({ database }) {
    const started = performance.now();
    const [row] = await queryRows<{ version: string }>(
      database.db,
      sql`select current_setting('server_version') as version`,
    );
    const latencyMs = round(performance.now() - started, 2);
    const details = { engine: database.engine, serverVersion: row?.version ?? null, latencyMs };
    const engine = database.engine === "pglite" ? "Embedded PostgreSQL (PGlite)" : "PostgreSQL";
    if (latencyMs > slowDatabaseMs) {
      return fail(
        `${engine} ${details.serverVersion} answered, but took ${latencyMs} ms (over ${slowDatabaseMs} ms).`,
        "The database is slow to answer a trivial query: look at its load, its disk and the network to it.",
        details,
      );
    }
    return pass(`${engine} ${details.serverVersion} answered in ${latencyMs} ms.`, details);
  },
  stalled: () => ({ waitingFor: "the database to answer `select`", hint: databaseHint }),
};

const migrateHint = "Restart the server: migrations run at start (or run `npm run db:migrate -w @vigil/server`).";

export const migrationsCurrent: IntegrationCheck = {
  id: "migrations-current",
  title: "Database migrations",
  purpose: "The migrations applied in the database are exactly those this server version ships.",
  async run({ database }) {
    const appliedRows = await appliedMigrations(database.db);
    const comparison = compareMigrations(appliedRows ?? []);
    const { shipped, pending, changed, unknown } = comparison;
    const latestTag = shipped.at(-1)?.tag ?? null;
    if (!appliedRows) {
      return fail("The database has no migrations table: it was never migrated.", migrateHint, {
        applied: 0,
        expected: shipped.length,
        latestTag,
      });
    }
    const appliedTimes = new Set(appliedRows.map((row) => row.createdAt));
    const latestApplied = [...shipped].reverse().find((file) => appliedTimes.has(file.when));
    const details = {
      applied: comparison.applied,
      expected: shipped.length,
      latestTag,
      latestAppliedTag: latestApplied?.tag ?? null,
      pending: pending.map((file) => file.tag).join(", ") || null,
      changedAfterApplying: changed.map((file) => file.tag).join(", ") || null,
      unknownApplied: unknown,
    };
    if (unknown > 0) {
      return fail(
        `The database has ${unknown} migration(s) this server does not know: a newer release migrated it.`,
        "Run the release that migrated this database (or restore a backup taken before it); an older server " +
          "must not run against a newer schema.",
        details,
      );
    }
    if (pending.length > 0) {
      return fail(
        `${pending.length} of ${shipped.length} migrations are not applied (first: ${pending[0]?.tag}).`,
        `${migrateHint} A migration that stays pending has a journal time older than the last one applied, ` +
          "which drizzle skips: regenerate it.",
        details,
      );
    }
    if (changed.length > 0) {
      return fail(
        `Migration ${changed[0]?.tag} was edited after it was applied: the database may differ from the schema.`,
        "Never edit an applied migration: restore the shipped file and put the change in a new migration.",
        details,
      );
    }
    return pass(`All ${shipped.length} migrations are applied; the latest is ${latestTag}.`, details);
  },
  stalled: () => ({ waitingFor: "the database to list its applied migrations", hint: databaseHint }),
};

/** Tokens and audit times are written by the server and compared with the database's clock. */
const maxClockSkewMs = 2000;

export const clockSkew: IntegrationCheck = {
  id: "clock-skew",
  title: "Clock skew",
  purpose: "The database's clock and the server's agree, so token expiry and audit times mean the same everywhere.",
  async run({ database }) {
    const before = Date.now();
    // clock_timestamp(), not now(): now() is the transaction's start, which a pooled connection may hold back.
    const [row] = await queryRows<{ ms: number | string }>(
      database.db,
      sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`,
    );
    const after = Date.now();
    const databaseMs = Number(row?.ms);
    const roundTripMs = after - before;
    // The database read its clock somewhere in the round trip: compare with its middle, and forgive half of it.
    const skewMs = Math.round(databaseMs - (before + after) / 2);
    const uncertainMs = Math.ceil(roundTripMs / 2);
    const details = {
      skewMs,
      roundTripMs,
      databaseTime: new Date(databaseMs).toISOString(),
      serverTime: new Date(after).toISOString(),
      limitMs: maxClockSkewMs,
    };
    if (Math.abs(skewMs) - uncertainMs > maxClockSkewMs) {
      return fail(
        `The database's clock is ${Math.abs(skewMs)} ms ${skewMs > 0 ? "ahead of" : "behind"} the server's ` +
          `(limit ${maxClockSkewMs} ms).`,
        "Synchronise both machines' clocks with NTP (chrony or systemd-timesyncd): token expiry and audit " +
          "times depend on them agreeing.",
        details,
      );
    }
    return pass(`The clocks agree within ${Math.abs(skewMs)} ms (round trip ${roundTripMs} ms).`, details);
  },
  stalled: () => ({ waitingFor: "the database to read its clock", hint: databaseHint }),
};

const minFreeBytes = 1024 ** 3;
const minFreeShare = 0.05;

/** The folder itself, or the nearest parent that exists (the embedded database creates its folder at start). */
async function existingFolder(folder: string): Promise<string> {
  let current = folder;
  for (;;) {
    try {
      await statfs(current);
      return current;
    } catch (error) {
      const parent = path.dirname(current);
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || parent === current) throw error;
      current = parent;
    }
  }
}

export const dataFolderDisk: IntegrationCheck = {
  id: "data-folder-disk",
  title: "Data folder disk space",
  purpose: "The embedded database's folder has room to grow: a full disk stops every write.",
  async run({ database, config }) {
    if (database.engine !== "pglite") {
      return skipped(
        "The database is PostgreSQL (DATABASE_URL): its disk belongs to the database server and is watched there.",
        { engine: database.engine },
      );
    }
    const folder = await existingFolder(config.dataDir);
    const stats = await statfs(folder);
    const freeBytes = stats.bavail * stats.bsize;
    const totalBytes = stats.blocks * stats.bsize;
    const freePercent = totalBytes > 0 ? round((freeBytes / totalBytes) * 100) : 0;
    const details = { folder, freeBytes, totalBytes, freePercent, minFreeBytes, minFreePercent: minFreeShare * 100 };
    const free = `${round(freeBytes / 1024 ** 3, 2)} GiB (${freePercent} %)`;
    if (freeBytes < minFreeBytes || freeBytes < totalBytes * minFreeShare) {
      return fail(
        `Only ${free} free where the data folder lives (${folder}); the limit is 1 GiB and 5 %.`,
        "Free disk space or move DATA_DIR to a larger disk (stop the server, move the folder, set DATA_DIR).",
        details,
      );
    }
    return pass(`${free} free where the data folder lives (${folder}).`, details);
  },
  stalled: ({ config }) => ({
    waitingFor: `the file system to report on ${config.dataDir}`,
    hint: "The disk of DATA_DIR does not answer: check the mount (a network share?) and the machine's disks.",
  }),
};
