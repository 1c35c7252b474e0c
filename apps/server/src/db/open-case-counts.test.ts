import type { Client } from "@vigil/contract";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIn, putInStage } from "../testing/kits/billing-kit.js";
import { caseIn, openCase, type Team, teamFor } from "../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { compareOpenCaseCounts, recomputeOpenCaseCounts } from "./open-case-counts.js";
import { cases, clientOpenCaseCounts } from "./schema.js";

/*
 * Each client's open-case count is kept by a trigger on `cases` (migration 0020): whatever writes a case — the
 * services, or SQL straight to the table as an import or an operator would — the kept count equals a count.
 */
let harness: TestApp;
let team: Team;
let first: Client;
let second: Client;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "open-counts");
  first = await clientIn(team, "UTC", "Open Counts First");
  second = await clientIn(team, "UTC", "Open Counts Second");
});
afterAll(() => harness.close());

async function expectCounts(expected: { first: number; second: number }) {
  const db = harness.database.db;
  expect(await compareOpenCaseCounts(db)).toEqual([]);
  const rows = await db
    .select()
    .from(clientOpenCaseCounts)
    .where(inArray(clientOpenCaseCounts.clientId, [first.id, second.id]));
  const kept = new Map(rows.map((row) => [row.clientId, row.openCases]));
  expect({ first: kept.get(first.id) ?? 0, second: kept.get(second.id) ?? 0 }).toEqual(expected);
}

describe("the open-case count kept per client", () => {
  it("follows every case written, moved, closed, re-opened, archived or moved to another client", async () => {
    const db = harness.database.db;
    await expectCounts({ first: 0, second: 0 });
    const intake = await openCase(team.coordinator, first.id);
    const monitoring = await caseIn(harness, team, first.id, "monitoring");
    const other = await caseIn(harness, team, first.id, "preview");
    await expectCounts({ first: 3, second: 0 });

    await putInStage(harness, monitoring.id, "reviewed");
    await expectCounts({ first: 3, second: 0 });
    await putInStage(harness, monitoring.id, "closed");
    await expectCounts({ first: 2, second: 0 });
    await putInStage(harness, monitoring.id, "reviewed");
    await expectCounts({ first: 3, second: 0 });

    await db.update(cases).set({ archivedAt: new Date() }).where(eq(cases.id, intake.id));
    await expectCounts({ first: 2, second: 0 });
    await db.update(cases).set({ clientId: second.id }).where(eq(cases.id, other.id));
    await expectCounts({ first: 1, second: 1 });
    // A closed case moved to another client counts for neither.
    await db.update(cases).set({ stage: "closed", clientId: first.id }).where(eq(cases.id, other.id));
    await expectCounts({ first: 1, second: 0 });
  });

  it("is found out when it drifts, and recomputed from the cases", async () => {
    const db = harness.database.db;
    await db.execute(sql`update client_open_case_counts set open_cases = open_cases + 5 where client_id = ${first.id}`);
    expect(await compareOpenCaseCounts(db)).toEqual([{ clientId: first.id, kept: 6, expected: 1 }]);
    await recomputeOpenCaseCounts(db);
    await expectCounts({ first: 1, second: 0 });
  });
});
