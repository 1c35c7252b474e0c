import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { recordSystemDisclosures, type SystemDisclosure } from "../reports/disclosures-service.js";
import { type ReportInputs, studyTypeLabel } from "../reports/reports-service.js";
import {
  type FhirCaseRow,
  findCasesPage,
  findLatestReportsPage,
  findPatientDetails,
  findProfileAuthority,
  findReportsOfCases,
  findReportVersions,
  findSignerOfClient,
  findVersionsOfReports,
} from "./fhir-read-repository.js";
import type { ReadableType } from "./fhir-read-search.js";
import type { FhirResource, FhirSettings } from "./fhir-resource-common.js";
import { observationReferencesOf, observationResources, reportIdOfObservation } from "./fhir-resource-observation.js";
import { type CaseFacts, serviceRequestResource, taskResource } from "./fhir-resource-order.js";
import { encounterReference, patientResource, practitionerResource } from "./us-core-patient.js";
import {
  binaryResource,
  diagnosticReportResource,
  documentReferenceResource,
  type ReportCaseFacts,
  type ReportVersionFacts,
} from "./us-core-report.js";

/**
 * What the reads and searches of the hospital's FHIR API share (fhir-read-service.ts): loading the facts of cases,
 * reports and findings within one client, and the disclosure and audit rows of what was returned.
 */

export type FhirReader = {
  clientId: string;
  /** The hospital system as the accounting of disclosures names it. */
  recipient: string;
  /** The registration the token belongs to: the audit row's actor. */
  systemClientId: string;
  ip?: string | undefined;
  /** `https://…/fhir/R4`: the Bundle's links and full URLs. */
  baseUrl: string;
};

export type Loaded = { resource: FhirResource; disclosure?: SystemDisclosure };

export function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

export function notFound(type: string, id: string): AppError {
  return new AppError("not_found", `${type}/${id} is not known to this server.`, { fhir: { issueCode: "not-found" } });
}

export async function caseFactsOf(db: Db, clientId: string, rows: FhirCaseRow[]): Promise<CaseFacts[]> {
  const ids = rows.map((row) => row.id);
  const [details, reports, profileAuthority] = await Promise.all([
    findPatientDetails(db, ids),
    findReportsOfCases(db, ids),
    findProfileAuthority(db, clientId),
  ]);
  const detailsOf = new Map(details.map((row) => [row.caseId, row]));
  return rows.map((row) => {
    const detail = detailsOf.get(row.id);
    const order = row.order?.placerOrderNumber ? row.order : null;
    return {
      caseId: row.id,
      clientId: row.clientId,
      clientName: row.clientName,
      mrn: row.patientMrn ?? "",
      mrnAuthority: order?.mrnAssigningAuthority ?? profileAuthority,
      firstName: row.patientFirstName ?? "",
      lastName: row.patientLastName ?? "",
      dateOfBirth: detail?.dateOfBirth ?? null,
      sex: detail?.sex ?? "unknown",
      updatedAt: row.updatedAt.toISOString(),
      caseNumber: row.caseNumber,
      stage: row.stage,
      priority: row.priority,
      studyTypeLabel: studyTypeLabel(row.studyType),
      hasVideo: row.hasVideo,
      taken: row.taken,
      archivedAt: iso(row.archivedAt),
      recordingStartedAt: iso(row.recordingStartedAt),
      recordingEndedAt: iso(row.recordingEndedAt),
      createdAt: row.createdAt.toISOString(),
      referringPhysician: detail?.referringPhysician ?? null,
      indication: detail?.indication ?? null,
      order: order
        ? {
            placerOrderNumber: order.placerOrderNumber as string,
            visitNumber: order.visitNumber ?? null,
            orderingProvider: order.orderingProvider ?? null,
            reason: order.reason ?? null,
            receivedAt: (order.receivedAt as Date).toISOString(),
            cancelledAt: iso(order.cancelledAt ?? null),
            cancelReason: order.cancelReason ?? null,
          }
        : null,
      reports: reports
        .filter((report) => report.caseId === row.id)
        .sort((a, b) => a.issuedAt.getTime() - b.issuedAt.getTime())
        .map((report) => ({ id: report.interpretationId, reportType: report.reportType })),
    };
  });
}

export function caseDisclosure(facts: CaseFacts, reportId: string | null = null): SystemDisclosure {
  return {
    patientMrn: facts.mrn,
    patientName: `${facts.lastName}, ${facts.firstName}`,
    caseId: facts.caseId,
    clientId: facts.clientId,
    reportId,
  };
}

export function caseResource(
  settings: FhirSettings,
  type: "Patient" | "ServiceRequest" | "Task",
  facts: CaseFacts,
): Loaded {
  const encounter = encounterReference(settings, facts.clientId, facts.order?.visitNumber ?? null);
  const resource =
    type === "Patient"
      ? patientResource(settings, facts)
      : type === "ServiceRequest"
        ? serviceRequestResource(settings, facts, encounter)
        : taskResource(settings, facts, encounter);
  return { resource, disclosure: caseDisclosure(facts) };
}

export function reportCaseOf(settings: FhirSettings, facts: CaseFacts): ReportCaseFacts {
  return {
    caseId: facts.caseId,
    clientId: facts.clientId,
    mrnAuthority: facts.mrnAuthority,
    encounter: encounterReference(settings, facts.clientId, facts.order?.visitNumber ?? null),
  };
}

export type VersionRow = Awaited<ReturnType<typeof findReportVersions>>[number];

/** Versions with their place among their report's versions and their cases' facts, in the order of `ids`. */
export async function versionFactsOf(db: Db, clientId: string, ids: readonly string[]) {
  const rows = await findReportVersions(db, clientId, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = ids.flatMap((id) => byId.get(id) ?? []);
  const siblings = await findVersionsOfReports(db, [...new Set(ordered.map((row) => row.interpretationId))]);
  const caseRows = await findCasesPage(
    db,
    clientId,
    { ids: [...new Set(ordered.map((row) => row.caseId))] },
    { limit: maxIds },
  );
  const cases = new Map((await caseFactsOf(db, clientId, caseRows)).map((facts) => [facts.caseId, facts]));
  return ordered.flatMap((row: VersionRow) => {
    const facts = cases.get(row.caseId);
    if (!facts) return [];
    const mine = siblings.filter((sibling) => sibling.interpretationId === row.interpretationId);
    const index = mine.findIndex((sibling) => sibling.id === row.id);
    const version: ReportVersionFacts = {
      id: row.id,
      interpretationId: row.interpretationId,
      version: row.version,
      kind: row.kind,
      issuedAt: row.issuedAt.toISOString(),
      inputs: row.inputs as unknown as ReportInputs,
      pdf: row.pdf,
      previousVersionId: index > 0 ? (mine[index - 1]?.id ?? null) : null,
      latest: index === mine.length - 1,
    };
    return [{ version, facts, row }];
  });
}

/** A case's search never reaches more cases than this at once through a patient's identifier. */
export const maxIds = 1000;

export function reportDisclosure(facts: CaseFacts, row: VersionRow): SystemDisclosure {
  return {
    patientMrn: row.patientMrn,
    patientName: row.patientName,
    caseId: facts.caseId,
    clientId: facts.clientId,
    reportId: row.id,
  };
}

export async function loadVersions(
  db: Db,
  settings: FhirSettings,
  clientId: string,
  type: "DiagnosticReport" | "DocumentReference" | "Binary",
  ids: readonly string[],
): Promise<Loaded[]> {
  return (await versionFactsOf(db, clientId, ids)).map(({ version, facts, row }) => {
    const resource =
      type === "DiagnosticReport"
        ? diagnosticReportResource(settings, version, reportCaseOf(settings, facts), {
            results: observationReferencesOf(version),
          })
        : type === "DocumentReference"
          ? documentReferenceResource(settings, version, reportCaseOf(settings, facts))
          : binaryResource(version);
    return { resource, disclosure: reportDisclosure(facts, row) };
  });
}

/** The Observations of reports (their latest versions, by version id), each with its report's disclosure. */
export async function loadObservations(
  db: Db,
  settings: FhirSettings,
  clientId: string,
  versionIds: readonly string[],
) {
  return (await versionFactsOf(db, clientId, versionIds)).flatMap(({ version, facts, row }) =>
    observationResources(settings, version, reportCaseOf(settings, facts)).map(
      (resource): Loaded => ({ resource, disclosure: reportDisclosure(facts, row) }),
    ),
  );
}

export async function disclose(db: Db, reader: FhirReader, loaded: Loaded[]): Promise<void> {
  const disclosures = loaded.flatMap((entry) => (entry.disclosure ? [entry.disclosure] : []));
  await recordSystemDisclosures(db, disclosures, { recipient: reader.recipient, ip: reader.ip ?? null });
}

export async function audit(
  db: Db,
  reader: FhirReader,
  action: "fhir.read" | "fhir.search",
  outcome: "success" | "failure",
  type: string,
  details: Record<string, unknown>,
  id?: string,
): Promise<void> {
  await recordAudit(db, {
    action,
    outcome,
    actor: { username: `system:${reader.systemClientId}` },
    target: id ? { type, id } : undefined,
    ip: reader.ip,
    details: { clientId: reader.clientId, resourceType: type, ...details },
  });
}

export async function loadOne(db: Db, settings: FhirSettings, clientId: string, type: ReadableType, id: string) {
  if (type === "Patient" || type === "ServiceRequest" || type === "Task") {
    const rows = await findCasesPage(db, clientId, { ids: [id] }, { limit: 1 });
    const [facts] = await caseFactsOf(db, clientId, rows);
    return facts ? caseResource(settings, type, facts) : undefined;
  }
  if (type === "DiagnosticReport") {
    const { rows } = await findLatestReportsPage(db, clientId, { interpretationIds: [id] }, { limit: 1 });
    const [loaded] = await loadVersions(
      db,
      settings,
      clientId,
      type,
      rows.map((row) => row.id),
    );
    return loaded;
  }
  if (type === "DocumentReference" || type === "Binary") {
    const [loaded] = await loadVersions(db, settings, clientId, type, [id]);
    return loaded;
  }
  if (type === "Observation") {
    const reportId = reportIdOfObservation(id) ?? "";
    const { rows } = await findLatestReportsPage(db, clientId, { interpretationIds: [reportId] }, { limit: 1 });
    const loaded = await loadObservations(
      db,
      settings,
      clientId,
      rows.map((row) => row.id),
    );
    return loaded.find((entry) => entry.resource.id === id);
  }
  const signer = await findSignerOfClient(db, clientId, id);
  // biome-ignore lint/plugin/leading-spread-then-keys: sub is the signer's own field, the id asked for
  return signer ? { resource: practitionerResource(settings, { ...signer, sub: id }) } : undefined;
}
