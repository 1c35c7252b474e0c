import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase, queryRows } from "./client.js";
import { isUniqueViolation } from "./unique-violation.js";

/**
 * PGlite on its own thread (pglite-thread.ts) behaves as PGlite in the caller's thread does, seen through Drizzle:
 * the same rows, the same errors, transactions that hold the one connection, NOTIFY, the dump, a clean close. Each
 * database starts from the run's migrated template (testing/pglite-template.ts) when there is one.
 */
const templateFile = inject("pgliteTemplate");
const template = () => (templateFile && existsSync(templateFile) ? new Blob([readFileSync(templateFile)]) : undefined);

let threaded: Database;
let inThread: Database;

beforeAll(async () => {
  [threaded, inThread] = await Promise.all([
    openDatabase({ kind: "pglite", thread: "worker", template: template() }),
    openDatabase({ kind: "pglite", thread: "main", template: template() }),
  ]);
  for (const database of [threaded, inThread]) {
    await database.db.execute(sql`create table probe (id int primary key, label text unique, at timestamptz)`);
  }
});

afterAll(async () => {
  await Promise.all([threaded?.close(), inThread?.close()]);
});

/** The error Drizzle throws, with the driver's error it wraps. */
async function failure(work: Promise<unknown>): Promise<{ cause: Record<string, unknown> }> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Error);
  return error as { cause: Record<string, unknown> };
}

describe("PGlite on its own thread", () => {
  it("answers with the same rows as PGlite in the caller's thread", async () => {
    const read = sql`select 7::int as n, 'x'::text as t, '2026-03-01 10:00:00+00'::timestamptz as at,
      '2026-03-01'::date as day, '1 day'::interval as span, '{"a":[1,2]}'::jsonb as doc, 12.50::numeric as money,
      array['a','b'] as list, null::int as nothing`;
    const [fromWorker, fromMain] = await Promise.all([queryRows(threaded.db, read), queryRows(inThread.db, read)]);
    expect(fromWorker).toEqual(fromMain);
    expect(fromWorker[0]).toMatchObject({ n: 7, doc: { a: [1, 2] }, day: "2026-03-01" });
  });

  it("reports a unique violation with the fields PGlite gives in the caller's thread", async () => {
    const insert = (database: Database) =>
      database.db.execute(sql`insert into probe (id, label) values (${1}, ${"same"}), (${2}, ${"same"})`);
    const [fromWorker, fromMain] = await Promise.all([failure(insert(threaded)), failure(insert(inThread))]);
    const fields = ["code", "constraint", "detail", "table", "schema", "severity", "message", "name"];
    const pick = (error: Record<string, unknown>) => Object.fromEntries(fields.map((key) => [key, error[key]]));
    expect(pick(fromWorker.cause)).toEqual(pick(fromMain.cause));
    expect(fromWorker.cause).toMatchObject({ code: "23505", constraint: "probe_label_key" });
    expect(fromWorker.cause.constructor).toBe(fromMain.cause.constructor);
    expect(isUniqueViolation(fromWorker, "probe_label_key")).toBe(true);
  });

  it("rolls a transaction back when its work throws, and keeps others off the connection until then", async () => {
    let outsideRead: Promise<unknown[]> | undefined;
    const transaction = threaded.db.transaction(async (tx) => {
      await tx.execute(sql`insert into probe (id, label) values (10, 'rolled back')`);
      // Sent while the transaction holds the connection: it must wait, and then see nothing of it.
      outsideRead = queryRows(threaded.db, sql`select id from probe where id = 10`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error("the work failed");
    });
    await expect(transaction).rejects.toThrow("the work failed");
    expect(await outsideRead).toEqual([]);
    await threaded.db.transaction(async (tx) => {
      await tx.execute(sql`insert into probe (id, label) values (11, 'kept')`);
    });
    expect(await queryRows(threaded.db, sql`select label from probe where id in (10, 11)`)).toEqual([
      { label: "kept" },
    ]);
  });

  it("fails the transaction's commit with PostgreSQL's error when a deferred constraint breaks", async () => {
    await threaded.db.execute(sql`create table deferred_probe (id int,
      constraint deferred_probe_key unique (id) deferrable initially deferred)`);
    const transaction = threaded.db.transaction(async (tx) => {
      await tx.execute(sql`insert into deferred_probe values (1), (1)`);
    });
    const error = await failure(transaction);
    expect(error.cause ?? error).toMatchObject({ code: "23505", constraint: "deferred_probe_key" });
    expect(await queryRows(threaded.db, sql`select id from deferred_probe`)).toEqual([]);
  });

  it("runs concurrent queries one at a time, in the order sent, while the event loop stays free", async () => {
    await threaded.db.execute(sql`create table arrivals (seq serial, sent int)`);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const slow = threaded.db.execute(sql`select pg_sleep(0.3)`);
    const inserts = Array.from({ length: 20 }, (_, sent) =>
      threaded.db.execute(sql`insert into arrivals (sent) values (${sent})`),
    );
    await Promise.all([slow, ...inserts]);
    clearInterval(timer);
    const rows = await queryRows<{ sent: number }>(threaded.db, sql`select sent from arrivals order by seq`);
    expect(rows.map((row) => row.sent)).toEqual(Array.from({ length: 20 }, (_, sent) => sent));
    // In the caller's thread pg_sleep would have held the loop for 300 ms; here the timer kept firing.
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  it("delivers NOTIFY to each listener after the commit, and nothing after it stops", async () => {
    const heard: string[] = [];
    const stop = await threaded.listen(
      ["probe_one", "probe_two"],
      (payload, channel) => heard.push(`${channel}:${payload}`),
      () => undefined,
    );
    await threaded.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify('probe_one', 'first')`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(heard).toEqual([]);
    });
    await threaded.db.execute(sql`select pg_notify('probe_two', 'second')`);
    await expect.poll(() => heard, { timeout: 10_000 }).toEqual(["probe_one:first", "probe_two:second"]);
    await stop();
    await threaded.db.execute(sql`select pg_notify('probe_one', 'unheard')`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toHaveLength(2);
  });

  it("dumps a cluster that a new database starts from", async () => {
    const client = (threaded.db as unknown as { $client: { dumpDataDir(c: "none"): Promise<Blob> } }).$client;
    await threaded.db.execute(sql`insert into probe (id, label) values (40, 'in the dump')`);
    const dump = await client.dumpDataDir("none");
    const copy = await openDatabase({ kind: "pglite", thread: "worker", template: dump });
    try {
      expect(await queryRows(copy.db, sql`select label from probe where id = 40`)).toEqual([{ label: "in the dump" }]);
    } finally {
      await copy.close();
    }
    // A second database's start: seconds of WebAssembly start-up, far more on a busy machine.
  }, 180_000);
});

describe("PGlite on its own thread, in a folder", () => {
  const folders: string[] = [];
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it("closes cleanly: the folder's lock is released, its data kept, and later calls refused", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "vigil-pglite-thread-"));
    folders.push(dataDir);
    const dump = template();
    if (dump) await (await PGlite.create({ dataDir: path.join(dataDir, "pglite"), loadDataDir: dump })).close();
    const first = await openDatabase({ kind: "pglite", thread: "worker", dataDir });
    await first.db.execute(sql`create table kept (value text)`);
    await first.db.execute(sql`insert into kept values ('still here')`);
    await first.close();
    await expect(first.db.execute(sql`select 1`)).rejects.toThrow();
    const reopened = await openDatabase({ kind: "pglite", thread: "worker", dataDir });
    try {
      expect(await queryRows(reopened.db, sql`select value from kept`)).toEqual([{ value: "still here" }]);
    } finally {
      await reopened.close();
    }
    // Three openings of a folder (the template's, then two): each is seconds of WebAssembly start-up, and on a
    // 2-core machine under a load of 30 each took 40-50 s.
  }, 300_000);
});
