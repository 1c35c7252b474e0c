import type { ReportLinkRefusal, ReportLinkView } from "@vigil/contract";
import { recordAudit, recordRepeatedAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { admitLinkCall, type LinkCaller, type LinkLimits, recordLinkRefusal } from "../../links/link-calls.js";
import { verifyLink } from "../../links/signed-links.js";
import { disclosedRecipient } from "./disclosures-service.js";
import { reportLinkSecret } from "./report-delivery.js";
import type { ReportInputs } from "./report-inputs.js";
import { reportFileNameOf } from "./report-naming.js";
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
 * PDF (spends it: once per link). The token arrives in the body and passes the links' one gate (links/link-calls.ts):
 * a forged or altered one is a 404 (429 once its address has had too many), a genuine one is never refused for
 * others' calls; a used, expired or voided one is a 410 saying which. Every call is audited without a user.
 */

export type ReportLinkContext = { db: Db; linkLimits: LinkLimits };

function gone(refusal: ReportLinkRefusal): AppError {
  const message =
    refusal.reason === "used"
      ? "This link was already used: each link downloads the report once. Ask for the report to be sent again."
      : refusal.reason === "voided"
        ? "This link was withdrawn by the sender and no longer downloads the report. Ask for the report to be sent again."
        : "This link has expired. Ask for the report to be sent again.";
  return new AppError("gone", message, refusal);
}

type LinkAction = "report-link.lookup" | "report-link.download";

async function auditLinkCall(
  db: Db,
  action: LinkAction,
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

/** The delivery a genuine token names; 404 for anything else, 429 past the links' limits. */
async function deliveryOf(
  ctx: ReportLinkContext,
  action: LinkAction,
  token: string,
  caller: LinkCaller,
  now: Date,
): Promise<ReportDeliveryRow> {
  const { db } = ctx;
  const secret = await reportLinkSecret(db);
  const gate = { kind: "report-link" as const, action, limits: ctx.linkLimits, caller, now };
  const link = await admitLinkCall(db, gate, () => verifyLink(secret, token));
  const delivery = await findDelivery(db, link.id);
  // The token carries its expiry: one that does not match the row's was not made for it.
  if (!delivery || delivery.linkExpiresAt.getTime() !== link.expiresAt.getTime()) {
    await recordLinkRefusal(db, gate, "invalid", `report-link:${link.id}`, { linkId: link.id });
    throw new AppError("not_found", "This link is not valid.");
  }
  return delivery;
}

/** Why the link no longer works, if it does not; times in the client's zone (`timeZone`). */
function refusalOf(delivery: ReportDeliveryRow, now: Date): ReportLinkRefusal | undefined {
  if (delivery.openedAt) return { reason: "used", at: delivery.openedAt.toISOString() };
  if (delivery.voidedAt) return { reason: "voided", at: delivery.voidedAt.toISOString() };
  if (now.getTime() >= delivery.linkExpiresAt.getTime()) {
    return { reason: "expired", at: delivery.linkExpiresAt.toISOString() };
  }
  return undefined;
}

function detailsOf(delivery: ReportDeliveryRow, extra: Record<string, unknown> = {}) {
  return { deliveryId: delivery.id, reportId: delivery.reportId, caseId: delivery.caseId, ...extra };
}

/** The client's zone as the report's e-mail used it (the inputs stored when the version was signed). */
async function zoneOf(db: Db, reportId: string): Promise<string | undefined> {
  const version = await findReportVersionSummary(db, reportId);
  return version ? (version.inputs as unknown as ReportInputs).client.timeZone : undefined;
}

/**
 * Audits the refusal of a genuine link and answers 410 with why, its time in the client's zone. Asked again and again,
 * the refusals of one link from one address within a window are one counted row, as the gate's are.
 */
async function refuse(
  ctx: ReportLinkContext,
  action: LinkAction,
  caller: LinkCaller,
  delivery: ReportDeliveryRow,
  refusal: ReportLinkRefusal,
) {
  const { db } = ctx;
  const now = new Date();
  const windowMs = ctx.linkLimits.ipWindowSeconds * 1000;
  const window = new Date(Math.floor(now.getTime() / windowMs) * windowMs).toISOString();
  await recordRepeatedAudit(
    db,
    {
      action,
      outcome: "failure",
      ip: caller.ip,
      userAgent: caller.userAgent,
      target: { type: "case", id: delivery.caseId },
      details: detailsOf(delivery, { refused: refusal.reason }),
    },
    `${action}|${refusal.reason}|report-link:${delivery.id}|${caller.ip}|${window}`,
    now,
  );
  const timeZone = await zoneOf(db, delivery.reportId);
  return gone(timeZone ? { reason: refusal.reason, at: refusal.at, timeZone } : refusal);
}

/** `POST /api/report-links/lookup`: what the link will download, without spending it. */
export async function lookUpReportLink(
  ctx: ReportLinkContext,
  token: string,
  caller: LinkCaller,
): Promise<ReportLinkView> {
  const { db } = ctx;
  const now = new Date();
  const delivery = await deliveryOf(ctx, "report-link.lookup", token, caller, now);
  const refusal = refusalOf(delivery, now);
  if (refusal) throw await refuse(ctx, "report-link.lookup", caller, delivery, refusal);
  const version = await findReportVersionSummary(db, delivery.reportId);
  if (!version) throw new AppError("not_found", "This link is not valid.");
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
    timeZone: inputs.client.timeZone,
  };
}

/**
 * `POST /api/report-links/download`: the stored PDF, once. The link is spent, the disclosure recorded and the call
 * audited in one transaction; of two downloads racing on one link (or a download and its voiding), exactly one wins.
 */
export async function downloadReportLink(
  ctx: ReportLinkContext,
  token: string,
  caller: LinkCaller,
): Promise<{ bytes: Buffer; fileName: string }> {
  const { db } = ctx;
  const now = new Date();
  const delivery = await deliveryOf(ctx, "report-link.download", token, caller, now);
  const early = refusalOf(delivery, now);
  if (early) throw await refuse(ctx, "report-link.download", caller, delivery, early);
  const result = await db.transaction(async (tx) => {
    const spent = await spendDelivery(tx, delivery.id, now);
    if (!spent) return undefined;
    const version = await findReportVersion(tx, delivery.reportId);
    if (!version) throw new AppError("not_found", "This link is not valid.");
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
    return { bytes: version.pdf, fileName: reportFileNameOf(inputs) };
  });
  if (result) return result;
  // Spent or voided in the meantime: say which.
  const after = (await findDelivery(db, delivery.id)) ?? delivery;
  throw await refuse(
    ctx,
    "report-link.download",
    caller,
    after,
    refusalOf(after, now) ?? { reason: "used", at: after.openedAt?.toISOString() ?? null },
  );
}
