import { type AccessGroup, type Case, type RecordKind, recordKinds } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseRecordRevisions, caseRecords, caseTimeLogs } from "../../db/schema.js";
import {
  auditRows,
  caseIn,
  createClient,
  setRecordingPeriod,
  type Team,
  teamFor,
  unknownId,
} from "../../testing/kits/cases-kit.js";
import {
  collectionOf,
  createItem,
  editedDataOf,
  itemPath,
  minutesAgo,
  sampleDataOf,
  sampleEvent,
  writableStage,
  writerGroup,
} from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;
const casesByStage = new Map<string, Case>();

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "records");
  clientId = (await createClient(team.coordinator)).id;
  for (const stage of ["monitoring", "preview", "reviewed"] as const) {
    casesByStage.set(stage, await caseIn(harness, team, clientId, stage));
  }
  // Recording for a month and still going, so the sample time logs (each an hour further back) lie in its period.
  const monitored = casesByStage.get("monitoring") as Case;
  await setRecordingPeriod(harness, monitored.id, new Date(Date.now() - 30 * 24 * 3_600_000));
});
afterAll(() => harness.close());

function subjectFor(kind: RecordKind): Case {
  return casesByStage.get(writableStage[kind]) as Case;
}

for (const kind of recordKinds) {
  describe(`${kind}: an item with append-only revisions`, () => {
    const writer = () => team[writerGroup[kind] as AccessGroup];

    it("creates revision 1 with its author, audited in the same transaction", async () => {
      const subject = subjectFor(kind);
      const item = await createItem<{ kind: string; createdBy: { username: string } }>(writer(), kind, subject.id);
      expect(item).toMatchObject({ kind, caseId: subject.id, revision: 1, deleted: false });
      expect(item.createdBy.username).toBe(writer().username);
      const [audit] = (await auditRows(harness, "case-record.create", subject.id)).filter(
        (row) => (row.details as { itemId: string }).itemId === item.id,
      );
      expect(audit).toMatchObject({ outcome: "success", actorUsername: writer().username, targetType: "case" });
      expect(audit?.details).toMatchObject({ kind, revision: 1, change: "create", caseNumber: subject.caseNumber });
      const writes = await auditRows(harness, "patient-data.write", subject.id);
      expect(writes.some((row) => (row.details as { status: number }).status === 201)).toBe(true);
    });

    it("appends an edit on the current base and refuses a stale base with 409 and the current item", async () => {
      const subject = subjectFor(kind);
      const item = await createItem(writer(), kind, subject.id);
      const edited = editedDataOf(kind, item.data);
      const first = await writer()("POST", itemPath(kind, subject.id, item.id), {
        body: { change: "edit", baseRevision: 1, data: edited },
      });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json().data).toMatchObject({ revision: 2, data: edited });

      const stale = await team.admin("POST", itemPath(kind, subject.id, item.id), {
        body: { change: "edit", baseRevision: 1, data: item.data },
      });
      expect(stale.statusCode, stale.body).toBe(409);
      const error = stale.json().error;
      expect(error.message).toMatch(/revision 2.*revision 1/);
      expect(error.details.currentRevision).toBe(2);
      expect(error.details.current).toMatchObject({ id: item.id, revision: 2, data: edited });

      // Nothing was overwritten: the stored item and its history are those of the first edit.
      const [row] = await harness.database.db.select().from(caseRecords).where(eq(caseRecords.id, item.id));
      expect(row?.revision).toBe(2);
      const revisions = await harness.database.db
        .select()
        .from(caseRecordRevisions)
        .where(eq(caseRecordRevisions.recordId, item.id));
      expect(revisions).toHaveLength(2);
    });

    it("deletes as a revision, hides the item unless asked, refuses edits until restored, and restores", async () => {
      const subject = subjectFor(kind);
      const item = await createItem(writer(), kind, subject.id);
      const path = itemPath(kind, subject.id, item.id);
      const deleted = await writer()("POST", path, {
        body: { change: "delete", baseRevision: 1, reason: "Duplicate" },
      });
      expect(deleted.statusCode, deleted.body).toBe(201);
      expect(deleted.json().data).toMatchObject({ revision: 2, deleted: true, data: item.data });

      const listed = (await writer()("GET", collectionOf(kind, subject.id))).json().data;
      expect(listed.items.map((entry: { id: string }) => entry.id)).not.toContain(item.id);
      const all = (await writer()("GET", `${collectionOf(kind, subject.id)}?includeDeleted=true`)).json().data;
      expect(all.items.find((entry: { id: string }) => entry.id === item.id)?.deleted).toBe(true);

      const edit = await writer()("POST", path, {
        body: { change: "edit", baseRevision: 2, data: editedDataOf(kind, item.data) },
      });
      expect(edit.statusCode).toBe(409);
      expect(edit.json().error.message).toMatch(/restore it first/);
      const again = await writer()("POST", path, { body: { change: "delete", baseRevision: 2 } });
      expect(again.statusCode).toBe(409);

      const restored = await writer()("POST", path, { body: { change: "restore", baseRevision: 2 } });
      expect(restored.statusCode, restored.body).toBe(201);
      expect(restored.json().data).toMatchObject({ revision: 3, deleted: false, data: item.data });
      const twice = await writer()("POST", path, { body: { change: "restore", baseRevision: 3 } });
      expect(twice.statusCode).toBe(409);
      expect(twice.json().error.message).toMatch(/not deleted/);
    });

    it("shows every revision oldest first with author, time and reason, and audits the read", async () => {
      const subject = subjectFor(kind);
      const item = await createItem(writer(), kind, subject.id);
      const path = itemPath(kind, subject.id, item.id);
      await writer()("POST", path, { body: { change: "delete", baseRevision: 1, reason: "Entered twice" } });
      await team.admin("POST", path, { body: { change: "restore", baseRevision: 2 } });
      const response = await team.developer("GET", path);
      expect(response.statusCode).toBe(403);
      const history = (await team.billing("GET", path)).json().data;
      expect(history.item).toMatchObject({ id: item.id, revision: 3, deleted: false });
      expect(
        history.revisions.map((revision: { revision: number; change: string; reason: string | null }) => [
          revision.revision,
          revision.change,
          revision.reason,
        ]),
      ).toEqual([
        [1, "create", null],
        [2, "delete", "Entered twice"],
        [3, "restore", null],
      ]);
      expect(history.revisions[2].author.username).toBe(team.admin.username);
      expect(history.revisions.every((revision: { itemId: string }) => revision.itemId === item.id)).toBe(true);
      const reads = await auditRows(harness, "patient-data.read", subject.id);
      expect(reads.some((row) => (row.details as { url: string }).url === `/api/continuous-monitoring${path}`)).toBe(
        true,
      );
    });

    it("answers 404 for an unknown case, an unknown item, and an item of another case or kind", async () => {
      const subject = subjectFor(kind);
      const item = await createItem(writer(), kind, subject.id);
      const other = casesByStage.get(kind === "billing-note" ? "monitoring" : "reviewed") as Case;
      const otherKind = kind === "case-note" ? "event" : "case-note";
      for (const path of [
        itemPath(kind, unknownId, item.id),
        itemPath(kind, subject.id, unknownId),
        itemPath(kind, other.id, item.id),
        itemPath(otherKind, subject.id, item.id),
      ]) {
        expect((await team.admin("GET", path)).statusCode, path).toBe(404);
      }
      expect((await team.admin("GET", collectionOf(kind, unknownId))).statusCode).toBe(404);
      const revise = await team.admin("POST", itemPath(kind, subject.id, unknownId), {
        body: { change: "delete", baseRevision: 1 },
      });
      expect(revise.statusCode).toBe(404);
    });

    it("lists with what the caller may write and pages the items", async () => {
      const subject = subjectFor(kind);
      await createItem(writer(), kind, subject.id);
      const list = (await writer()("GET", `${collectionOf(kind, subject.id)}?limit=1`)).json().data;
      expect(list).toMatchObject({ caseId: subject.id, stage: subject.stage, limit: 1, offset: 0 });
      expect(list.write).toEqual({ allowed: true, reason: null, reasonRequired: false });
      expect(list.items).toHaveLength(1);
      expect(list.total).toBeGreaterThanOrEqual(1);
      const asDeveloper = await team.developer("GET", collectionOf(kind, subject.id));
      expect(asDeveloper.statusCode).toBe(403);
      const reader = kind === "billing-note" ? team.technologist : team.billing;
      const forReader = (await reader("GET", collectionOf(kind, subject.id))).json().data;
      expect(forReader.write.allowed).toBe(false);
      expect(forReader.write.reason).toMatch(/not yours to change/);
    });
  });
}

describe("two people revising the same item at once", () => {
  it("lets exactly one of several revisions on the same base through; the others get 409", async () => {
    const subject = subjectFor("case-note");
    const item = await createItem(team.technologist, "case-note", subject.id);
    const callers = [team.technologist, team.coordinator, team.admin, team.reviewer, team.technologist2];
    const responses = await Promise.all(
      callers.map((caller, index) =>
        caller("POST", itemPath("case-note", subject.id, item.id), {
          body: { change: "edit", baseRevision: 1, data: { category: "issue", body: `Edit number ${index}` } },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    const history = (await team.admin("GET", itemPath("case-note", subject.id, item.id))).json().data;
    expect(history.revisions).toHaveLength(2);
    const winner = responses.find((response) => response.statusCode === 201)?.json().data;
    expect(history.item.data).toEqual(winner.data);
  });
});

describe("list order", () => {
  it("lists events newest first by when they occurred, not when they were written", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const older = await createItem(team.technologist, "event", subject.id, sampleEvent({ occurredAt: minutesAgo(90) }));
    const newer = await createItem(team.technologist, "event", subject.id, sampleEvent({ occurredAt: minutesAgo(5) }));
    const oldest = await createItem(
      team.technologist,
      "event",
      subject.id,
      sampleEvent({ occurredAt: minutesAgo(300) }),
    );
    const list = (await team.technologist("GET", collectionOf("event", subject.id))).json().data;
    expect(list.items.map((item: { id: string }) => item.id)).toEqual([newer.id, older.id, oldest.id]);
    const page = (await team.technologist("GET", `${collectionOf("event", subject.id)}?limit=1&offset=1`)).json().data;
    expect(page.items.map((item: { id: string }) => item.id)).toEqual([older.id]);
    expect(page.total).toBe(3);
  });
});

describe("time-log projection", () => {
  it("keeps case_time_logs equal to each log's current state, deleted flag included", async () => {
    const subject = subjectFor("time-log");
    const item = await createItem(team.technologist, "time-log", subject.id);
    const projection = async () =>
      (await harness.database.db.select().from(caseTimeLogs).where(eq(caseTimeLogs.recordId, item.id)))[0];
    expect(await projection()).toMatchObject({
      caseId: subject.id,
      technologistUsername: team.technologist.username,
      mode: "continuous",
      deleted: false,
    });
    const edited = { ...item.data, mode: "intermittent", billable: false };
    await team.technologist("POST", itemPath("time-log", subject.id, item.id), {
      body: { change: "edit", baseRevision: 1, data: edited },
    });
    expect(await projection()).toMatchObject({ mode: "intermittent", billable: false, deleted: false });
    await team.coordinator("POST", itemPath("time-log", subject.id, item.id), {
      body: { change: "delete", baseRevision: 2 },
    });
    // Deleted by someone else, the log is still the technologist's.
    expect(await projection()).toMatchObject({ deleted: true, technologistUsername: team.technologist.username });
  });
});

describe("input the schema cannot judge", () => {
  it("names an invalid field with 400 and writes nothing", async () => {
    const subject = subjectFor("impedance");
    const before = await harness.database.db.select().from(caseRecords);
    const response = await team.technologist("POST", collectionOf("impedance", subject.id), {
      body: { checkedAt: "yesterday", values: [] },
    });
    expect(response.statusCode).toBe(400);
    const paths = response.json().error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["body.checkedAt", "body.values"]));
    const future = await team.technologist("POST", collectionOf("impedance", subject.id), {
      body: { ...(sampleDataOf("impedance") as object), checkedAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.details.issues[0].path).toBe("body.checkedAt");
    expect(await harness.database.db.select().from(caseRecords)).toHaveLength(before.length);
  });
});
