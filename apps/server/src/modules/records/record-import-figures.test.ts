import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareBillableFigures } from "../../db/billable-figures.js";
import { billableSecondCarries, billableSecondsDaily } from "../../db/schema.js";
import { caseIn, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { sampleTimeLog } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { importRecordHistory } from "./record-import.js";

/*
 * Imported histories (the demo seed) write the time-log projection through saveTimeLog like the API does, so the
 * billable figures kept on write (db/billable-figures.ts) follow them: after an import whose log was deleted and
 * restored, the kept rows equal a recomputation from the logs.
 */

let harness: TestApp;
let team: Team;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "import-figures");
});
afterAll(() => harness.close());

describe("importing time-log histories", () => {
  it("keeps the billable figures equal to the imported logs", async () => {
    const clientId = (await createClient(team.coordinator)).id;
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const author = { sub: null, username: "imported", name: "Imported Tech" };
    // Over a midnight with fractions of a second at both ends (a carried second in any zone a whole hour from UTC).
    const data = sampleTimeLog({ startedAt: "2026-11-05T04:59:59.100Z", endedAt: "2026-11-06T05:00:00.950Z" });
    const at = (hour: number) => new Date(`2026-11-06T0${hour}:00:00.000Z`);
    const recordId = await harness.database.db.transaction((tx) =>
      importRecordHistory(tx, {
        caseId: subject.id,
        kind: "time-log",
        revisions: [
          { change: "create", data, at: at(6), author },
          { change: "delete", data, at: at(7), author, deleted: true },
          { change: "restore", data, at: at(8), author, deleted: false },
        ],
      }),
    );
    expect(recordId).toBeTruthy();
    expect(await compareBillableFigures(harness.database.db)).toEqual([]);
    expect((await harness.database.db.select().from(billableSecondsDaily)).length).toBeGreaterThan(0);
    expect((await harness.database.db.select().from(billableSecondCarries)).map((row) => row.recordId)).toEqual([
      recordId,
    ]);
  });
});
