import type { ReportLinkRefusal, ReportLinkView } from "@vigil/contract";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { hitRateLimit } from "../../identity/rate-limits-repository.js";
import { verifyLink } from "../../links/signed-links.js";
import { disclosedRecipient } from "./disclosures-service.js";
import { reportLinkSecret } from "./report-delivery.js";
import type { ReportInputs } from "./report-inputs.js";
import {
  findDelivery,
  findReportVersion,
  findReportVersionSummary,
  insertDisclosure,
  type ReportDeliveryRow,
  spendDelivery,
} from "./reports-repository.js";

/**
 * The two public calls of a report's download link (no account): look it up (does not spend it), and download the
 * PDF (spends it: once per link). The token arrives in the body; a forged or altered one is a 404 before any lookup,
 * a used or expired one a 410 saying which. Both are rate limited per address and audited without a user.
 */

/** Link calls per address and minute: enough for a person, far too few to guess at tokens. */
const callsPerMinute = 30;

export type LinkCaller = { ip: string; userAgent: string | undefined };

function invalid(): AppError {
  return new AppError("not_found", "This link is not valid.");
}

function gone(refusal: ReportLinkRefusal): AppError {
  const message =
    refusal.reason === "used"
      ? "This link was already used: each link downloads the report once. Ask for the report to be sent again."
      : "This link has expired. Ask for the report to be sent again.";
  return new AppError("gone", message, refusal);
}

async function auditLinkCall(
  db: Db,
  action: "report-link.lookup" | "report-link.download",
  caller: LinkCaller,
  outcome: "success" | "failure",
  details: Record<string, unknown>,
): Promise<void> {
  await recordAudit(db, {
    action,
    outcome,
    ip: caller.ip,
    userAgent: caller.userAgent,
    ...(typeof details.caseId === "string" ? { target: { type: "case", id: details.caseId } } : {}),
    details,
  });
}

/** The delivery a genuine token names; 404 for anything else, 429 past the per-address limit. */
async function deliveryOf(db: Db, token: string, caller: LinkCaller, now: Date): Promise<ReportDeliveryRow> {
  const limit = await hitRateLimit(db, `report-link:${caller.ip}`, callsPerMinute, 60, now);
  if (!limit.allowed) {
    throw new AppError("too_many_requests", "Too many attempts; wait a minute and try again.", {
      retryAfterSeconds: limit.retryAfterSeconds,
    });
  }
  const link = verifyLink(await reportLinkSecret(db), token);
  const delivery = link ? await findDelivery(db, link.id) : undefined;
  // The token carries its expiry: one that does not match the row's was not made for it.
  if (!link || !delivery || delivery.linkExpiresAt.getTime() !== link.expiresAt.getTime()) throw invalid();
  return delivery;
}

function refusalOf(delivery: ReportDeliveryRow, now: Date): ReportLinkRefusal | undefined {
  if (delivery.openedAt) return { reason: "used", at: delivery.openedAt.toISOString() };
  if (now.getTime() >= delivery.linkExpiresAt.getTime()) {
    return { reason: "expired", at: delivery.linkExpiresAt.toISOString() };
  }
  return undefined;
}

function detailsOf(delivery: ReportDeliveryRow, extra: Record<string, unknown> = {}) {
  return { deliveryId: delivery.id, reportId: delivery.reportId, caseId: delivery.caseId, ...extra };
}

/** `POST /api/report-links/lookup`: what the link will download, without spending it. */
export async function lookUpReportLink(db: Db, token: string, caller: LinkCaller): Promise<ReportLinkView> {
  const now = new Date();
  const delivery = await deliveryOf(db, token, caller, now);
  const refusal = refusalOf(delivery, now);
  if (refusal) {
    await auditLinkCall(db, "report-link.lookup", caller, "failure", detailsOf(delivery, { refused: refusal.reason }));
    throw gone(refusal);
  }
  const version = await findReportVersionSummary(db, delivery.reportId);
  if (!version) throw invalid();
  const inputs = version.inputs as unknown as ReportInputs;
  await auditLinkCall(db, "report-link.lookup", caller, "success", detailsOf(delivery));
  return {
    companyName: inputs.company.name,
    clientName: inputs.client.name,
    caseNumber: inputs.case.number,
    title: version.title,
    version: version.version,
    kind: version.kind,
    signedAt: inputs.signedAt,
    signedBy: inputs.signedBy.name || inputs.signedBy.username,
    recipientName: delivery.recipientName,
    linkExpiresAt: delivery.linkExpiresAt.toISOString(),
  };
}

/**
 * `POST /api/report-links/download`: the stored PDF, once. The link is spent, the disclosure recorded and the call
 * audited in one transaction; of two downloads racing on one link, exactly one gets the PDF.
 */
export async function downloadReportLink(
  db: Db,
  token: string,
  caller: LinkCaller,
): Promise<{ bytes: Buffer; fileName: string }> {
  const now = new Date();
  const delivery = await deliveryOf(db, token, caller, now);
  const early = refusalOf(delivery, now);
  if (early) {
    await auditLinkCall(db, "report-link.download", caller, "failure", detailsOf(delivery, { refused: early.reason }));
    throw gone(early);
  }
  const result = await db.transaction(async (tx) => {
    const spent = await spendDelivery(tx, delivery.id, now);
    if (!spent) return undefined;
    const version = await findReportVersion(tx, delivery.reportId);
    if (!version) throw invalid();
    await insertDisclosure(tx, {
      kind: "report-downloaded",
      patientMrn: version.patientMrn,
      patientName: version.patientName,
      caseId: version.caseId,
      clientId: version.clientId,
      reportId: version.id,
      deliveryId: delivery.id,
      recipient: disclosedRecipient(delivery),
      ip: caller.ip,
      at: now,
    });
    await auditLinkCall(
      tx,
      "report-link.download",
      caller,
      "success",
      detailsOf(delivery, { version: version.version }),
    );
    const inputs = version.inputs as unknown as ReportInputs;
    return { bytes: version.pdf, fileName: `${inputs.case.number}-report-v${version.version}.pdf` };
  });
  if (result) return result;
  const used = await findDelivery(db, delivery.id);
  await auditLinkCall(db, "report-link.download", caller, "failure", detailsOf(delivery, { refused: "used" }));
  throw gone({ reason: "used", at: used?.openedAt?.toISOString() ?? null });
}
