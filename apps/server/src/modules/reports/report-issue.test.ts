import {
  type InterpretationItem,
  type ReportDocument,
  type ReportList,
  type ReportVersion,
  type User,
  userEtag,
} from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseIn, sampleCase, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { insertFindingRow } from "../../testing/kits/finding-rows-kit.js";
import { findingsPath } from "../../testing/kits/findings-kit.js";
import { extractedPages } from "../../testing/kits/pdf-kit.js";
import { collectionOf, itemPath, sampleInterpretation } from "../../testing/kits/records-kit.js";
import { addAddendum, clientNamingRecipients, importSignedInterpretation } from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/**
 * What a signed report says and what it is called, issued through the API: the intake's clinical question and
 * medications in its history, an addendum that reprints the report as it was signed, and file names and e-mail
 * subjects that tell a case's 24-hour reports and its summary apart.
 */

let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp({ REPORT_COMPANY_NAME: "Northwind Neurodiagnostics" });
  team = await teamFor(harness, "report-issue");
  clientId = (await clientNamingRecipients(team)).client.id;
}, 60_000);
afterAll(() => harness.close());

async function sign(
  caseId: string,
  overrides: Parameters<typeof sampleInterpretation>[0] = {},
  signing: { impressionCode?: string | null } = {},
) {
  const created = await team.reviewer("POST", collectionOf("interpretation", caseId), {
    body: sampleInterpretation(overrides),
  });
  expect(created.statusCode, created.body).toBe(201);
  const item = created.json().data as InterpretationItem;
  const signed = await team.reviewer("POST", itemPath("interpretation", caseId, item.id), {
    body: { change: "sign", baseRevision: item.revision, ...signing },
  });
  expect(signed.statusCode, signed.body).toBe(201);
  return signed.json().data as InterpretationItem;
}

async function reportsOf(caseId: string): Promise<ReportVersion[]> {
  const response = await team.coordinator("GET", `/cases/${caseId}/reports`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data as ReportList).items;
}

async function pdfOf(caseId: string, reportId: string) {
  const response = await team.reviewer("GET", `/cases/${caseId}/reports/${reportId}/pdf`);
  expect(response.statusCode, response.body).toBe(200);
  return { text: extractedPages(response.rawPayload).join("\n"), disposition: response.headers["content-disposition"] };
}

async function documentOf(caseId: string, reportId: string): Promise<ReportDocument> {
  const response = await team.reviewer("GET", `/cases/${caseId}/reports/${reportId}/document`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

const between = (text: string, from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to));

describe("a signed report's history", () => {
  it("states the intake's indication and medications, as the case was opened with them", async () => {
    const patient = {
      ...sampleCase(clientId).patient,
      indication: "r/o NCSE after cardiac arrest",
      medications: "levetiracetam 1 g bid",
    };
    const subject = await caseIn(harness, team, clientId, "preview", { patient });
    await sign(subject.id);
    const [report] = (await reportsOf(subject.id)) as [ReportVersion];
    const history = between((await pdfOf(subject.id, report.id)).text, "Clinical history", "Technical description");
    expect(history).toContain("Indication: r/o NCSE after cardiac arrest");
    expect(history).toContain("Medications: levetiracetam 1 g bid");
  });
});

describe("the signature block", () => {
  it("prints the signer's name, credentials, NPI and certifications from then on; earlier PDFs never change", async () => {
    const before = await caseIn(harness, team, clientId, "preview");
    await sign(before.id);
    const [earlier] = (await reportsOf(before.id)) as [ReportVersion];
    const earlierPdf = await team.reviewer("GET", `/cases/${before.id}/reports/${earlier.id}/pdf`);

    const me = (await team.reviewer("GET", `/api/users/${team.reviewer.username}`)).json().data as User;
    const saved = await team.reviewer("PUT", `/api/users/${team.reviewer.username}/professional`, {
      ifMatch: userEtag(me),
      body: {
        familyName: "Okafor",
        givenNames: ["Adaeze"],
        npi: "1234567893",
        credentials: "MD, PhD",
        boardCertifications: ["ABPN Neurology", "ABPN Clinical Neurophysiology"],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const after = await caseIn(harness, team, clientId, "preview");
    await sign(after.id);
    const [report] = (await reportsOf(after.id)) as [ReportVersion];
    const lines = [
      "Adaeze Okafor, MD, PhD",
      "NPI 1234567893",
      "Board certified: ABPN Neurology; ABPN Clinical Neurophysiology",
    ];
    expect((await documentOf(after.id, report.id)).signatureDetails).toEqual(lines);
    const signature = (await pdfOf(after.id, report.id)).text.split("Electronically signed by")[1] ?? "";
    for (const line of lines) expect(signature.replace(/\s+/g, " ")).toContain(line);

    const again = await team.reviewer("GET", `/cases/${before.id}/reports/${earlier.id}/pdf`);
    expect(again.rawPayload.equals(earlierPdf.rawPayload)).toBe(true);
    expect((await documentOf(before.id, earlier.id)).signatureDetails ?? []).toEqual([]);
  });
});

describe("the coded impression", () => {
  it("chosen at signing, is printed in the impression and sent as the DiagnosticReport's first conclusionCode", async () => {
    const subject = await caseIn(harness, team, clientId, "preview");
    const signed = await sign(subject.id, {}, { impressionCode: "abnormal" });
    expect(signed.data.impressionCode).toBe("abnormal");
    const [report] = (await reportsOf(subject.id)) as [ReportVersion];
    const impression = between((await pdfOf(subject.id, report.id)).text, "Impression", "Clinical correlation");
    expect(impression).toContain("Coded impression: Abnormal EEG.");
    const fhir = await team.reviewer("GET", `/cases/${subject.id}/reports/${report.id}/fhir`);
    expect(fhir.statusCode, fhir.body).toBe(200);
    expect(fhir.json().conclusionCode[0]).toMatchObject({
      coding: [{ system: "http://snomed.info/sct", code: "263654008" }],
      text: "Abnormal EEG",
    });
  });

  it("refuses a code that is not in the list, naming the field", async () => {
    const subject = await caseIn(harness, team, clientId, "preview");
    const created = await team.reviewer("POST", collectionOf("interpretation", subject.id), {
      body: sampleInterpretation(),
    });
    const item = created.json().data as InterpretationItem;
    const refused = await team.reviewer("POST", itemPath("interpretation", subject.id, item.id), {
      body: { change: "sign", baseRevision: item.revision, impressionCode: "seizure-ish" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain("impressionCode");
  });
});

describe("an addendum", () => {
  it("reprints the report as signed: a finding open at the signing stays unacknowledged in the original part", async () => {
    const subject = await caseIn(harness, team, clientId, "preview");
    const raisedAt = new Date(Date.now() - 50 * 60_000);
    const finding = await insertFindingRow(harness.database.db, subject.id, {
      raisedAt,
      onsetAt: new Date(raisedAt.getTime() - 5 * 60_000),
      windowMinutes: 30,
      raisedBy: { sub: team.technologist.sub, username: team.technologist.username, name: null },
    });
    const signed = await sign(subject.id);

    const acknowledged = await team.coordinator("POST", `${findingsPath(subject.id)}/${finding.id}/acknowledgement`, {
      body: { name: "Dr. Phone", acknowledgedAt: new Date().toISOString(), readBackConfirmed: true },
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    await addAddendum(team.reviewer, subject.id, signed, "Seizure burden reviewed again; no change.");

    const [addendum, original] = (await reportsOf(subject.id)) as [ReportVersion, ReportVersion];
    expect([addendum.version, original.version]).toEqual([2, 1]);
    const originalText = between((await pdfOf(subject.id, original.id)).text, "Critical findings", "Impression");
    const addendumText = between((await pdfOf(subject.id, addendum.id)).text, "Critical findings", "Impression");
    expect(originalText).toContain("Not yet acknowledged when this report was signed.");
    expect(addendumText).toContain("Not yet acknowledged when this report was signed.");
    expect(addendumText).not.toContain("Acknowledged by");
    expect(addendumText).toBe(originalText);
    // Every section of the original part is the original's, word for word.
    expect((await documentOf(subject.id, addendum.id)).sections).toEqual(
      (await documentOf(subject.id, original.id)).sections,
    );
  });

  it("signed before reports were kept, reprints the findings as they stood at the signing, not as now", async () => {
    const subject = await caseIn(harness, team, clientId, "preview");
    const raisedAt = new Date(Date.now() - 90 * 60_000);
    const finding = await insertFindingRow(harness.database.db, subject.id, {
      raisedAt,
      onsetAt: new Date(raisedAt.getTime() - 5 * 60_000),
      windowMinutes: 30,
      raisedBy: { sub: team.technologist.sub, username: team.technologist.username, name: null },
    });
    // Signed an hour ago, no report stored; the finding acknowledged since.
    await importSignedInterpretation(harness, subject.id, team.reviewer, null);
    const acknowledged = await team.coordinator("POST", `${findingsPath(subject.id)}/${finding.id}/acknowledgement`, {
      body: { name: "Dr. Phone", acknowledgedAt: new Date().toISOString(), readBackConfirmed: true },
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    const listed = await team.reviewer("GET", collectionOf("interpretation", subject.id));
    expect(listed.statusCode, listed.body).toBe(200);
    const [signed] = listed.json().data.items as [InterpretationItem];
    await addAddendum(team.reviewer, subject.id, signed, "Reviewed again.");

    const [addendum] = (await reportsOf(subject.id)) as [ReportVersion];
    expect(addendum.version).toBe(2);
    const text = between((await pdfOf(subject.id, addendum.id)).text, "Critical findings", "Impression");
    expect(text).toContain("Not yet acknowledged when this report was signed.");
    expect(text).not.toContain("Acknowledged by");
  });
});

describe("a case's 24-hour report and its summary", () => {
  it("download under different names and are e-mailed under different subjects, each naming its kind and dates", async () => {
    const subject = await caseIn(harness, team, clientId, "preview");
    await sign(subject.id, { reportType: "daily" });
    await sign(subject.id, { reportType: "summary" });
    const versions = await reportsOf(subject.id);
    const byType = (type: "daily" | "summary") =>
      versions.find((version) => version.reportType === type) as ReportVersion;
    const day = /\d{4}-\d{2}-\d{2}/.source;
    const dailyName = (await pdfOf(subject.id, byType("daily").id)).disposition;
    const summaryName = (await pdfOf(subject.id, byType("summary").id)).disposition;
    const number = subject.caseNumber;
    expect(dailyName).toMatch(new RegExp(`^inline; filename="${number}-eeg-24h-${day}(-to-${day})?-v1\\.pdf"`));
    expect(summaryName).toMatch(new RegExp(`^inline; filename="${number}-eeg-summary-${day}(-to-${day})?-v1\\.pdf"`));

    const outbox = await harness.app.messages.listOutbox({ recipient: `nia.${clientId.slice(0, 8)}@hospital.example` });
    const subjects = outbox.map((message) => message.subject ?? "").filter((line) => line.includes(number));
    const date = /[A-Z][a-z]{2} \d{1,2}, \d{4}/.source;
    expect(subjects).toHaveLength(2);
    expect(subjects).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^EEG report ready: ${number}, 24-hour report, ${date}( to ${date})?$`)),
        expect.stringMatching(new RegExp(`^EEG report ready: ${number}, study summary, ${date}( to ${date})?$`)),
      ]),
    );
  });
});
