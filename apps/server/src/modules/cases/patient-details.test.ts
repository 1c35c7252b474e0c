import type { Case, PatientDetailsHistory, PatientDetailsView } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { casePatientDetails, cases } from "../../db/schema.js";
import {
  auditRows,
  caseIn,
  createClient,
  sampleCase,
  type Team,
  teamFor,
  unknownId,
} from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "patients");
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

const pathOf = (caseId: string) => `/cases/monitoring/${caseId}/patient-details`;

function corrected(overrides: Record<string, unknown> = {}) {
  return { ...sampleCase(clientId).patient, mrn: "MRN-CORRECTED", lastName: "Okafor-Reyes", ...overrides };
}

describe("GET patient-details", () => {
  it("answers the current revision with the revision as ETag and what the caller may do", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const response = await team.technologist("GET", pathOf(subject.id));
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBe('"1"');
    const view: PatientDetailsView = response.json().data;
    expect(view).toMatchObject({
      caseId: subject.id,
      stage: "monitoring",
      current: { revision: 1, mrn: subject.patient?.mrn, reason: null, location: { unit: "Neuro ICU" } },
      write: { allowed: true, reason: null, reasonRequired: false },
    });
    const asBilling: PatientDetailsView = (await team.billing("GET", pathOf(subject.id))).json().data;
    expect(asBilling.write).toMatchObject({ allowed: false });
    const reads = await auditRows(harness, "patient-data.read", subject.id);
    expect(reads.some((row) => (row.details as { route: string }).route === "getPatientDetails")).toBe(true);
    expect((await team.admin("GET", pathOf(unknownId))).statusCode).toBe(404);
  });
});

describe("PUT patient-details", () => {
  it("appends a revision, copies MRN and name to the case row, and audits which fields changed", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const response = await team.technologist("PUT", pathOf(subject.id), {
      ifMatch: '"1"',
      body: corrected(),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers.etag).toBe('"2"');
    expect(response.json().data).toMatchObject({
      revision: 2,
      mrn: "MRN-CORRECTED",
      lastName: "Okafor-Reyes",
      author: { username: team.technologist.username },
    });
    const [row] = await harness.database.db.select().from(cases).where(eq(cases.id, subject.id));
    expect(row).toMatchObject({
      patientMrn: "MRN-CORRECTED",
      patientLastName: "Okafor-Reyes",
      version: subject.version + 1,
    });
    const detail: Case = (await team.coordinator("GET", `/cases/${subject.id}`)).json().data;
    expect(detail.patient).toMatchObject({ revision: 2, mrn: "MRN-CORRECTED" });
    const queue = (await team.coordinator("GET", "/cases/monitoring?search=mrn-corr")).json().data;
    expect(queue.items.map((item: { id: string }) => item.id)).toContain(subject.id);

    const [audit] = await auditRows(harness, "case.patient-details.update", subject.id);
    expect(audit?.details).toMatchObject({ revision: 2, baseRevision: 1, changedFields: ["mrn", "lastName"] });
    expect(JSON.stringify(audit?.details)).not.toContain("MRN-CORRECTED");
  });

  it("refuses a date of birth in the future with 400 on the field, writing no revision", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const response = await team.technologist("PUT", pathOf(subject.id), {
      ifMatch: '"1"',
      body: { ...corrected(), dateOfBirth: "2099-01-01" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.issues).toEqual([
      { path: "body.dateOfBirth", message: "must not be in the future" },
    ]);
    const current = await team.technologist("GET", pathOf(subject.id));
    expect(current.json().data.current.revision).toBe(1);
  });

  it("needs If-Match (428) and refuses a stale revision with 412 and the current one, writing nothing", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const missing = await team.technologist("PUT", pathOf(subject.id), { body: corrected() });
    expect(missing.statusCode).toBe(428);
    const first = await team.technologist("PUT", pathOf(subject.id), { ifMatch: 1, body: corrected() });
    expect(first.statusCode).toBe(200);
    const stale = await team.coordinator("PUT", pathOf(subject.id), {
      ifMatch: 1,
      body: corrected({ firstName: "Margo" }),
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.headers.etag).toBe('"2"');
    expect(stale.json().error.details).toMatchObject({
      currentVersion: 2,
      current: { revision: 2, firstName: "Jordan" },
    });
    const revisions = await harness.database.db
      .select()
      .from(casePatientDetails)
      .where(eq(casePatientDetails.caseId, subject.id));
    expect(revisions).toHaveLength(2);
  });

  it("needs a reason once monitoring has ended, and keeps it with the revision", async () => {
    const subject = await caseIn(harness, team, clientId, "preview");
    const view: PatientDetailsView = (await team.technologist("GET", pathOf(subject.id))).json().data;
    expect(view.write.reasonRequired).toBe(true);
    const without = await team.technologist("PUT", pathOf(subject.id), { ifMatch: 1, body: corrected() });
    expect(without.statusCode).toBe(400);
    expect(without.json().error.details.issues[0].path).toBe("body.reason");
    const blank = await team.technologist("PUT", pathOf(subject.id), {
      ifMatch: 1,
      body: corrected({ reason: "   " }),
    });
    expect(blank.statusCode).toBe(400);
    const reason = "MRN transposed on the transfer form; corrected from the hospital's record.";
    const withReason = await team.technologist("PUT", pathOf(subject.id), {
      ifMatch: 1,
      body: corrected({ reason }),
    });
    expect(withReason.statusCode, withReason.body).toBe(200);
    expect(withReason.json().data.reason).toBe(reason);

    const history: PatientDetailsHistory = (await team.reviewer("GET", `${pathOf(subject.id)}/revisions`)).json().data;
    expect(history.revisions.map((revision) => [revision.revision, revision.mrn, revision.reason])).toEqual([
      [1, subject.patient?.mrn, null],
      [2, "MRN-CORRECTED", reason],
    ]);
  });

  it("is refused on a closed case (409) and to groups without monitoring records (403)", async () => {
    const closed = await caseIn(harness, team, clientId, "closed");
    const response = await team.admin("PUT", pathOf(closed.id), {
      ifMatch: 1,
      body: corrected({ reason: "Late correction" }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/closed/);
    const open = await caseIn(harness, team, clientId, "monitoring");
    for (const group of ["reviewer", "billing", "developer"] as const) {
      const refused = await team[group]("PUT", pathOf(open.id), { ifMatch: 1, body: corrected() });
      expect(refused.statusCode, group).toBe(403);
    }
    const writes = await auditRows(harness, "patient-data.write", open.id);
    expect(writes.filter((row) => row.outcome === "denied")).toHaveLength(3);
  });
});
