import { randomUUID } from "node:crypto";
import { fhirDiagnosticReportSchema } from "@vigil/contract";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { recordSystemDisclosures, type SystemDisclosure } from "../reports/disclosures-service.js";
import { type ReportFhirBuilder, type ReportInputs, studyTypeLabel } from "../reports/reports-service.js";
import {
  type CaseFilter,
  countCases,
  countVersions,
  type FhirCaseRow,
  findCasesPage,
  findLatestReportsPage,
  findPatientDetails,
  findProfileAuthority,
  findReportsOfCases,
  findReportVersions,
  findSignerOfClient,
  findVersionsOfReports,
  findVersionsPage,
} from "./fhir-read-repository.js";
import { cursorOf, isIdOf, isVigilId, type ParsedSearch, parseSearch, type ReadableType } from "./fhir-read-search.js";
import { caseNumberSystem, type FhirResource, type FhirSettings, hospitalSystem } from "./fhir-resource-common.js";
import { observationReferencesOf, observationResources, reportIdOfObservation } from "./fhir-resource-observation.js";
import { type CaseFacts, serviceRequestResource, taskResource } from "./fhir-resource-order.js";
import { encounterReference, mrnIdentifier, patientResource, practitionerResource } from "./us-core-patient.js";
import {
  binaryResource,
  diagnosticReportResource,
  documentReferenceResource,
  type ReportCaseFacts,
  type ReportVersionFacts,
} from "./us-core-report.js";

/**
 * Reads and searches of the hospital's FHIR API, always within one Vigil client: the caller (the frame, from the
 * token) passes the client's id and every query filters by it, so another hospital's resource is "not found" —
 * never "forbidden", which would tell that it exists. Each resource of patient data returned is a disclosure in the
 * patient's accounting (to the hospital's system), and each read or search an audit row.
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

type Loaded = { resource: FhirResource; disclosure?: SystemDisclosure };

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

function notFound(type: string, id: string): AppError {
  return new AppError("not_found", `${type}/${id} is not known to this server.`, { fhir: { issueCode: "not-found" } });
}

async function caseFactsOf(db: Db, clientId: string, rows: FhirCaseRow[]): Promise<CaseFacts[]> {
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

function caseDisclosure(facts: CaseFacts, reportId: string | null = null): SystemDisclosure {
  return {
    patientMrn: facts.mrn,
    patientName: `${facts.lastName}, ${facts.firstName}`,
    caseId: facts.caseId,
    clientId: facts.clientId,
    reportId,
  };
}

function caseResource(settings: FhirSettings, type: "Patient" | "ServiceRequest" | "Task", facts: CaseFacts): Loaded {
  const encounter = encounterReference(settings, facts.clientId, facts.order?.visitNumber ?? null);
  const resource =
    type === "Patient"
      ? patientResource(settings, facts)
      : type === "ServiceRequest"
        ? serviceRequestResource(settings, facts, encounter)
        : taskResource(settings, facts, encounter);
  return { resource, disclosure: caseDisclosure(facts) };
}

function reportCaseOf(settings: FhirSettings, facts: CaseFacts): ReportCaseFacts {
  return {
    caseId: facts.caseId,
    clientId: facts.clientId,
    mrnAuthority: facts.mrnAuthority,
    encounter: encounterReference(settings, facts.clientId, facts.order?.visitNumber ?? null),
  };
}

type VersionRow = Awaited<ReturnType<typeof findReportVersions>>[number];

/** Versions with their place among their report's versions and their cases' facts, in the order of `ids`. */
async function versionFactsOf(db: Db, clientId: string, ids: readonly string[]) {
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
const maxIds = 1000;

function reportDisclosure(facts: CaseFacts, row: VersionRow): SystemDisclosure {
  return { ...caseDisclosure(facts, row.id), patientMrn: row.patientMrn, patientName: row.patientName };
}

async function loadVersions(
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
async function loadObservations(db: Db, settings: FhirSettings, clientId: string, versionIds: readonly string[]) {
  return (await versionFactsOf(db, clientId, versionIds)).flatMap(({ version, facts, row }) =>
    observationResources(settings, version, reportCaseOf(settings, facts)).map(
      (resource): Loaded => ({ resource, disclosure: reportDisclosure(facts, row) }),
    ),
  );
}

async function disclose(db: Db, reader: FhirReader, loaded: Loaded[]): Promise<void> {
  const disclosures = loaded.flatMap((entry) => (entry.disclosure ? [entry.disclosure] : []));
  await recordSystemDisclosures(db, disclosures, { recipient: reader.recipient, ip: reader.ip ?? null });
}

async function audit(
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

async function loadOne(db: Db, settings: FhirSettings, clientId: string, type: ReadableType, id: string) {
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
  return signer ? { resource: practitionerResource(settings, { ...signer, sub: id }) } : undefined;
}

/**
 * A case's order as served (its ServiceRequest or Task), read with no audit or disclosure of its own: the answer to
 * the hospital's create, whose audit rows are the create's (`fhir-order-service.ts`).
 */
export async function orderResourceOf(
  db: Db,
  settings: FhirSettings,
  clientId: string,
  type: "ServiceRequest" | "Task",
  caseId: string,
): Promise<FhirResource | undefined> {
  return (await loadOne(db, settings, clientId, type, caseId))?.resource;
}

/** `GET /fhir/R4/<type>/<id>`: the resource, if it is this client's; not found otherwise. */
export async function readFhirResource(
  db: Db,
  settings: FhirSettings,
  reader: FhirReader,
  type: ReadableType,
  id: string,
): Promise<FhirResource> {
  const loaded = isIdOf(type, id) ? await loadOne(db, settings, reader.clientId, type, id) : undefined;
  if (!loaded) {
    await audit(db, reader, "fhir.read", "failure", type, { reason: "not-found" }, id.slice(0, 64));
    throw notFound(type, id);
  }
  await disclose(db, reader, [loaded]);
  await audit(db, reader, "fhir.read", "success", type, {}, id);
  return loaded.resource;
}

/**
 * The cases a patient constraint names: Patient ids (case ids) and a `system|value` MRN, intersected; undefined when
 * the search names no patient. An MRN under another system than the client's matches nothing.
 */
async function patientCaseIds(
  db: Db,
  settings: FhirSettings,
  clientId: string,
  search: ParsedSearch,
): Promise<string[] | undefined> {
  let ids = search.patientIds?.filter(isVigilId);
  if (search.patientIdentifier) {
    const token = search.patientIdentifier;
    const rows = await findCasesPage(db, clientId, { mrn: token.value }, { limit: maxIds });
    const facts = await caseFactsOf(db, clientId, rows);
    const matching = facts
      .filter((fact) => token.system === undefined || mrnIdentifier(settings, fact).system === token.system)
      .map((fact) => fact.caseId);
    ids = ids ? ids.filter((id) => matching.includes(id)) : matching;
  }
  return ids;
}

function intersect(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  if (!a) return b;
  if (!b) return a;
  return a.filter((id) => b.includes(id));
}

const serviceRequestTaskStatuses: Record<string, string[]> = {
  active: ["requested", "accepted", "in-progress"],
  completed: ["completed"],
  revoked: ["cancelled", "rejected"],
};

/** ServiceRequest's identifier: the hospital's placer number or Vigil's case number, by system when one is given. */
async function orderCaseIds(db: Db, settings: FhirSettings, clientId: string, search: ParsedSearch) {
  const token = search.identifier;
  if (!token) return undefined;
  const ids: string[] = [];
  if (token.system === undefined || token.system === hospitalSystem(settings, clientId, "placer-order", null)) {
    ids.push(
      ...(await findCasesPage(db, clientId, { placerOrderNumber: token.value }, { limit: maxIds })).map(
        (row) => row.id,
      ),
    );
  }
  if (token.system === undefined || token.system === caseNumberSystem(settings)) {
    ids.push(
      ...(await findCasesPage(db, clientId, { caseNumber: token.value }, { limit: maxIds })).map((row) => row.id),
    );
  }
  return ids;
}

type Page = { ids: string[]; total: number; hasMore: boolean };

async function searchCases(
  db: Db,
  settings: FhirSettings,
  clientId: string,
  type: "Patient" | "ServiceRequest" | "Task",
  search: ParsedSearch,
): Promise<{ page: Page; loaded: Loaded[] }> {
  let ids = intersect(search.ids?.filter(isVigilId), await patientCaseIds(db, settings, clientId, search));
  if (type === "Task") ids = intersect(ids, search.focus?.filter(isVigilId));
  if (type === "ServiceRequest") ids = intersect(ids, await orderCaseIds(db, settings, clientId, search));
  if (type === "Patient" && search.identifier) {
    const patientSearch = { ...search, patientIdentifier: search.identifier, patientIds: undefined };
    ids = intersect(ids, await patientCaseIds(db, settings, clientId, patientSearch));
  }
  const taskStatuses =
    type === "ServiceRequest" && search.statuses
      ? search.statuses.flatMap((status) => serviceRequestTaskStatuses[status] ?? [])
      : type === "Task"
        ? search.statuses
        : undefined;
  const filter: CaseFilter = {
    ...(ids ? { ids } : {}),
    ...(taskStatuses ? { taskStatuses } : {}),
    lastUpdated: search.lastUpdated,
  };
  const [rows, total] = await Promise.all([
    findCasesPage(db, clientId, filter, { afterId: search.afterId, limit: search.count + 1 }),
    countCases(db, clientId, filter),
  ]);
  const pageRows = rows.slice(0, search.count);
  const facts = await caseFactsOf(db, clientId, pageRows);
  return {
    page: { ids: pageRows.map((row) => row.id), total, hasMore: rows.length > search.count },
    loaded: facts.map((fact) => caseResource(settings, type, fact)),
  };
}

async function searchReports(db: Db, settings: FhirSettings, clientId: string, search: ParsedSearch) {
  const caseIds = intersect(await patientCaseIds(db, settings, clientId, search), search.basedOn?.filter(isVigilId));
  const filter = {
    ...(caseIds ? { caseIds } : {}),
    ...(search.ids ? { interpretationIds: search.ids.filter(isVigilId) } : {}),
    ...(search.statuses ? { statuses: search.statuses as ("final" | "amended")[] } : {}),
    date: search.date,
    lastUpdated: search.lastUpdated,
  };
  const [{ rows }, { count: total }] = await Promise.all([
    findLatestReportsPage(db, clientId, filter, { afterId: search.afterId, limit: search.count + 1 }),
    findLatestReportsPage(db, clientId, filter, { count: true }),
  ]);
  const pageRows = rows.slice(0, search.count);
  const loaded = await loadVersions(
    db,
    settings,
    clientId,
    "DiagnosticReport",
    pageRows.map((row) => row.id),
  );
  return {
    page: { ids: pageRows.map((row) => row.interpretationId), total, hasMore: rows.length > search.count },
    loaded,
  };
}

async function searchDocuments(db: Db, settings: FhirSettings, clientId: string, search: ParsedSearch) {
  const caseIds = await patientCaseIds(db, settings, clientId, search);
  const filter = {
    ...(caseIds ? { caseIds } : {}),
    ...(search.ids ? { ids: search.ids.filter(isVigilId) } : {}),
  };
  const [rows, total] = await Promise.all([
    findVersionsPage(db, clientId, filter, { afterId: search.afterId, limit: search.count + 1 }),
    countVersions(db, clientId, filter),
  ]);
  const pageRows = rows.slice(0, search.count);
  const loaded = await loadVersions(
    db,
    settings,
    clientId,
    "DocumentReference",
    pageRows.map((row) => row.id),
  );
  return { page: { ids: pageRows.map((row) => row.id), total, hasMore: rows.length > search.count }, loaded };
}

/**
 * Observations page by their ids, which sort by report first: a page reads the latest versions of reports with
 * findings from the cursor's report on, a few reports at a time, until it holds one more Observation than asked.
 * The total is counted in SQL from the findings, without reading a report.
 */
async function searchObservations(db: Db, settings: FhirSettings, clientId: string, search: ParsedSearch) {
  const caseIds = intersect(await patientCaseIds(db, settings, clientId, search), search.basedOn?.filter(isVigilId));
  const wantedIds = search.ids?.filter((id) => reportIdOfObservation(id) !== undefined);
  const filter = {
    ...(caseIds ? { caseIds } : {}),
    ...(wantedIds ? { interpretationIds: wantedIds.map((id) => reportIdOfObservation(id) ?? "") } : {}),
    lastUpdated: search.lastUpdated,
    withObservations: true,
  };
  const after = (entry: Loaded) => !search.afterId || entry.resource.id > search.afterId;
  let found: Loaded[] = [];
  let total: number;
  if (wantedIds) {
    // `_id` names few Observations: read their reports whole.
    const { rows } = await findLatestReportsPage(db, clientId, filter, { limit: maxIds });
    const matching = (
      await loadObservations(
        db,
        settings,
        clientId,
        rows.map((row) => row.id),
      )
    ).filter((entry) => wantedIds.includes(entry.resource.id));
    total = matching.length;
    found = matching.filter(after);
  } else {
    total = (await findLatestReportsPage(db, clientId, filter, { count: true })).observations;
    let fromId = search.afterId ? reportIdOfObservation(search.afterId) : undefined;
    let afterId: string | undefined;
    while (found.length <= search.count) {
      const { rows } = await findLatestReportsPage(db, clientId, filter, { fromId, afterId, limit: search.count + 1 });
      const loaded = await loadObservations(
        db,
        settings,
        clientId,
        rows.map((row) => row.id),
      );
      found.push(...loaded.filter(after));
      if (rows.length <= search.count) break;
      fromId = undefined;
      afterId = rows.at(-1)?.interpretationId;
    }
  }
  found.sort((a, b) => (a.resource.id < b.resource.id ? -1 : 1));
  const loaded = found.slice(0, search.count);
  return {
    page: { ids: loaded.map((entry) => entry.resource.id), total, hasMore: found.length > search.count },
    loaded,
  };
}

function searchUrl(reader: FhirReader, type: string, search: ParsedSearch, cursor?: string): string {
  const query = new URLSearchParams(search.params);
  query.set("_count", String(search.count));
  if (cursor) query.set("_cursor", cursor);
  return `${reader.baseUrl}/${type}?${query.toString()}`;
}

/** `GET /fhir/R4/<type>?…`: one page of the client's matches as a `searchset` Bundle with its total and links. */
export async function searchFhirResources(
  db: Db,
  settings: FhirSettings,
  reader: FhirReader,
  type: ReadableType,
  query: Record<string, unknown>,
): Promise<FhirResource> {
  const search = parseSearch(type, query);
  if (type === "Binary" || type === "Practitioner") {
    throw new AppError("bad_request", `${type} is read by id here, not searched.`, {
      fhir: { issueCode: "not-supported" },
    });
  }
  const { page, loaded } =
    type === "DiagnosticReport"
      ? await searchReports(db, settings, reader.clientId, search)
      : type === "Observation"
        ? await searchObservations(db, settings, reader.clientId, search)
        : type === "DocumentReference"
          ? await searchDocuments(db, settings, reader.clientId, search)
          : await searchCases(db, settings, reader.clientId, type, search);
  await disclose(db, reader, loaded);
  await audit(db, reader, "fhir.search", "success", type, {
    parameters: search.params.map(([name]) => name),
    ids: loaded.map((entry) => entry.resource.id),
  });
  const lastId = page.ids.at(-1);
  return {
    resourceType: "Bundle",
    id: randomUUID(),
    meta: { lastUpdated: new Date().toISOString() },
    type: "searchset",
    total: page.total,
    link: [
      { relation: "self", url: searchUrl(reader, type, search, search.afterId ? cursorOf(search.afterId) : undefined) },
      ...(page.hasMore && lastId ? [{ relation: "next", url: searchUrl(reader, type, search, cursorOf(lastId)) }] : []),
    ],
    entry: loaded.map((entry) => ({
      fullUrl: `${reader.baseUrl}/${type}/${entry.resource.id}`,
      resource: entry.resource,
      search: { mode: "match" },
    })),
  };
}

/**
 * The staff route's DiagnosticReport of one stored version (any version, as it stood then), with the PDF inline;
 * the staff route records its own disclosure. Undefined when the version is not the client's.
 */
export async function diagnosticReportOfVersion(
  db: Db,
  settings: FhirSettings,
  clientId: string,
  versionId: string,
): Promise<FhirResource | undefined> {
  const [loaded] = await versionFactsOf(db, clientId, [versionId]);
  if (!loaded) return undefined;
  return diagnosticReportResource(settings, loaded.version, reportCaseOf(settings, loaded.facts), { inlinePdf: true });
}

/** The reports module's `fhirReport` (handed down by `app.ts`): the staff route's one DiagnosticReport mapping. */
export function reportFhirBuilder(settings: FhirSettings): ReportFhirBuilder {
  return async (db, clientId, versionId) => {
    const resource = await diagnosticReportOfVersion(db, settings, clientId, versionId);
    return resource ? fhirDiagnosticReportSchema.parse(resource) : undefined;
  };
}

/**
 * One stored version as the push to the hospital's FHIR server sends it (fhir-push-service.ts): its facts, its
 * case's, and the disclosure the push records. Undefined when the version is not the client's.
 */
export async function pushFactsOfVersion(db: Db, settings: FhirSettings, clientId: string, versionId: string) {
  const [loaded] = await versionFactsOf(db, clientId, [versionId]);
  if (!loaded) return undefined;
  return {
    version: loaded.version,
    report: reportCaseOf(settings, loaded.facts),
    mrn: loaded.facts.mrn,
    disclosure: reportDisclosure(loaded.facts, loaded.row),
  };
}
