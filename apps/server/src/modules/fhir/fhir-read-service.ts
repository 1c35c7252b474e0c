import { randomUUID } from "node:crypto";
import { fhirDiagnosticReportSchema } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import type { ReportFhirBuilder } from "../reports/reports-service.js";
import {
  type CaseFilter,
  countCases,
  countVersions,
  findCasesPage,
  findLatestReportsPage,
  findVersionsPage,
} from "./fhir-read-repository.js";
import { cursorOf, isIdOf, isVigilId, type ParsedSearch, parseSearch, type ReadableType } from "./fhir-read-search.js";
import { caseNumberSystem, type FhirResource, type FhirSettings, hospitalSystem } from "./fhir-resource-common.js";
import {
  audit,
  caseFactsOf,
  caseResource,
  disclose,
  type FhirReader,
  type Loaded,
  loadObservations,
  loadOne,
  loadVersions,
  maxIds,
  notFound,
  reportCaseOf,
  reportDisclosure,
  versionFactsOf,
} from "./fhir-resource-loading.js";
import { reportIdOfObservation } from "./fhir-resource-observation.js";
import { mrnIdentifier } from "./us-core-patient.js";
import { diagnosticReportResource } from "./us-core-report.js";

/**
 * Reads and searches of the hospital's FHIR API, always within one Vigil client: the caller (the frame, from the
 * token) passes the client's id and every query filters by it, so another hospital's resource is "not found" —
 * never "forbidden", which would tell that it exists. Each resource of patient data returned is a disclosure in the
 * patient's accounting (to the hospital's system), and each read or search an audit row.
 */

export type { FhirReader };

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
    // biome-ignore lint/plugin/leading-spread-then-keys: both are fields of the search
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
    lastUpdated: search.lastUpdated,
    ...(ids ? { ids } : {}),
    ...(taskStatuses ? { taskStatuses } : {}),
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
    date: search.date,
    lastUpdated: search.lastUpdated,
    ...(caseIds ? { caseIds } : {}),
    ...(search.ids ? { interpretationIds: search.ids.filter(isVigilId) } : {}),
    ...(search.statuses ? { statuses: search.statuses as ("final" | "amended")[] } : {}),
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
  const filter = Object.assign({}, caseIds ? { caseIds } : {}, search.ids ? { ids: search.ids.filter(isVigilId) } : {});
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
    lastUpdated: search.lastUpdated,
    withObservations: true,
    ...(caseIds ? { caseIds } : {}),
    ...(wantedIds ? { interpretationIds: wantedIds.map((id) => reportIdOfObservation(id) ?? "") } : {}),
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
