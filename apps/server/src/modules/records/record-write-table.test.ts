import {
  type AccessGroup,
  accessGroups,
  type Case,
  type CaseStage,
  caseStages,
  groupPermissions,
  type RecordArea,
  recordKinds,
  recordWriteRules,
} from "@vigil/contract";
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases } from "../../db/schema.js";
import {
  type Caller,
  caseIn as caseInStage,
  createClient,
  sampleCase,
  setRecordingPeriod,
  type Team,
  teamFor,
} from "../../testing/kits/cases-kit.js";
import {
  collectionOf,
  createItem,
  itemPath,
  sampleDataOf,
  writableStage,
  writerGroup,
} from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/**
 * The stage-and-group table of the contract (`recordWriteRules`), walked exhaustively: every area, in every stage,
 * as every group. Allowed → 2xx; without the permission → 403; in a stage that does not allow it → 409. Closed
 * and archived cases are read-only for everyone.
 */
let harness: TestApp;
let team: Team;

/**
 * A case in `stage` whose recording began a month ago: the sample time logs of a file reach further back with each
 * one written, and billable time must lie in the recording (records' time-log rules), which this table is not about.
 */
async function caseIn(...args: Parameters<typeof caseInStage>): Promise<Case> {
  const subject = await caseInStage(...args);
  if (subject.stage !== "intake") {
    const ended = subject.recordingEndedAt ? new Date(subject.recordingEndedAt) : null;
    await setRecordingPeriod(harness, subject.id, new Date(Date.now() - 30 * 86_400_000), ended);
  }
  return subject;
}
const subjects = new Map<CaseStage | "archived", Case>();

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "table");
  const clientId = (await createClient(team.coordinator)).id;
  for (const stage of caseStages) subjects.set(stage, await caseIn(harness, team, clientId, stage));
  const archived = await caseIn(harness, team, clientId, "monitoring");
  await harness.database.db.update(cases).set({ archivedAt: new Date() }).where(eq(cases.id, archived.id));
  subjects.set("archived", archived);
});
afterAll(() => harness.close());

const areas: RecordArea[] = ["patient-details", ...recordKinds];

/** One write of the area: a new item, or a new patient-details revision on the revision just read. */
async function write(area: RecordArea, subject: Case, caller: Caller): Promise<LightMyRequestResponse> {
  if (area !== "patient-details") return caller("POST", collectionOf(area, subject.id), { body: sampleDataOf(area) });
  const path = `/cases/monitoring/${subject.id}/patient-details`;
  const read = await team.admin("GET", path);
  const { patient } = sampleCase(subject.clientId);
  return caller("PUT", path, {
    ifMatch: read.headers.etag as string,
    body: { ...patient, reason: "Corrected from the hospital's record" },
  });
}

describe("the record write table", () => {
  for (const area of areas) {
    const rule = recordWriteRules[area];
    for (const stage of caseStages) {
      for (const group of accessGroups) {
        const permitted = groupPermissions[group].includes(rule.permission);
        const expected = !permitted ? 403 : !rule.stages.includes(stage) ? 409 : area === "patient-details" ? 200 : 201;
        it(`${area} in ${stage} as ${group}: ${expected}`, async () => {
          const response = await write(area, subjects.get(stage) as Case, team[group as AccessGroup]);
          expect(response.statusCode, response.body).toBe(expected);
          if (expected === 409) {
            expect(response.json().error.message).toMatch(stage === "closed" ? /closed.*read-only/ : /only while/);
          }
        });
      }
    }
  }
});

describe("archived cases", () => {
  for (const area of areas) {
    it(`refuses ${area} on an archived case with 409, even in a stage that allows it`, async () => {
      // Administrators hold every permission, so only the archive stands in the way.
      const response = await write(area, subjects.get("archived") as Case, team.admin);
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().error.message).toMatch(/archived/);
    });
  }
});

describe("what lists tell each caller", () => {
  for (const kind of recordKinds) {
    it(`says ${kind} is read-only once the case is closed, for every group, and still lists it`, async () => {
      const closed = subjects.get("closed") as Case;
      for (const group of accessGroups.filter((candidate) => candidate !== "developer")) {
        const response = await team[group]("GET", collectionOf(kind, closed.id));
        expect(response.statusCode, `${kind} as ${group}`).toBe(200);
        const { write: state } = response.json().data;
        expect(state.allowed, `${kind} as ${group}`).toBe(false);
      }
      const asAdmin = (await team.admin("GET", collectionOf(kind, closed.id))).json().data;
      expect(asAdmin.write.reason).toMatch(/closed/);
    });

    it(`refuses a ${kind} revision with 409 once its case has moved to a stage that does not allow it`, async () => {
      const subject = await caseIn(harness, team, (subjects.get("intake") as Case).clientId, writableStage[kind]);
      const writer = team[writerGroup[kind]];
      const item = await createItem(writer, kind, subject.id);
      await harness.database.db.update(cases).set({ stage: "closed" }).where(eq(cases.id, subject.id));
      const response = await writer("POST", itemPath(kind, subject.id, item.id), {
        body: { change: "delete", baseRevision: 1 },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.message).toMatch(/closed/);
    });
  }

  it("says when patient-details corrections need a reason", async () => {
    for (const stage of caseStages) {
      const subject = subjects.get(stage) as Case;
      const view = (await team.technologist("GET", `/cases/monitoring/${subject.id}/patient-details`)).json().data;
      expect(view.write.reasonRequired, stage).toBe(stage === "preview" || stage === "reviewed");
      expect(view.write.allowed, stage).toBe(stage !== "closed");
    }
  });
});
