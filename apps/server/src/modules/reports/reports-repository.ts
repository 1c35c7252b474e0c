import type { ReportLinkVoidReason } from "@vigil/contract";
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  isNull,
  lt,
  notInArray,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Db } from "../../db/client.js";
import {
  cases,
  clients,
  criticalFindings,
  findingRecipients,
  reportDeliveries,
  reportDisclosures,
  reportVersions,
} from "../../db/schema.js";

export type ReportVersionRow = typeof reportVersions.$inferSelect;
/** A version without its PDF's bytes (lists never carry them). */
export type ReportVersionSummaryRow = Omit<ReportVersionRow, "pdf">;
export type ReportDeliveryRow = typeof reportDeliveries.$inferSelect;
export type ReportDisclosureRow = typeof reportDisclosures.$inferSelect;

const { pdf: _pdf, ...summaryColumns } = getTableColumns(reportVersions);

export async function insertReportVersion(
  db: Db,
  values: typeof reportVersions.$inferInsert,
): Promise<ReportVersionSummaryRow> {
  const [row] = await db.insert(reportVersions).values(values).returning(summaryColumns);
  return row as ReportVersionSummaryRow;
}

/** The versions of an interpretation already stored (their numbers). */
export async function findStoredVersionNumbers(db: Db, interpretationId: string): Promise<number[]> {
  const rows = await db
    .select({ version: reportVersions.version })
    .from(reportVersions)
    .where(eq(reportVersions.interpretationId, interpretationId));
  return rows.map((row) => row.version);
}

/** Every version of the case's reports, newest first, without the PDFs. */
export async function findReportVersionsOfCase(db: Db, caseId: string): Promise<ReportVersionSummaryRow[]> {
  return db
    .select(summaryColumns)
    .from(reportVersions)
    .where(eq(reportVersions.caseId, caseId))
    .orderBy(desc(reportVersions.issuedAt), desc(reportVersions.version));
}

/** One version with its PDF; with `caseId`, only when it belongs to that case. */
export async function findReportVersion(db: Db, id: string, caseId?: string): Promise<ReportVersionRow | undefined> {
  const conditions: SQL[] = [eq(reportVersions.id, id)];
  if (caseId) conditions.push(eq(reportVersions.caseId, caseId));
  const [row] = await db
    .select()
    .from(reportVersions)
    .where(and(...conditions))
    .limit(1);
  return row;
}

export async function findReportVersionSummary(db: Db, id: string): Promise<ReportVersionSummaryRow | undefined> {
  const [row] = await db.select(summaryColumns).from(reportVersions).where(eq(reportVersions.id, id)).limit(1);
  return row;
}

/** A stored signed report (version 1 of any interpretation) exists for the case. */
export async function existsSignedReport(db: Db, caseId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: reportVersions.id })
    .from(reportVersions)
    .where(and(eq(reportVersions.caseId, caseId), eq(reportVersions.kind, "signed")))
    .limit(1);
  return row !== undefined;
}

export async function insertDeliveries(
  db: Db,
  values: (typeof reportDeliveries.$inferInsert)[],
): Promise<ReportDeliveryRow[]> {
  if (values.length === 0) return [];
  return db.insert(reportDeliveries).values(values).returning();
}

export async function findDeliveriesOfReports(db: Db, reportIds: readonly string[]): Promise<ReportDeliveryRow[]> {
  if (reportIds.length === 0) return [];
  return db
    .select()
    .from(reportDeliveries)
    .where(inArray(reportDeliveries.reportId, [...reportIds]))
    .orderBy(asc(reportDeliveries.createdAt), asc(reportDeliveries.recipientName));
}

export async function findDeliveriesByIds(db: Db, ids: readonly string[]): Promise<ReportDeliveryRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(reportDeliveries)
    .where(inArray(reportDeliveries.id, [...ids]));
}

export async function findDelivery(db: Db, id: string): Promise<ReportDeliveryRow | undefined> {
  const [row] = await db.select().from(reportDeliveries).where(eq(reportDeliveries.id, id)).limit(1);
  return row;
}

/**
 * Marks a delivery sent or failed. Only a pending (or failed, retried from the queue page) row changes, so of two
 * tries finishing the same delivery (the signing request's fast path and its job) one outcome — and one disclosure —
 * is kept.
 */
export async function settleDelivery(
  db: Db,
  id: string,
  outcome: { status: "sent"; sentAt: Date } | { status: "failed"; lastError: string },
): Promise<ReportDeliveryRow | undefined> {
  const [row] = await db
    .update(reportDeliveries)
    .set(outcome)
    .where(and(eq(reportDeliveries.id, id), inArray(reportDeliveries.status, ["pending", "failed"])))
    .returning();
  return row;
}

/** A refused send that will be tried again: the delivery stays pending and says why the last try failed. */
export async function setDeliveryError(db: Db, id: string, lastError: string): Promise<void> {
  await db
    .update(reportDeliveries)
    .set({ lastError })
    .where(and(eq(reportDeliveries.id, id), eq(reportDeliveries.status, "pending")));
}

/** Spends a link: sets `opened_at` once. Undefined when it was already spent or voided (the caller answers 410). */
export async function spendDelivery(db: Db, id: string, at: Date): Promise<ReportDeliveryRow | undefined> {
  const [row] = await db
    .update(reportDeliveries)
    .set({ openedAt: at })
    .where(and(eq(reportDeliveries.id, id), isNull(reportDeliveries.openedAt), isNull(reportDeliveries.voidedAt)))
    .returning();
  return row;
}

export type DeliveryVoid = {
  reason: ReportLinkVoidReason;
  at: Date;
  by?: { sub: string | null; username: string } | undefined;
};

/**
 * Voids the unused links among `where` (never a spent or already voided one): the rows voided now. One statement, so a
 * download racing with the voiding either spent the link first or finds it voided.
 */
async function voidDeliveriesWhere(db: Db, where: SQL, voiding: DeliveryVoid): Promise<ReportDeliveryRow[]> {
  return db
    .update(reportDeliveries)
    .set({
      voidedAt: voiding.at,
      voidReason: voiding.reason,
      voidedBySub: voiding.by?.sub ?? null,
      voidedByUsername: voiding.by?.username ?? null,
    })
    .where(and(where, isNull(reportDeliveries.openedAt), isNull(reportDeliveries.voidedAt)) as SQL)
    .returning();
}

/** One delivery's link, when it is unused and of that report. */
export function voidDelivery(db: Db, reportId: string, id: string, voiding: DeliveryVoid) {
  return voidDeliveriesWhere(
    db,
    and(eq(reportDeliveries.id, id), eq(reportDeliveries.reportId, reportId)) as SQL,
    voiding,
  );
}

/** Every unused link sent to these contacts (their removal, or a change of address). */
export function voidDeliveriesToContacts(db: Db, contactIds: readonly string[], voiding: DeliveryVoid) {
  if (contactIds.length === 0) return Promise.resolve([]);
  return voidDeliveriesWhere(db, inArray(reportDeliveries.contactId, [...contactIds]), voiding);
}

/** The unused links of one version to the same contact or address, but for `exceptIds` (the newer ones). */
export function voidEarlierDeliveries(
  db: Db,
  reportId: string,
  recipient: { contactId: string | null; email: string },
  exceptIds: readonly string[],
  voiding: DeliveryVoid,
) {
  const same = recipient.contactId
    ? or(eq(reportDeliveries.contactId, recipient.contactId), eq(reportDeliveries.recipientEmail, recipient.email))
    : eq(reportDeliveries.recipientEmail, recipient.email);
  const conditions = [eq(reportDeliveries.reportId, reportId), same as SQL];
  if (exceptIds.length > 0) conditions.push(notInArray(reportDeliveries.id, [...exceptIds]));
  return voidDeliveriesWhere(db, and(...conditions) as SQL, voiding);
}

export async function insertDisclosure(db: Db, values: typeof reportDisclosures.$inferInsert): Promise<void> {
  await db.insert(reportDisclosures).values(values);
}

export type DisclosureFilter = { mrn: string; clientId?: string; from?: Date; toExclusive?: Date };
export type DisclosureListRow = ReportDisclosureRow & {
  /** The delivery's recipient as it was sent, for a disclosure made through a link. */
  deliveryName: string | null;
  deliveryEmail: string | null;
  caseNumber: string;
  clientName: string;
  reportTitle: string | null;
  reportVersion: number | null;
};

function disclosureConditions(filter: DisclosureFilter): SQL[] {
  const conditions: SQL[] = [eq(reportDisclosures.patientMrn, filter.mrn)];
  if (filter.clientId) conditions.push(eq(reportDisclosures.clientId, filter.clientId));
  if (filter.from) conditions.push(gte(reportDisclosures.at, filter.from));
  if (filter.toExclusive) conditions.push(lt(reportDisclosures.at, filter.toExclusive));
  return conditions;
}

/** One patient's disclosures, newest first, with the case number, client name and report they concern. */
export async function findDisclosures(
  db: Db,
  filter: DisclosureFilter,
  page?: { limit: number; offset: number },
): Promise<DisclosureListRow[]> {
  const query = db
    .select({
      deliveryName: reportDeliveries.recipientName,
      deliveryEmail: reportDeliveries.recipientEmail,
      caseNumber: cases.caseNumber,
      clientName: clients.name,
      reportTitle: reportVersions.title,
      reportVersion: reportVersions.version,
      ...getTableColumns(reportDisclosures),
    })
    .from(reportDisclosures)
    .innerJoin(cases, eq(cases.id, reportDisclosures.caseId))
    .innerJoin(clients, eq(clients.id, reportDisclosures.clientId))
    .leftJoin(reportVersions, eq(reportVersions.id, reportDisclosures.reportId))
    .leftJoin(reportDeliveries, eq(reportDeliveries.id, reportDisclosures.deliveryId))
    .where(and(...disclosureConditions(filter)))
    .orderBy(desc(reportDisclosures.at), desc(reportDisclosures.id));
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

export async function countDisclosures(db: Db, filter: DisclosureFilter): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(reportDisclosures)
    .where(and(...disclosureConditions(filter)));
  return Number(row?.total ?? 0);
}

export type CaseFindingRow = typeof criticalFindings.$inferSelect;
export type FindingRecipientRow = typeof findingRecipients.$inferSelect;

/** The case's critical findings raised up to `until`, oldest first, with everyone each was sent to. */
export async function findCriticalFindingsOfCase(
  db: Db,
  caseId: string,
  until: Date,
): Promise<{ finding: CaseFindingRow; recipients: FindingRecipientRow[] }[]> {
  const findings = await db
    .select()
    .from(criticalFindings)
    .where(and(eq(criticalFindings.caseId, caseId), sql`${criticalFindings.raisedAt} <= ${until.toISOString()}`))
    .orderBy(asc(criticalFindings.raisedAt));
  if (findings.length === 0) return [];
  const recipients = await db
    .select()
    .from(findingRecipients)
    .where(
      inArray(
        findingRecipients.findingId,
        findings.map((finding) => finding.id),
      ),
    )
    .orderBy(asc(findingRecipients.notifiedAt), asc(findingRecipients.name));
  return findings.map((finding) => ({
    finding,
    recipients: recipients.filter((recipient) => recipient.findingId === finding.id),
  }));
}
