import { createHash } from "node:crypto";
import { clientInputSchema, type ReportDocument, type ReportList, type ReportVersion } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportDisclosures } from "../../db/schema.js";
import { auditRows, caseIn, type Team, teamFor, unknownId } from "../../testing/kits/cases-kit.js";
import { sampleInterpretation } from "../../testing/kits/records-kit.js";
import {
  addAddendum,
  clientNamingRecipients,
  fhirSchemaErrors,
  importSignedInterpretation,
  pdfPagesText,
  type ReportContacts,
  reportTokensFor,
  signedCase,
} from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;
let contacts: ReportContacts;

beforeAll(async () => {
  harness = await createTestApp({ REPORT_COMPANY_NAME: "Northwind Neurodiagnostics" });
  team = await teamFor(harness, "reports");
  const named = await clientNamingRecipients(team);
  clientId = named.client.id;
  contacts = named.contacts;
}, 60_000);
afterAll(() => harness.close());

async function reportsOf(caseId: string): Promise<ReportList> {
  const response = await team.coordinator("GET", `/cases/${caseId}/reports`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

const disclosuresOf = (caseId: string) =>
  harness.database.db.select().from(reportDisclosures).where(eq(reportDisclosures.caseId, caseId));

describe("a signed interpretation becomes a report that leaves Vigil", () => {
  it("issues version 1 on signing, stores its PDF and e-mails each named contact with an address a link, never the PDF", async () => {
    const { caseId, interpretation } = await signedCase(harness, team, clientId);
    const list = await reportsOf(caseId);
    expect(list.items).toHaveLength(1);
    const [report] = list.items as [ReportVersion];
    expect(report).toMatchObject({
      interpretationId: interpretation.id,
      version: 1,
      kind: "signed",
      fhirStatus: "final",
      addendum: null,
      signedBy: { username: team.reviewer.username },
    });
    expect(report.pdf.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(report.deliveries.map((delivery) => [delivery.recipientName, delivery.status, delivery.sentBy])).toEqual([
      ["Dr. Nia Neuro", "sent", null],
      ["Dr. Omar Oncall", "sent", null],
    ]);
    expect(report.deliveries[0]?.destination).toMatch(/^n\*\*\*\w@hospital\.example$/);
    expect(list.recipients.map((recipient) => [recipient.name, recipient.email === null])).toEqual([
      ["Dr. Nia Neuro", false],
      ["Dr. Omar Oncall", false],
      ["Night desk", true],
    ]);
    expect(list.canSend).toBe(true);

    const caseNumber = list.caseNumber;
    const mail = await harness.app.messages.listOutbox({ recipient: `nia.${clientId.slice(0, 8)}@hospital.example` });
    const message = mail.find((entry) =>
      entry.subject?.startsWith(`EEG report ready: ${caseNumber}, 24-hour report, `),
    );
    expect(message?.body).toMatch(/http:\/\/vigil\.test\/#\/report\/[0-9a-f]{32}\.[0-9a-z]+\.[\w-]+/);
    expect(message?.body).toContain("Northwind Neurodiagnostics has signed the EEG report (24-hour)");
    // The e-mail leaves the building: no patient name, no MRN, no PDF.
    const caseRow = (await team.coordinator("GET", `/cases/${caseId}`)).json().data;
    expect(message?.body).not.toContain(caseRow.patient.lastName);
    expect(message?.body).not.toContain(caseRow.patient.mrn);
    expect(message?.body).not.toContain("%PDF");

    const delivered = (await disclosuresOf(caseId)).filter((row) => row.kind === "report-delivered");
    // The accounting names where each disclosure went, whole: it is a record for its readers, not a message.
    const suffix = clientId.slice(0, 8);
    expect(delivered.map((row) => row.recipient).sort()).toEqual([
      `Dr. Nia Neuro <nia.${suffix}@hospital.example>`,
      `Dr. Omar Oncall <omar.${suffix}@hospital.example>`,
    ]);
    expect(delivered.every((row) => row.patientMrn === caseRow.patient.mrn)).toBe(true);
    expect(await auditRows(harness, "report.issue", caseId)).toHaveLength(1);
    expect((await auditRows(harness, "report.delivery", caseId)).map((row) => row.outcome)).toEqual([
      "success",
      "success",
    ]);
  });

  it("serves the stored PDF and the FHIR DiagnosticReport, never cached, each audited and a disclosure", async () => {
    const { caseId } = await signedCase(harness, team, clientId);
    const [report] = (await reportsOf(caseId)).items as [ReportVersion];

    const pdf = await team.reviewer("GET", `/cases/${caseId}/reports/${report.id}/pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["cache-control"]).toBe("no-store");
    expect(pdf.headers["content-disposition"]).toMatch(
      /^inline; filename="CM-[\d-]+-eeg-24h-[\d-]+(-to-[\d-]+)?-v1\.pdf"/,
    );
    expect(createHash("sha256").update(pdf.rawPayload).digest("hex")).toBe(report.pdf.sha256);
    const text = (await pdfPagesText(pdf.rawPayload)).join("\n").replace(/\s+/g, " ");
    expect(text).toContain(sampleInterpretation().impression);
    expect(text).toContain(`Electronically signed by ${team.reviewer.username} Tester (${team.reviewer.username})`);

    const fhir = await team.reviewer("GET", `/cases/${caseId}/reports/${report.id}/fhir`);
    expect(fhir.statusCode, fhir.body).toBe(200);
    expect(fhir.headers["content-type"]).toBe("application/fhir+json; charset=utf-8");
    expect(fhir.headers["cache-control"]).toBe("no-store");
    const resource = fhir.json();
    expect(resource).toMatchObject({
      resourceType: "DiagnosticReport",
      id: report.interpretationId,
      status: "final",
      presentedForm: [{ url: `Binary/${report.id}` }],
    });
    expect(resource).not.toHaveProperty("contained");
    expect(fhirSchemaErrors(resource)).toEqual([]);
    expect(Buffer.from(resource.presentedForm[0].data, "base64").equals(pdf.rawPayload)).toBe(true);

    const exports = (await disclosuresOf(caseId)).filter((row) => row.kind !== "report-delivered");
    expect(exports.map((row) => [row.kind, row.byUsername]).sort()).toEqual([
      ["fhir-exported", team.reviewer.username],
      ["pdf-exported", team.reviewer.username],
    ]);
    const reads = (await auditRows(harness, "patient-data.read", caseId)).map(
      (row) => (row.details as { route?: string } | null)?.route,
    );
    expect(reads).toEqual(expect.arrayContaining(["getReportPdf", "getReportFhir", "listCaseReports"]));

    const missing = await team.reviewer("GET", `/cases/${caseId}/reports/${unknownId}/pdf`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe("not_found");
  });

  it("answers the printable page's document, which says what the stored PDF says, audited, uncached and a disclosure", async () => {
    const { caseId } = await signedCase(harness, team, clientId);
    const [report] = (await reportsOf(caseId)).items as [ReportVersion];
    const caseRow = (await team.coordinator("GET", `/cases/${caseId}`)).json().data;

    const response = await team.reviewer("GET", `/cases/${caseId}/reports/${report.id}/document`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const document: ReportDocument = response.json().data;
    expect(document).toMatchObject({
      id: report.id,
      caseId,
      version: 1,
      kind: "signed",
      title: report.title,
      caseNumber: caseRow.caseNumber,
      patient: { mrn: caseRow.patient.mrn },
      status: "Final report (version 1)",
    });
    expect(document.runningHeader).toContain(`MRN ${caseRow.patient.mrn} · ${caseRow.caseNumber}`);
    const impression = document.sections.find((section) => section.id === "impression");
    expect(impression?.blocks).toEqual([{ kind: "paragraph", text: sampleInterpretation().impression }]);

    const pdf = await team.reviewer("GET", `/cases/${caseId}/reports/${report.id}/pdf`);
    // Compared without white space: the PDF wraps lines after a "/" or a dash too.
    const bare = (text: string) => text.replace(/\s+/g, "");
    const text = bare((await pdfPagesText(pdf.rawPayload)).join("\n"));
    expect(text).toContain(bare(document.signature));
    expect(text).toContain(bare(document.title));

    const kinds = (await disclosuresOf(caseId)).filter((row) => row.kind !== "report-delivered");
    expect(kinds.map((row) => [row.kind, row.byUsername]).sort()).toEqual([
      ["page-exported", team.reviewer.username],
      ["pdf-exported", team.reviewer.username],
    ]);
    const reads = (await auditRows(harness, "patient-data.read", caseId)).map(
      (row) => (row.details as { route?: string } | null)?.route,
    );
    expect(reads).toContain("getReportDocument");

    expect((await team.reviewer("GET", `/cases/${caseId}/reports/${unknownId}/document`)).statusCode).toBe(404);
    expect((await team.reviewer("GET", `/cases/${unknownId}/reports/${report.id}/document`)).statusCode).toBe(404);
  });

  it("keeps a delivered report's bytes when the client is renamed afterwards", async () => {
    const { caseId } = await signedCase(harness, team, clientId);
    const [report] = (await reportsOf(caseId)).items as [ReportVersion];
    const before = (await team.coordinator("GET", `/cases/${caseId}/reports/${report.id}/pdf`)).rawPayload;
    const fhirBefore = (await team.coordinator("GET", `/cases/${caseId}/reports/${report.id}/fhir`)).json();

    const client = (await team.coordinator("GET", `/clients/${clientId}`)).json().data;
    const input = Object.fromEntries(Object.keys(clientInputSchema.shape).map((key) => [key, client[key]]));
    const renamed = await team.coordinator("PUT", `/clients/${clientId}`, {
      body: { ...input, name: `${client.name} (renamed)` },
      ifMatch: client.version,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);

    const after = (await team.coordinator("GET", `/cases/${caseId}/reports/${report.id}/pdf`)).rawPayload;
    expect(after.equals(before)).toBe(true);
    const fhir = (await team.coordinator("GET", `/cases/${caseId}/reports/${report.id}/fhir`)).json();
    expect(fhir).toEqual(fhirBefore);

    // The stored rows refuse to be rewritten at all.
    const rewrite = await harness.database.db
      .execute(`update report_versions set title = 'changed' where id = '${report.id}'`)
      .then(
        () => "updated",
        (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ""}`,
      );
    expect(rewrite).toMatch(/append-only: UPDATE on report_versions is refused/);
  });

  it("issues an amended version for each addendum, the original text kept, and delivers it too", async () => {
    const { caseId, interpretation } = await signedCase(harness, team, clientId);
    const original = (await reportsOf(caseId)).items[0] as ReportVersion;
    await addAddendum(
      team.reviewer,
      caseId,
      interpretation,
      "Video review: the second seizure had a clinical correlate.",
    );
    const list = await reportsOf(caseId);
    expect(list.items.map((item) => [item.version, item.kind, item.fhirStatus])).toEqual([
      [2, "addendum", "amended"],
      [1, "signed", "final"],
    ]);
    const [amended] = list.items as [ReportVersion];
    expect(amended.addendum?.text).toBe("Video review: the second seizure had a clinical correlate.");
    expect(amended.deliveries.map((delivery) => delivery.status)).toEqual(["sent", "sent"]);
    expect(list.items[1]?.pdf.sha256).toBe(original.pdf.sha256);

    const pdf = await team.coordinator("GET", `/cases/${caseId}/reports/${amended.id}/pdf`);
    const text = (await pdfPagesText(pdf.rawPayload)).join("\n").replace(/\s+/g, " ");
    expect(text).toContain("ADDENDUM (version 2)");
    expect(text).toContain(sampleInterpretation().impression);
    expect(text).toContain("Video review: the second seizure had a clinical correlate.");
    const fhir = (await team.coordinator("GET", `/cases/${caseId}/reports/${amended.id}/fhir`)).json();
    const originalFhir = (await team.coordinator("GET", `/cases/${caseId}/reports/${original.id}/fhir`)).json();
    // One report, one resource: the addendum is the same DiagnosticReport, amended, so a receiver replaces it.
    expect(fhir).toMatchObject({ id: originalFhir.id, identifier: originalFhir.identifier, status: "amended" });
    expect([originalFhir.meta.versionId, fhir.meta.versionId]).toEqual(["1", "2"]);
    expect(originalFhir.status).toBe("final");
    expect(fhirSchemaErrors(fhir)).toEqual([]);
  });

  it("re-sends a version with a new link to any contact of the client, and refuses others", async () => {
    const { caseId } = await signedCase(harness, team, clientId);
    const [report] = (await reportsOf(caseId)).items as [ReportVersion];
    const path = `/cases/${caseId}/reports/${report.id}/deliveries`;

    const resent = await team.coordinator("POST", path, { body: { contactIds: [contacts.unnamed] } });
    expect(resent.statusCode, resent.body).toBe(201);
    const version: ReportVersion = resent.json().data;
    const added = version.deliveries.find((delivery) => delivery.contactId === contacts.unnamed);
    expect(added).toMatchObject({ recipientName: "Billing office", status: "sent" });
    expect(added?.sentBy?.username).toBe(team.coordinator.username);
    expect(await reportTokensFor(harness, `billing.${clientId.slice(0, 8)}@hospital.example`)).not.toHaveLength(0);
    expect(await auditRows(harness, "report.resend", caseId)).toHaveLength(1);

    expect((await team.technologist("POST", path, { body: { contactIds: [contacts.unnamed] } })).statusCode).toBe(403);
    const noEmail = await team.coordinator("POST", path, { body: { contactIds: [contacts.withoutEmail] } });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().error.details.issues).toEqual([
      { path: "body.contactIds.0", message: "Night desk has no e-mail address" },
    ]);
    const stranger = await team.coordinator("POST", path, { body: { contactIds: [unknownId] } });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().error.details.issues[0].path).toBe("body.contactIds.0");
  });

  it("refuses a protocol that names another client's contact as a report recipient", async () => {
    const other = await clientNamingRecipients(team);
    const response = await team.coordinator("POST", `/clients/${clientId}/protocol/revisions`, {
      body: {
        ...(await team.coordinator("GET", `/clients/${clientId}/protocol`)).json().data.current,
        baseRevision: 2,
        changeNote: null,
        reportRecipients: { contactIds: [contacts.withEmail, other.contacts.withEmail] },
      },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.details.issues).toEqual([
      { path: "body.reportRecipients.contactIds.1", message: "is not a contact of this client" },
    ]);
  });

  it("stores the report of an interpretation signed before reports were kept when its list is read, without mailing it", async () => {
    const subject = await caseIn(harness, team, clientId, "reviewed");
    await importSignedInterpretation(harness, subject.id, team.reviewer, "Late note.");
    const check = async () =>
      (await team.billing("GET", `/cases/${subject.id}/billing-check`))
        .json()
        .data.checks.find((item: { id: string }) => item.id === "report-signed");
    expect(await check()).toMatchObject({
      passed: false,
      message: expect.stringMatching(/No signed report is stored/),
    });

    const list = await reportsOf(subject.id);
    expect(list.items.map((item) => [item.version, item.kind, item.deliveries.length])).toEqual([
      [2, "addendum", 0],
      [1, "signed", 0],
    ]);
    expect(await check()).toMatchObject({ passed: true, message: null });
    // Read again: nothing more is issued.
    expect((await reportsOf(subject.id)).items).toHaveLength(2);
  });
});

describe("the accounting of disclosures", () => {
  it("lists one patient's disclosures newest first, for administrators only, and exports them as CSV", async () => {
    const { caseId } = await signedCase(harness, team, clientId);
    const [report] = (await reportsOf(caseId)).items as [ReportVersion];
    await team.coordinator("GET", `/cases/${caseId}/reports/${report.id}/pdf`);
    const mrn = (await team.coordinator("GET", `/cases/${caseId}`)).json().data.patient.mrn as string;

    const page = await team.admin("GET", `/api/audit/disclosures?mrn=${encodeURIComponent(mrn)}`);
    expect(page.statusCode, page.body).toBe(200);
    const { items, total } = page.json().data;
    expect(total).toBe(3);
    expect(items[0]).toMatchObject({
      kind: "pdf-exported",
      caseId,
      reportId: report.id,
      reportVersion: 1,
      by: { username: team.coordinator.username },
      patient: { mrn },
    });
    expect(items.slice(1).map((item: { kind: string }) => item.kind)).toEqual(["report-delivered", "report-delivered"]);
    const suffix = clientId.slice(0, 8);
    expect(
      items
        .slice(1)
        .map((item: { recipient: string }) => item.recipient)
        .sort(),
    ).toEqual([`Dr. Nia Neuro <nia.${suffix}@hospital.example>`, `Dr. Omar Oncall <omar.${suffix}@hospital.example>`]);
    const filtered = await team.admin(
      "GET",
      `/api/audit/disclosures?mrn=${encodeURIComponent(mrn)}&clientId=${unknownId}`,
    );
    expect(filtered.json().data.total).toBe(0);
    const future = await team.admin("GET", `/api/audit/disclosures?mrn=${encodeURIComponent(mrn)}&from=2199-01-01`);
    expect(future.json().data.total).toBe(0);

    expect((await team.coordinator("GET", `/api/audit/disclosures?mrn=${mrn}`)).statusCode).toBe(403);
    expect((await team.coordinator("GET", `/api/audit/disclosures/export?mrn=${mrn}`)).statusCode).toBe(403);

    const csv = await team.admin("GET", `/api/audit/disclosures/export?mrn=${encodeURIComponent(mrn)}`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toContain(`attachment; filename="disclosures-${mrn}.csv"`);
    const lines = csv.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe("at,kind,patient_mrn,patient_name,client,case_number,report,report_version,recipient,by,ip");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/,PDF fetched by staff,/);
    expect(lines.slice(2).join("\n")).toContain(`,Dr. Nia Neuro <nia.${suffix}@hospital.example>,`);
    expect(await auditRows(harness, "patient-data.read")).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ details: expect.objectContaining({ route: "exportDisclosures" }) }),
      ]),
    );
  });

  it("keeps a spreadsheet from running a name as a formula", async () => {
    const { caseId } = await signedCase(harness, team, clientId);
    const patient = (await team.coordinator("GET", `/cases/${caseId}`)).json().data.patient;
    const rows = await harness.database.db
      .select()
      .from(reportDisclosures)
      .where(and(eq(reportDisclosures.caseId, caseId), eq(reportDisclosures.kind, "report-delivered")));
    expect(rows.length).toBeGreaterThan(0);
    await harness.database.db.insert(reportDisclosures).values({
      ...rows[0],
      id: undefined,
      patientName: '=HYPERLINK("http://evil.example","x")',
    } as typeof reportDisclosures.$inferInsert);
    const csv = await team.admin("GET", `/api/audit/disclosures/export?mrn=${encodeURIComponent(patient.mrn)}`);
    expect(csv.body).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
  });
});

describe("the API description", () => {
  it("describes the PDF, FHIR and CSV answers under their own media types, outside the envelope", async () => {
    const document = (await harness.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    const ok = (path: string, method = "get") => document.paths[path][method].responses["200"].content;
    expect(Object.keys(ok("/api/continuous-monitoring/cases/{id}/reports/{reportId}/pdf"))).toEqual([
      "application/pdf",
    ]);
    expect(Object.keys(ok("/api/continuous-monitoring/cases/{id}/reports/{reportId}/fhir"))).toEqual([
      "application/fhir+json",
    ]);
    expect(Object.keys(ok("/api/audit/disclosures/export"))).toEqual(["text/csv"]);
    expect(Object.keys(ok("/api/report-links/download", "post"))).toEqual(["application/pdf"]);
  });
});
