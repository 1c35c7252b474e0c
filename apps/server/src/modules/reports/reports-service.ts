import type {
  FhirDiagnosticReport,
  InterpretationItem,
  Permission,
  ReportDelivery,
  ReportDocument,
  ReportEhrStatus,
  ReportList,
  ReportVersion,
} from "@vigil/contract";
import { type Actor, auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { findUserById } from "../../identity/user-directory.js";
import type { LinkLimits } from "../../links/link-calls.js";
import { maskDestination } from "../../messaging/message-service.js";
import { requireCase } from "../cases/cases-service.js";
import { listContacts } from "../clients/contacts-service.js";
import { getCurrentProtocolRevision } from "../clients/protocol-service.js";
import type { InterpretationSignedHook, SignedInterpretation } from "../records/records-service.js";
import { listRecords } from "../records/records-service.js";
import {
  createDeliveries,
  type Recipient,
  type ReportDeliveryContext,
  recipientLabel,
  sendDeliveries,
} from "./report-delivery.js";
import { enqueueDeliveries } from "./report-delivery-job.js";
import { buildReportDocument } from "./report-document.js";
import type { ReportInputs } from "./report-inputs.js";
import { missingVersions, type ReportCompany, storeReportVersion, type VersionToIssue } from "./report-issue.js";
import { recordVoidedLinks, voidSupersededLinks } from "./report-link-voids.js";
import { reportFileNameOf } from "./report-naming.js";
import {
  existsSignedReport,
  findDeliveriesOfReports,
  findReportVersion,
  findReportVersionsOfCase,
  insertDisclosure,
  type ReportDeliveryRow,
  type ReportVersionRow,
  type ReportVersionSummaryRow,
  voidDelivery,
} from "./reports-repository.js";

/**
 * Signed reports leaving Vigil: each signing and addendum issues a version (PDF rendered and stored in the signing
 * transaction, deliveries to the protocol's named contacts created beside it and sent after the commit); staff read
 * the versions, fetch the stored PDF, the FHIR resource or the printable page's document (each a disclosure of the
 * patient's data), and re-send.
 */

export type { ReportInputs };
export { studyTypeLabel } from "./report-inputs.js";

/** A version just issued, in the signing transaction: its row, the inputs it was made from and its PDF. */
export type IssuedReportVersion = { row: ReportVersionSummaryRow; inputs: ReportInputs; pdf: Buffer };

/**
 * What the interfaces module (a floor above) does with reports, handed down by `app.ts`: queue each issued version's
 * result message for the hospital's chart in the signing transaction, and say whether the chart acknowledged it.
 */
export type ReportOutbound = {
  onReportVersionIssued: (tx: Db, issued: IssuedReportVersion) => Promise<void>;
  ehrStatusesOf: (db: Db, reportIds: readonly string[]) => Promise<Map<string, ReportEhrStatus>>;
};

/**
 * The version as a FHIR R4 DiagnosticReport, as the hospital's FHIR API serves it (with the PDF inline): the fhir
 * module (a floor above) owns the one mapping, handed down by `app.ts`. Undefined when the version is not the client's.
 */
export type ReportFhirBuilder = (
  db: Db,
  clientId: string,
  versionId: string,
) => Promise<FhirDiagnosticReport | undefined>;

export type ReportsContext = ReportDeliveryContext & {
  /** The DiagnosticReport of a version (modules/fhir's mapper). */
  fhirReport: ReportFhirBuilder;
  /** Results into the hospital's chart by HL7 (absent: none are sent, and no version says anything of the EHR). */
  outbound?: ReportOutbound;
  /** The public link calls' limits (links/link-calls.ts), shared with the acknowledgement links. */
  linkLimits: LinkLimits;
  company: ReportCompany;
  /** The records module's caps setting, for reading interpretations through its service. */
  caps: { intermittent: number; continuous: number };
};

/**
 * The contacts the client's current protocol names, with an e-mail address. The current revision, not the case's
 * pinned one: who receives reports changes with the hospital's staff, and a report is sent now, to whoever is
 * named now.
 */
async function protocolRecipients(tx: Db, clientId: string): Promise<{ named: Recipient[]; withoutEmail: string[] }> {
  const protocol = await getCurrentProtocolRevision(tx, clientId);
  const ids = protocol?.reportRecipients.contactIds ?? [];
  if (ids.length === 0) return { named: [], withoutEmail: [] };
  const contacts = new Map((await listContacts(tx, clientId)).map((contact) => [contact._id, contact]));
  const named: Recipient[] = [];
  const withoutEmail: string[] = [];
  for (const id of ids) {
    const contact = contacts.get(id);
    if (!contact) continue;
    if (contact.email) named.push({ contactId: id, name: contact.name, email: contact.email });
    else withoutEmail.push(contact.name);
  }
  return { named, withoutEmail };
}

function versionToIssue(signed: SignedInterpretation): VersionToIssue {
  return {
    caseId: signed.caseId,
    interpretationId: signed.interpretationId,
    recordRevision: signed.revision,
    version: signed.change === "sign" ? 1 : 1 + signed.addenda.length,
    data: signed.data,
    signedBy: signed.signedBy,
    signedAt: signed.signedAt,
    addenda: signed.addenda.map(({ text, author, createdAt }) => ({ text, author, createdAt })),
    issuedAt: signed.at,
    atSigning: signed.change === "sign",
  };
}

/**
 * The records module's `onInterpretationSigned`: in the signing (or addendum) transaction, store the version and
 * create one pending delivery per named contact with its job; after the commit, try them at once (the jobs send
 * whatever that leaves pending, after a crash or while the relay is down).
 */
export function reportIssuer(ctx: ReportsContext): InterpretationSignedHook {
  return async (tx, signed) => {
    const issued = await storeReportVersion(tx, ctx.company, versionToIssue(signed));
    if (!issued) return undefined;
    const { named, withoutEmail } = await protocolRecipients(tx, issued.row.clientId);
    const deliveries = await createDeliveries(tx, ctx, issued.row, named, signed.at);
    await recordAudit(tx, {
      action: "report.issue",
      outcome: "success",
      actor: { sub: signed.signedBy.sub, username: signed.signedBy.username },
      target: { type: "case", id: signed.caseId },
      details: {
        caseId: signed.caseId,
        clientId: issued.row.clientId,
        reportId: issued.row.id,
        version: issued.row.version,
        kind: issued.row.kind,
        pdfSha256: issued.row.pdfSha256,
        recipients: deliveries.map(recipientLabel),
        notSent: withoutEmail,
      },
    });
    const ids = deliveries.map((delivery) => delivery.id);
    await enqueueDeliveries(tx, ids, ctx.delivery.graceMs);
    await ctx.outbound?.onReportVersionIssued(tx, issued);
    return () => sendDeliveries(ctx, ids);
  };
}

/**
 * Interpretations signed before reports were stored (or imported with the demo data) have no stored versions: they
 * are issued now, from the signed text that never changes, and are not mailed (nobody was named then).
 */
export async function issueMissingReports(
  ctx: Pick<ReportsContext, "caps" | "company">,
  db: Db,
  caseId: string,
): Promise<void> {
  const page = await listRecords(
    { db, caps: ctx.caps },
    "interpretation",
    caseId,
    { limit: 200, offset: 0, includeDeleted: false },
    { username: "reports", permissions: new Set<Permission>() },
  );
  const signed = (page.items as InterpretationItem[]).filter(
    (item) => item.status === "final" && item.signedBy !== null && item.signedAt !== null,
  );
  for (const item of signed) {
    const missing = await missingVersions(db, item.id, 1 + item.addenda.length);
    for (const version of missing) {
      // After signing only addenda are appended, so the signing is the revision before the first addendum.
      const signRevision = (item.addenda[0]?.revision ?? item.revision + 1) - 1;
      const addenda = item.addenda.slice(0, version - 1);
      const last = addenda[addenda.length - 1];
      await db.transaction((tx) =>
        storeReportVersion(tx, ctx.company, {
          caseId,
          interpretationId: item.id,
          recordRevision: last?.revision ?? signRevision,
          version,
          data: item.data,
          signedBy: item.signedBy as NonNullable<InterpretationItem["signedBy"]>,
          signedAt: item.signedAt as string,
          addenda: addenda.map(({ text, author, createdAt }) => ({ text, author, createdAt })),
          issuedAt: new Date(last?.createdAt ?? (item.signedAt as string)),
        }),
      );
    }
  }
}

function toDelivery(row: ReportDeliveryRow): ReportDelivery {
  return {
    id: row.id,
    contactId: row.contactId,
    recipientName: row.recipientName,
    destination: maskDestination("email", row.recipientEmail),
    status: row.status,
    lastError: row.lastError,
    sentAt: row.sentAt?.toISOString() ?? null,
    linkExpiresAt: row.linkExpiresAt.toISOString(),
    openedAt: row.openedAt?.toISOString() ?? null,
    voidedAt: row.voidedAt?.toISOString() ?? null,
    voidReason: row.voidReason,
    sentBy: row.sentByUsername ? { sub: row.sentBySub, username: row.sentByUsername, name: row.sentByName } : null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toReportVersion(
  row: ReportVersionSummaryRow,
  deliveries: readonly ReportDeliveryRow[],
  ehr: ReadonlyMap<string, ReportEhrStatus> = new Map(),
): ReportVersion {
  const inputs = row.inputs as unknown as ReportInputs;
  const addendum = row.kind === "addendum" ? inputs.addenda[inputs.addenda.length - 1] : undefined;
  return {
    id: row.id,
    caseId: row.caseId,
    interpretationId: row.interpretationId,
    version: row.version,
    kind: row.kind,
    reportType: inputs.report.reportType,
    title: row.title,
    periodFrom: inputs.interpretation.periodFrom,
    periodTo: inputs.interpretation.periodTo,
    signedBy: inputs.signedBy,
    signedAt: inputs.signedAt,
    addendum: addendum ?? null,
    issuedAt: row.issuedAt.toISOString(),
    fhirStatus: row.kind === "addendum" ? "amended" : "final",
    pdf: { sha256: row.pdfSha256, bytes: row.pdfBytes },
    deliveries: deliveries.filter((delivery) => delivery.reportId === row.id).map(toDelivery),
    ehr: ehr.get(row.id) ?? null,
  };
}

/** `GET …/cases/{id}/reports`: every version, newest first, with its deliveries; what the protocol names now. */
export async function listCaseReports(
  ctx: ReportsContext,
  caseId: string,
  permissions: ReadonlySet<Permission>,
): Promise<ReportList> {
  const caseRow = await requireCase(ctx.db, caseId);
  await issueMissingReports(ctx, ctx.db, caseId);
  const versions = await findReportVersionsOfCase(ctx.db, caseId);
  const deliveries = await findDeliveriesOfReports(
    ctx.db,
    versions.map((version) => version.id),
  );
  const ehr =
    (await ctx.outbound?.ehrStatusesOf(
      ctx.db,
      versions.map((version) => version.id),
    )) ?? new Map<string, ReportEhrStatus>();
  const protocol = await getCurrentProtocolRevision(ctx.db, caseRow.clientId);
  const contacts = new Map((await listContacts(ctx.db, caseRow.clientId)).map((contact) => [contact._id, contact]));
  const recipients = (protocol?.reportRecipients.contactIds ?? []).flatMap((id) => {
    const contact = contacts.get(id);
    return contact
      ? [{ contactId: id, name: contact.name, email: contact.email ? maskDestination("email", contact.email) : null }]
      : [];
  });
  return {
    caseId,
    caseNumber: caseRow.caseNumber,
    items: versions.map((version) => toReportVersion(version, deliveries, ehr)),
    recipients,
    canSend: permissions.has("reports:send"),
  };
}

/** A signed report is stored for the case: what the billing check of reviewed → closed asks. */
export async function hasSignedReport(db: Db, caseId: string): Promise<boolean> {
  return existsSignedReport(db, caseId);
}

async function requireVersion(db: Db, caseId: string, reportId: string): Promise<ReportVersionRow> {
  await requireCase(db, caseId);
  const row = await findReportVersion(db, reportId, caseId);
  if (!row) throw new AppError("not_found", `The case has no report version with id ${reportId}.`);
  return row;
}

async function discloseToStaff(
  db: Db,
  row: ReportVersionRow,
  kind: "pdf-exported" | "fhir-exported" | "page-exported",
  actor: Actor,
): Promise<void> {
  const user = await findUserById(db, actor.sub);
  const name = user?.name ?? null;
  await insertDisclosure(db, {
    kind,
    patientMrn: row.patientMrn,
    patientName: row.patientName,
    caseId: row.caseId,
    clientId: row.clientId,
    reportId: row.id,
    recipient: name ? `${name} (${actor.username})` : actor.username,
    bySub: actor.sub,
    byUsername: actor.username,
    byName: name,
    ip: actor.ip ?? null,
  });
}

/** `GET …/reports/{reportId}/pdf`: the stored bytes, never re-rendered; recorded as a disclosure. */
export async function getReportPdf(
  db: Db,
  caseId: string,
  reportId: string,
  actor: Actor,
): Promise<{ bytes: Buffer; fileName: string }> {
  const row = await requireVersion(db, caseId, reportId);
  await discloseToStaff(db, row, "pdf-exported", actor);
  return { bytes: row.pdf, fileName: reportFileNameOf(row.inputs as unknown as ReportInputs) };
}

/** `GET …/reports/{reportId}/fhir`: the version as a FHIR R4 DiagnosticReport; recorded as a disclosure. */
export async function getReportFhir(
  ctx: Pick<ReportsContext, "db" | "fhirReport">,
  caseId: string,
  reportId: string,
  actor: Actor,
): Promise<FhirDiagnosticReport> {
  const row = await requireVersion(ctx.db, caseId, reportId);
  const resource = await ctx.fhirReport(ctx.db, row.clientId, row.id);
  if (!resource) throw new AppError("not_found", `The case has no report version with id ${reportId}.`);
  await discloseToStaff(ctx.db, row, "fhir-exported", actor);
  return resource;
}

/**
 * `GET …/reports/{reportId}/document`: what the version's PDF says, for the printable page; recorded as a disclosure
 * like the PDF, since the page prints the same content.
 */
export async function getReportDocument(
  db: Db,
  caseId: string,
  reportId: string,
  actor: Actor,
): Promise<ReportDocument> {
  const row = await requireVersion(db, caseId, reportId);
  await discloseToStaff(db, row, "page-exported", actor);
  return { id: row.id, ...buildReportDocument(row.inputs as unknown as ReportInputs) };
}

/**
 * `POST …/reports/{reportId}/deliveries`: a new e-mail with a new one-time link to each named contact of the case's
 * client (any live contact with an e-mail address, not only those the protocol names). The older unused links of this
 * version to the same people are voided in the same transaction: one link per person stands.
 */
export async function resendReport(
  ctx: ReportsContext,
  caseId: string,
  reportId: string,
  contactIds: readonly string[],
  actor: Actor,
): Promise<ReportVersion> {
  const row = await requireVersion(ctx.db, caseId, reportId);
  const contacts = new Map((await listContacts(ctx.db, row.clientId)).map((contact) => [contact._id, contact]));
  const issues = contactIds.flatMap((id, index) => {
    const contact = contacts.get(id);
    const path = `body.contactIds.${index}`;
    if (!contact) return [{ path, message: "is not a contact of this case's client" }];
    if (!contact.email) return [{ path, message: `${contact.name} has no e-mail address` }];
    return [];
  });
  if (issues.length > 0) {
    throw new AppError(
      "bad_request",
      `Invalid request: ${issues.map((issue) => `${issue.path} ${issue.message}`).join("; ")}`,
      { issues },
    );
  }
  const recipients = contactIds.map((id) => {
    const contact = contacts.get(id) as NonNullable<ReturnType<typeof contacts.get>>;
    return { contactId: id, name: contact.name, email: contact.email as string };
  });
  const name = (await findUserById(ctx.db, actor.sub))?.name ?? null;
  const created = await ctx.db.transaction(async (tx) => {
    const deliveries = await createDeliveries(tx, ctx, row, recipients, new Date(), { name, ...actor });
    await voidSupersededLinks(tx, row.id, deliveries, actor);
    await enqueueDeliveries(
      tx,
      deliveries.map((delivery) => delivery.id),
      ctx.delivery.graceMs,
    );
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "report.resend",
        { type: "case", id: caseId },
        {
          caseId,
          clientId: row.clientId,
          reportId,
          version: row.version,
          recipients: deliveries.map(recipientLabel),
        },
      ),
    );
    return deliveries;
  });
  await sendDeliveries(
    ctx,
    created.map((delivery) => delivery.id),
  );
  const deliveries = await findDeliveriesOfReports(ctx.db, [row.id]);
  return toReportVersion(row, deliveries, await ctx.outbound?.ehrStatusesOf(ctx.db, [row.id]));
}

/**
 * `POST …/reports/{reportId}/deliveries/{deliveryId}/void`: staff withdraw an unused link (sent to the wrong address,
 * or no longer wanted); it downloads nothing afterwards. A spent or already voided link is a 409 saying which.
 */
export async function voidReportLink(
  db: Db,
  caseId: string,
  reportId: string,
  deliveryId: string,
  actor: Actor,
): Promise<ReportVersion> {
  const row = await requireVersion(db, caseId, reportId);
  await db.transaction(async (tx) => {
    const voided = await voidDelivery(tx, reportId, deliveryId, { reason: "staff", at: new Date(), by: actor });
    if (voided.length === 0) {
      const [delivery] = (await findDeliveriesOfReports(tx, [reportId])).filter((entry) => entry.id === deliveryId);
      if (!delivery) throw new AppError("not_found", `The report version has no delivery with id ${deliveryId}.`);
      throw new AppError(
        "conflict",
        delivery.openedAt
          ? "This link was already used: the report was downloaded with it."
          : "This link was already withdrawn.",
      );
    }
    await recordVoidedLinks(tx, voided, { reason: "staff", actor });
  });
  return toReportVersion(row, await findDeliveriesOfReports(db, [reportId]));
}
