import { PGlite, TransactionAbortedError } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgliteConnection } from "./pglite-connection.js";

/**
 * The connection that keeps PGlite's statements parsed (pglite-connection.ts) answers as PGlite's own `query` does,
 * on one PGlite: the same rows, fields, counts and errors; its statements parsed once; each of a transaction's
 * statements its own answer when several are sent at once; the number kept bounded.
 */
let pglite: PGlite;
let connection: PgliteConnection;

beforeAll(async () => {
  pglite = await PGlite.create();
  connection = new PgliteConnection(pglite, { keptStatements: 4 });
  await connection.exec(`create table probe (id int primary key, label text unique, at timestamptz, doc jsonb,
    tags text[], done boolean, day date, amount numeric)`);
});

afterAll(async () => {
  await connection?.close();
});

/** The statements PostgreSQL holds parsed under a name, by their text. */
async function kept(): Promise<string[]> {
  const { rows } = await pglite.query<{ statement: string }>(
    "select statement from pg_prepared_statements where from_sql = false order by name",
  );
  return rows.map((row) => row.statement);
}

async function thrown(work: Promise<unknown>): Promise<Record<string, unknown>> {
  const error = await work.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Record<string, unknown>;
}

describe("PGlite's statements kept parsed", () => {
  it("answers with the rows, fields and counts of PGlite's own query, for values of every kind", async () => {
    const at = new Date("2026-03-01T10:00:00.000Z");
    const insert =
      "insert into probe (id, label, at, doc, tags, done, day, amount) values ($1, $2, $3, $4, $5, $6, $7, $8) returning *";
    const mine = await connection.query(insert, [1, "one", at, { a: [1, 2] }, ["x", "y"], true, "2026-03-01", "12.50"]);
    const theirs = await pglite.query(insert, [2, "two", at, { a: [1, 2] }, ["x", "y"], true, "2026-03-01", "12.50"]);
    expect({ ...mine, rows: mine.rows.map((row) => ({ ...(row as object), id: 0, label: "" })) }).toEqual({
      ...theirs,
      rows: theirs.rows.map((row) => ({ ...(row as object), id: 0, label: "" })),
    });
    expect(mine.rows[0]).toMatchObject({ at, doc: { a: [1, 2] }, tags: ["x", "y"], done: true, amount: "12.50" });

    const read = "select id, label, at, doc, null::int as nothing from probe where id = any($1) order by id";
    for (const rowMode of ["array", "object"] as const) {
      const options = { rowMode, parsers: { 1184: (value: string) => value } };
      expect(await connection.query(read, [[1, 2]], options)).toEqual(await pglite.query(read, [[1, 2]], options));
    }
    const update = "update probe set done = $1 where id = any($2)";
    expect(await connection.query(update, [false, [1, 2]])).toEqual(await pglite.query(update, [false, [1, 2]]));
  });

  it("parses a statement once and binds it with each call's values after that", async () => {
    const text = "select label from probe where id = $1";
    const labels = [];
    for (const id of [1, 2, 1]) labels.push((await connection.query<{ label: string }>(text, [id])).rows[0]?.label);
    expect(labels).toEqual(["one", "two", "one"]);
    expect((await kept()).filter((statement) => statement === text)).toHaveLength(1);
  });

  it("gives each of a transaction's statements its own answer when they are sent at once", async () => {
    const answers = await connection.transaction((tx) =>
      Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          tx.query<{ n: number }>(index % 2 ? "select $1::int as n" : "select $1::int + 0 as n", [index]),
        ),
      ),
    );
    expect(answers.map((answer) => answer.rows[0]?.n)).toEqual(Array.from({ length: 20 }, (_, index) => index));
  });

  it("keeps at most its limit of statements, closing the least recently used, and still answers the closed one", async () => {
    for (let index = 0; index < 10; index++) await connection.query(`select ${index}::int as n`);
    // The one beyond the limit is closed with the next statement parsed.
    expect((await kept()).length).toBeLessThanOrEqual(5);
    expect((await connection.query<{ n: number }>("select 0::int as n")).rows).toEqual([{ n: 0 }]);
  });

  it("reports PostgreSQL's error with its fields, as PGlite's own query does, and keeps the connection usable", async () => {
    const insert = "insert into probe (id, label) values ($1, $2)";
    const mine = await thrown(connection.query(insert, [30, "one"]));
    const theirs = await thrown(pglite.query(insert, [31, "one"]));
    const fields = ["code", "constraint", "table", "schema", "severity", "name", "constructor"];
    const pick = (error: Record<string, unknown>) => Object.fromEntries(fields.map((key) => [key, error[key]]));
    expect(pick(mine)).toEqual(pick(theirs));
    expect(mine).toMatchObject({ code: "23505", constraint: "probe_label_key", query: insert });

    expect(await thrown(connection.query("selec 1"))).toMatchObject({ code: "42601", query: "selec 1" });
    expect(await kept()).not.toContain("selec 1");
    expect((await connection.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
  });

  it("parses a kept statement again when its result's columns changed with its table", async () => {
    await connection.exec("create table shape (id int)");
    await connection.exec("insert into shape values (1)");
    expect((await connection.query("select * from shape")).rows).toEqual([{ id: 1 }]);
    await connection.exec("alter table shape add column label text default 'new'");
    expect((await connection.query("select * from shape")).rows).toEqual([{ id: 1, label: "new" }]);
  });

  it("holds the connection for a transaction, rolls it back when its work throws, and reports a failed commit", async () => {
    let outside: Promise<unknown> | undefined;
    const failing = connection.transaction(async (tx) => {
      await tx.query("insert into probe (id, label) values (40, 'rolled back')");
      outside = connection.query("select id from probe where id = 40");
      await new Promise((resolve) => setTimeout(resolve, 30));
      throw new Error("the work failed");
    });
    await expect(failing).rejects.toThrow("the work failed");
    expect(await outside).toMatchObject({ rows: [] });

    const aborted = connection.transaction(async (tx) => {
      await tx.query("insert into probe (id, label) values (41, 'one')").catch(() => undefined);
    });
    await expect(aborted).rejects.toBeInstanceOf(TransactionAbortedError);
    expect((await connection.query("select count(*)::int as n from probe where id = 41")).rows).toEqual([{ n: 0 }]);
  });
});
