import {
  type Disclosure,
  type DisclosurePage,
  type DisclosureQuery,
  disclosureCsvColumns,
  disclosureKindLabels,
} from "@vigil/contract";
import type { Db } from "../../db/client.js";
import {
  countDisclosures,
  type DisclosureFilter,
  type DisclosureListRow,
  findDisclosures,
  insertDisclosure,
  type ReportDeliveryRow,
} from "./reports-repository.js";

/**
 * The accounting of disclosures, per patient (HIPAA §164.528 asks for date, recipient, what was disclosed): every
 * delivery of a report's link, every download with it, every PDF or FHIR fetch by staff of that patient's reports.
 */

type Filter = Pick<DisclosureQuery, "mrn" | "clientId" | "from" | "to">;

/** Calendar days in UTC: `from` at 00:00, `to` through the end of its day. */
function filterOf(query: Filter): DisclosureFilter {
  return {
    mrn: query.mrn,
    ...(query.clientId ? { clientId: query.clientId } : {}),
    ...(query.from ? { from: new Date(`${query.from}T00:00:00Z`) } : {}),
    ...(query.to ? { toExclusive: new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000) } : {}),
  };
}

/**
 * "Dr. Ada Lee <ada.lee@example.org>": where a link's disclosure went, whole. An accounting given to a patient names
 * each recipient (HIPAA §164.528(b)(2)); masking is for messages that leave Vigil, not for this record, which only
 * its readers (`audit:read`) see.
 */
export function disclosedRecipient(delivery: Pick<ReportDeliveryRow, "recipientName" | "recipientEmail">): string {
  return `${delivery.recipientName} <${delivery.recipientEmail}>`;
}

function toDisclosure(row: DisclosureListRow): Disclosure {
  return {
    id: row.id,
    at: row.at.toISOString(),
    kind: row.kind,
    patient: { mrn: row.patientMrn, name: row.patientName },
    caseId: row.caseId,
    caseNumber: row.caseNumber,
    clientId: row.clientId,
    clientName: row.clientName,
    reportId: row.reportId,
    reportTitle: row.reportTitle,
    reportVersion: row.reportVersion,
    // Rows written before addresses were kept whole hold a masked one; the delivery they name still has it.
    recipient:
      row.deliveryName !== null && row.deliveryEmail !== null
        ? disclosedRecipient({ recipientName: row.deliveryName, recipientEmail: row.deliveryEmail })
        : row.recipient,
    by: row.byUsername ? { sub: row.bySub, username: row.byUsername, name: row.byName } : null,
    ip: row.ip,
  };
}

/** What a hospital's system was given of one patient: the case, and the report version when it was one. */
export type SystemDisclosure = {
  patientMrn: string;
  patientName: string;
  caseId: string;
  clientId: string;
  reportId: string | null;
};

/**
 * Reads by a hospital's system through the FHIR API (`fhir-api-read`), or a report pushed to its FHIR server
 * (`fhir-pushed`): one row per resource of patient data it was given, the recipient the system, no staff member.
 */
export async function recordSystemDisclosures(
  db: Db,
  disclosures: readonly SystemDisclosure[],
  to: { recipient: string; ip: string | null },
  kind: "fhir-api-read" | "fhir-pushed" = "fhir-api-read",
): Promise<void> {
  for (const disclosure of disclosures) {
    await insertDisclosure(db, { kind, ...disclosure, recipient: to.recipient, ip: to.ip });
  }
}

/** A patient named on an e-mailed invoice's lines, as the invoice named them. */
export type InvoicePatientDisclosure = { patientMrn: string; patientName: string; caseId: string; clientId: string };

/** An invoice naming patients e-mailed to the client (`invoice-sent`): one row per patient, to every recipient. */
export async function recordInvoiceDisclosures(
  db: Db,
  patients: readonly InvoicePatientDisclosure[],
  to: { recipient: string; bySub: string | null; byUsername: string; byName: string | null },
): Promise<void> {
  for (const patient of patients) await insertDisclosure(db, { kind: "invoice-sent", ...patient, ...to });
}

/** `GET /api/audit/disclosures`: one page, newest first. */
export async function listDisclosures(
  db: Db,
  query: Filter & { limit: number; offset: number },
): Promise<DisclosurePage> {
  const filter = filterOf(query);
  const [rows, total] = await Promise.all([
    findDisclosures(db, filter, { limit: query.limit, offset: query.offset }),
    countDisclosures(db, filter),
  ]);
  return { items: rows.map(toDisclosure), total, limit: query.limit, offset: query.offset };
}

/**
 * A CSV cell: quoted when it holds a comma, quote or line break; a leading =, +, - or @ is prefixed with ' so a
 * spreadsheet shows a name like "=HYPERLINK(…)" as text instead of running it.
 */
function cell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** `GET /api/audit/disclosures/export`: every row of the filter as CSV (header row first, CRLF lines). */
export async function exportDisclosuresCsv(db: Db, query: Filter): Promise<string> {
  const rows = (await findDisclosures(db, filterOf(query))).map(toDisclosure);
  const lines = rows.map((row) =>
    [
      row.at,
      disclosureKindLabels[row.kind],
      row.patient.mrn,
      row.patient.name,
      row.clientName,
      row.caseNumber,
      row.reportTitle,
      row.reportVersion,
      row.recipient,
      row.by ? (row.by.name ? `${row.by.name} (${row.by.username})` : row.by.username) : "",
      row.ip,
    ]
      .map(cell)
      .join(","),
  );
  return `${[disclosureCsvColumns.join(","), ...lines].join("\r\n")}\r\n`;
}
