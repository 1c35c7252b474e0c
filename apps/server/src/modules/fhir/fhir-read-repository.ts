import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.js";
import {
  caseAssignments,
  caseOrders,
  casePatientDetails,
  cases,
  clients,
  interfaceProfileRevisions,
  reportVersions,
  users,
} from "../../db/schema.js";

/**
 * The reads behind the hospital's FHIR API: a read model across cases, their orders, patient details and report
 * versions. Every query takes the client's id and filters by it first, so no caller can forget the scope; a row of
 * another client is simply not found.
 */

export type CaseFilter = {
  ids?: readonly string[];
  mrn?: string;
  placerOrderNumber?: string;
  caseNumber?: string;
  taskStatuses?: readonly string[];
  lastUpdated?: readonly DateBound[];
};

export type DateBound = { op: "eq" | "gt" | "ge" | "lt" | "le"; from: Date; toExclusive: Date };

/** Taken by the monitoring company: a technologist assigned (or a STAT case acknowledged by a reviewer). */
const taken = sql`(${cases.acknowledgedAt} is not null or exists (select 1 from ${caseAssignments} where ${caseAssignments.caseId} = ${cases.id}))`;

const summarySigned = sql`exists (select 1 from ${reportVersions} where ${reportVersions.caseId} = ${cases.id} and ${reportVersions.inputs}->'report'->>'reportType' = 'summary')`;

/** The SQL of each Task status, the same rule as `taskStatusOf` in `fhir-resource-order.ts`. */
const taskStatusConditions: Record<string, SQL> = {
  cancelled: sql`(${caseOrders.cancelledAt} is not null or (${cases.archivedAt} is not null and ${cases.stage} <> 'intake'))`,
  rejected: sql`(${caseOrders.cancelledAt} is null and ${cases.archivedAt} is not null and ${cases.stage} = 'intake')`,
  completed: sql`(${caseOrders.cancelledAt} is null and ${cases.archivedAt} is null and (${cases.stage} = 'closed' or ${summarySigned}))`,
  requested: sql`(${caseOrders.cancelledAt} is null and ${cases.archivedAt} is null and ${cases.stage} = 'intake' and not ${taken} and not ${summarySigned})`,
  accepted: sql`(${caseOrders.cancelledAt} is null and ${cases.archivedAt} is null and ${cases.stage} = 'intake' and ${taken} and not ${summarySigned})`,
  "in-progress": sql`(${caseOrders.cancelledAt} is null and ${cases.archivedAt} is null and ${cases.stage} in ('monitoring', 'preview', 'reviewed') and not ${summarySigned})`,
};

/** A date bound as FHIR's prefixes mean it on a value known to the instant: eq is "within the given day/instant". */
function dateCondition(column: SQL, bound: DateBound): SQL {
  switch (bound.op) {
    case "eq":
      return and(gte(column, bound.from), lt(column, bound.toExclusive)) as SQL;
    case "gt":
      return gte(column, bound.toExclusive);
    case "ge":
      return gte(column, bound.from);
    case "lt":
      return lt(column, bound.from);
    case "le":
      return lt(column, bound.toExclusive);
  }
}

function caseConditions(clientId: string, filter: CaseFilter): SQL[] {
  const conditions: SQL[] = [eq(cases.clientId, clientId), isNotNull(cases.patientMrn)];
  if (filter.ids) conditions.push(filter.ids.length > 0 ? inArray(cases.id, [...filter.ids]) : sql`false`);
  if (filter.mrn !== undefined) conditions.push(eq(cases.patientMrn, filter.mrn));
  if (filter.placerOrderNumber !== undefined)
    conditions.push(eq(caseOrders.placerOrderNumber, filter.placerOrderNumber));
  if (filter.caseNumber !== undefined) conditions.push(eq(cases.caseNumber, filter.caseNumber));
  if (filter.taskStatuses) {
    const statuses = filter.taskStatuses.flatMap((status) => taskStatusConditions[status] ?? []);
    conditions.push(statuses.length > 0 ? sql`(${sql.join(statuses, sql` or `)})` : sql`false`);
  }
  for (const bound of filter.lastUpdated ?? []) conditions.push(dateCondition(sql`${cases.updatedAt}`, bound));
  return conditions;
}

const caseColumns = {
  id: cases.id,
  clientId: cases.clientId,
  clientName: clients.name,
  caseNumber: cases.caseNumber,
  studyType: cases.studyType,
  hasVideo: cases.hasVideo,
  priority: cases.priority,
  stage: cases.stage,
  taken: sql<boolean>`${taken}`,
  archivedAt: cases.archivedAt,
  recordingStartedAt: cases.recordingStartedAt,
  recordingEndedAt: cases.recordingEndedAt,
  patientMrn: cases.patientMrn,
  patientFirstName: cases.patientFirstName,
  patientLastName: cases.patientLastName,
  createdAt: cases.createdAt,
  updatedAt: cases.updatedAt,
  order: {
    placerOrderNumber: caseOrders.placerOrderNumber,
    visitNumber: caseOrders.visitNumber,
    orderingProvider: caseOrders.orderingProvider,
    mrnAssigningAuthority: caseOrders.mrnAssigningAuthority,
    reason: caseOrders.reason,
    receivedAt: caseOrders.receivedAt,
    cancelledAt: caseOrders.cancelledAt,
    cancelReason: caseOrders.cancelReason,
  },
};

export type FhirCaseRow = Awaited<ReturnType<typeof findCasesPage>>[number];

/** One page of the client's cases (patients, orders, tasks) by id order, after `afterId`. */
export async function findCasesPage(
  db: Db,
  clientId: string,
  filter: CaseFilter,
  page: { afterId?: string | undefined; limit: number },
) {
  const conditions = caseConditions(clientId, filter);
  if (page.afterId) conditions.push(gt(cases.id, page.afterId));
  return db
    .select(caseColumns)
    .from(cases)
    .innerJoin(clients, eq(clients.id, cases.clientId))
    .leftJoin(caseOrders, eq(caseOrders.caseId, cases.id))
    .where(and(...conditions))
    .orderBy(asc(cases.id))
    .limit(page.limit);
}

export async function countCases(db: Db, clientId: string, filter: CaseFilter): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(cases)
    .leftJoin(caseOrders, eq(caseOrders.caseId, cases.id))
    .where(and(...caseConditions(clientId, filter)));
  return row?.count ?? 0;
}

/** The latest patient-details revision of each case: what the intake left uncopied onto the case row. */
export async function findPatientDetails(db: Db, caseIds: readonly string[]) {
  if (caseIds.length === 0) return [];
  return db
    .selectDistinctOn([casePatientDetails.caseId], {
      caseId: casePatientDetails.caseId,
      dateOfBirth: casePatientDetails.dateOfBirth,
      sex: casePatientDetails.sex,
      referringPhysician: casePatientDetails.referringPhysician,
      indication: casePatientDetails.indication,
    })
    .from(casePatientDetails)
    .where(inArray(casePatientDetails.caseId, [...caseIds]))
    .orderBy(casePatientDetails.caseId, desc(casePatientDetails.revision));
}

/** The MRN assigning authority of the client's interface profile in force (none without a profile). */
export async function findProfileAuthority(db: Db, clientId: string): Promise<string | null> {
  const [row] = await db
    .select({ authority: interfaceProfileRevisions.mrnAssigningAuthority })
    .from(interfaceProfileRevisions)
    .where(eq(interfaceProfileRevisions.clientId, clientId))
    .orderBy(desc(interfaceProfileRevisions.revision))
    .limit(1);
  return row?.authority ?? null;
}

export type ReportFilter = {
  caseIds?: readonly string[];
  interpretationIds?: readonly string[];
  statuses?: readonly ("final" | "amended")[];
  date?: readonly DateBound[];
  lastUpdated?: readonly DateBound[];
  /** Only reports whose interpretation holds ACNS findings (served as Observations). */
  withObservations?: boolean;
};

/**
 * How many Observations a version's findings make, as `findingsOf` in `fhir-resource-observation.ts` counts them:
 * one per rhythmic or periodic pattern, and the seizure classification unless it is "none".
 */
const observationCount = sql`(coalesce(jsonb_array_length(${reportVersions.inputs}->'interpretation'->'findings'), 0) + case when coalesce(${reportVersions.inputs}->'interpretation'->'seizures'->>'classification', 'none') <> 'none' then 1 else 0 end)`;

const summaryReport = sql`${reportVersions.inputs}->'report'->>'reportType' = 'summary'`;
/** The start and end of the period a version interprets, as `effectivePeriodOf` in `us-core-report.ts` says. */
const effectiveStart = sql`(case when ${summaryReport} then coalesce(${reportVersions.inputs}->'case'->>'recordingStartedAt', ${reportVersions.inputs}->'interpretation'->>'periodFrom') else ${reportVersions.inputs}->'interpretation'->>'periodFrom' end)::timestamptz`;
const effectiveEnd = sql`(case when ${summaryReport} then coalesce(${reportVersions.inputs}->'case'->>'recordingEndedAt', ${reportVersions.inputs}->'interpretation'->>'periodTo') else ${reportVersions.inputs}->'interpretation'->>'periodTo' end)::timestamptz`;

/**
 * A date search on a period: eq — the period lies within the given range; ge/gt — it ends at or after; le/lt — it
 * starts at or before (FHIR's search rules for a period against a date of some precision).
 */
function periodCondition(bound: DateBound, start: SQL, end: SQL): SQL {
  switch (bound.op) {
    case "eq":
      return and(gte(start, bound.from), lt(end, bound.toExclusive)) as SQL;
    case "gt":
      return gte(end, bound.toExclusive);
    case "ge":
      return gte(end, bound.from);
    case "lt":
      return lt(start, bound.from);
    case "le":
      return lt(start, bound.toExclusive);
  }
}

function idsCondition(column: PgColumn, ids: readonly string[] | undefined): SQL | undefined {
  if (!ids) return undefined;
  return ids.length > 0 ? inArray(column, [...ids]) : sql`false`;
}

const versionSummaryColumns = {
  id: reportVersions.id,
  caseId: reportVersions.caseId,
  interpretationId: reportVersions.interpretationId,
  version: reportVersions.version,
};

/**
 * The latest version of each of the client's reports (a DiagnosticReport is its report's latest version), one page
 * by interpretation id after `afterId`, filtered on that latest version.
 */
export async function findLatestReportsPage(
  db: Db,
  clientId: string,
  filter: ReportFilter,
  page: { afterId?: string | undefined; fromId?: string | undefined; limit: number } | { count: true },
) {
  const latest = db
    .selectDistinctOn([reportVersions.interpretationId], {
      kind: reportVersions.kind,
      issuedAt: reportVersions.issuedAt,
      effectiveStart: sql<Date>`${effectiveStart}`.as("effective_start"),
      effectiveEnd: sql<Date>`${effectiveEnd}`.as("effective_end"),
      observations: sql<number>`${observationCount}`.as("observations"),
      ...versionSummaryColumns,
    })
    .from(reportVersions)
    .where(
      and(
        eq(reportVersions.clientId, clientId),
        idsCondition(reportVersions.caseId, filter.caseIds),
        idsCondition(reportVersions.interpretationId, filter.interpretationIds),
        "afterId" in page && page.afterId ? gt(reportVersions.interpretationId, page.afterId) : undefined,
        "fromId" in page && page.fromId ? gte(reportVersions.interpretationId, page.fromId) : undefined,
      ),
    )
    .orderBy(reportVersions.interpretationId, desc(reportVersions.version))
    .as("latest");
  const conditions: SQL[] = [];
  if (filter.statuses) {
    const kinds = filter.statuses.map((status) => (status === "final" ? "signed" : "addendum"));
    conditions.push(inArray(latest.kind, kinds));
  }
  if (filter.withObservations) conditions.push(gt(latest.observations, 0));
  for (const bound of filter.lastUpdated ?? []) conditions.push(dateCondition(sql`${latest.issuedAt}`, bound));
  for (const bound of filter.date ?? []) {
    conditions.push(periodCondition(bound, sql`${latest.effectiveStart}`, sql`${latest.effectiveEnd}`));
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  if ("count" in page) {
    const [row] = await db
      .select({
        count: sql<number>`count(*)::int`,
        observations: sql<number>`coalesce(sum(${latest.observations}), 0)::int`,
      })
      .from(latest)
      .where(where);
    return { count: row?.count ?? 0, observations: row?.observations ?? 0, rows: [] };
  }
  const rows = await db
    .select({ id: latest.id, interpretationId: latest.interpretationId })
    .from(latest)
    .where(where)
    .orderBy(asc(latest.interpretationId))
    .limit(page.limit);
  return { count: rows.length, observations: 0, rows };
}

/** Report versions by id, the client's only, with their bytes and inputs. */
export async function findReportVersions(db: Db, clientId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(reportVersions)
    .where(and(eq(reportVersions.clientId, clientId), inArray(reportVersions.id, [...ids])));
}

/** Every version's place in its report: id, number, report; for `replaces` and `superseded`. */
export async function findVersionsOfReports(db: Db, interpretationIds: readonly string[]) {
  if (interpretationIds.length === 0) return [];
  return db
    .select(versionSummaryColumns)
    .from(reportVersions)
    .where(inArray(reportVersions.interpretationId, [...interpretationIds]))
    .orderBy(asc(reportVersions.interpretationId), asc(reportVersions.version));
}

/** Each case's reports (interpretation id and type), oldest first: a Task's outputs. */
export async function findReportsOfCases(db: Db, caseIds: readonly string[]) {
  if (caseIds.length === 0) return [];
  return db
    .selectDistinctOn([reportVersions.interpretationId], {
      caseId: reportVersions.caseId,
      interpretationId: reportVersions.interpretationId,
      reportType: sql<"daily" | "summary">`${reportVersions.inputs}->'report'->>'reportType'`,
      issuedAt: reportVersions.issuedAt,
    })
    .from(reportVersions)
    .where(inArray(reportVersions.caseId, [...caseIds]))
    .orderBy(reportVersions.interpretationId, asc(reportVersions.version));
}

/** One page of the client's report versions (DocumentReference, Binary) by version id after `afterId`. */
export async function findVersionsPage(
  db: Db,
  clientId: string,
  filter: { ids?: readonly string[]; caseIds?: readonly string[] },
  page: { afterId?: string | undefined; limit: number },
) {
  const conditions: SQL[] = [eq(reportVersions.clientId, clientId)];
  if (filter.ids) conditions.push(filter.ids.length > 0 ? inArray(reportVersions.id, [...filter.ids]) : sql`false`);
  if (filter.caseIds)
    conditions.push(filter.caseIds.length > 0 ? inArray(reportVersions.caseId, [...filter.caseIds]) : sql`false`);
  if (page.afterId) conditions.push(gt(reportVersions.id, page.afterId));
  return db
    .select(versionSummaryColumns)
    .from(reportVersions)
    .where(and(...conditions))
    .orderBy(asc(reportVersions.id))
    .limit(page.limit);
}

export async function countVersions(
  db: Db,
  clientId: string,
  filter: { ids?: readonly string[]; caseIds?: readonly string[] },
): Promise<number> {
  const conditions: SQL[] = [eq(reportVersions.clientId, clientId)];
  if (filter.ids) conditions.push(filter.ids.length > 0 ? inArray(reportVersions.id, [...filter.ids]) : sql`false`);
  if (filter.caseIds)
    conditions.push(filter.caseIds.length > 0 ? inArray(reportVersions.caseId, [...filter.caseIds]) : sql`false`);
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(reportVersions)
    .where(and(...conditions));
  return row?.count ?? 0;
}

/**
 * Who signed one of the client's reports with this user id, as the report names them (a Practitioner to read), with
 * their professional identity as it is now: an NPI added after signing still identifies them.
 */
export async function findSignerOfClient(db: Db, clientId: string, sub: string) {
  const [row] = await db
    .select({
      signedBy: sql<{
        sub: string | null;
        username: string;
        name: string | null;
      }>`${reportVersions.inputs}->'signedBy'`,
      familyName: users.familyName,
      givenNames: users.givenNames,
      npi: users.npi,
      credentials: users.credentials,
      boardCertifications: users.boardCertifications,
    })
    .from(reportVersions)
    .leftJoin(users, sql`${users.sub}::text = ${reportVersions.inputs}->'signedBy'->>'sub'`)
    .where(and(eq(reportVersions.clientId, clientId), sql`${reportVersions.inputs}->'signedBy'->>'sub' = ${sub}`))
    .orderBy(desc(reportVersions.issuedAt))
    .limit(1);
  if (!row) return undefined;
  const { signedBy, givenNames, boardCertifications, ...rest } = row;
  return {
    professional: { givenNames: givenNames ?? [], boardCertifications: boardCertifications ?? [], ...rest },
    ...signedBy,
  };
}
