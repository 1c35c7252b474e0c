import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../db/client.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { createAuditBatches } from "./audit-batches.js";
import type { AuditEvent } from "./record-audit.js";

let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness.close();
});

function read(action: string, index: number, extra: Partial<AuditEvent> = {}): AuditEvent {
  return {
    action,
    outcome: "success",
    actor: { sub: randomUUID(), username: `user-${index}` },
    target: { type: "case", id: `case-${index}` },
    ip: "203.0.113.7",
    userAgent: "bench/1",
    details: { route: "getCase", index },
    ...extra,
  };
}

type Row = {
  actor_username: string | null;
  target_id: string | null;
  user_agent: string | null;
  outcome: string;
  details: { index: number } | null;
  tx: string;
};

/** The rows of one action in the order of their calls, each with the transaction that wrote it. */
async function rowsOf(action: string): Promise<Row[]> {
  return queryRows<Row>(
    harness.database.db,
    sql`select actor_username, target_id, user_agent, outcome, details, xmin::text as tx
        from audit_events where action = ${action} order by (details->>'index')::int`,
  );
}

describe("audit rows written in batches", () => {
  it("writes every row of calls made together exactly once, in fewer statements than rows", async () => {
    const action = `test.batch.${randomUUID()}`;
    const record = createAuditBatches(harness.database.db);
    await Promise.all(Array.from({ length: 40 }, (_, index) => record(read(action, index))));

    const rows = await rowsOf(action);
    expect(rows.map((row) => row.details?.index)).toEqual(Array.from({ length: 40 }, (_, index) => index));
    expect(rows.map((row) => row.actor_username)).toEqual(rows.map((_, index) => `user-${index}`));
    const transactions = new Set(rows.map((row) => row.tx));
    // The first row leaves alone; the 39 that arrived while it was on its way share the next statement.
    expect(transactions.size).toBe(2);
  });

  it("resolves a lone call only once its row can be read", async () => {
    const action = `test.batch.${randomUUID()}`;
    const record = createAuditBatches(harness.database.db);
    await record(read(action, 1));
    expect((await rowsOf(action)).map((row) => row.target_id)).toEqual(["case-1"]);
  });

  it("splits a longer queue into statements of at most the limit", async () => {
    const action = `test.batch.${randomUUID()}`;
    const record = createAuditBatches(harness.database.db, 4);
    await Promise.all(Array.from({ length: 13 }, (_, index) => record(read(action, index))));

    const rows = await rowsOf(action);
    expect(rows).toHaveLength(13);
    const perTransaction = new Map<string, number>();
    for (const row of rows) perTransaction.set(row.tx, (perTransaction.get(row.tx) ?? 0) + 1);
    // 1 alone, then 12 waiting: three statements of four.
    expect([...perTransaction.values()]).toEqual([1, 4, 4, 4]);
  });

  it("refuses only the row the database refuses; its neighbours are written", async () => {
    const action = `test.batch.${randomUUID()}`;
    const record = createAuditBatches(harness.database.db);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) =>
        record(read(action, index, index === 3 ? { actor: { sub: "not-a-uuid", username: "broken" } } : {})),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    expect((await rowsOf(action)).map((row) => row.details?.index)).toEqual([0, 1, 2, 4, 5]);

    // The queue goes on after a failed statement.
    await record(read(action, 6));
    expect((await rowsOf(action)).map((row) => row.details?.index)).toEqual([0, 1, 2, 4, 5, 6]);
  });

  it("keeps text exactly as given: quotes, backslashes, Latin-1 header bytes, emoji, JSON-looking text", async () => {
    const action = `test.batch.${randomUUID()}`;
    const record = createAuditBatches(harness.database.db);
    const agents = [
      'Mozilla "5.0" \\ back',
      "Caf\u00e9 \u00ff\u00fe",
      "\u{1f9e0} brain",
      '{"not":"json"}',
      "x".repeat(600),
    ];
    await Promise.all(agents.map((userAgent, index) => record(read(action, index, { userAgent }))));
    expect((await rowsOf(action)).map((row) => row.user_agent)).toEqual([...agents.slice(0, 4), "x".repeat(512)]);
  });
});
