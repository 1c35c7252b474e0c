import type { ReportLinkVoidReason } from "@vigil/contract";
import type { Actor } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { disclosedRecipient } from "./disclosures-service.js";
import {
  type DeliveryVoid,
  findReportVersionSummary,
  insertDisclosure,
  type ReportDeliveryRow,
  type ReportVersionSummaryRow,
  voidDeliveriesToContacts,
  voidEarlierDeliveries,
} from "./reports-repository.js";

/*
 * Withdrawing unused report links (REPORTS.md, "Withdrawn links"): a link downloads the patient's report for whoever
 * holds the mailbox, so it stops working when staff void it, when its contact is removed (deleted, or dropped from the
 * protocol's report recipients), when the contact's address changes (the old mailbox may be someone else's now), and
 * when a newer link of the same version goes to the same person. Each voiding is a `link-voided` disclosure and an
 * audit row, in the transaction that voided it.
 */

/** Who voided links and why; no actor for what Vigil does itself. */
export type LinkVoiding = { reason: ReportLinkVoidReason; actor?: Actor | undefined; at?: Date };

/** The disclosure and audit row of each link just voided. */
export async function recordVoidedLinks(tx: Db, voided: readonly ReportDeliveryRow[], voiding: LinkVoiding) {
  const versions = new Map<string, ReportVersionSummaryRow | undefined>();
  for (const delivery of voided) {
    if (!versions.has(delivery.reportId)) {
      versions.set(delivery.reportId, await findReportVersionSummary(tx, delivery.reportId));
    }
    const version = versions.get(delivery.reportId);
    if (!version) continue;
    const by = voiding.actor;
    await insertDisclosure(tx, {
      kind: "link-voided",
      at: delivery.voidedAt ?? new Date(),
      patientMrn: version.patientMrn,
      patientName: version.patientName,
      caseId: version.caseId,
      clientId: version.clientId,
      reportId: version.id,
      deliveryId: delivery.id,
      recipient: disclosedRecipient(delivery),
      bySub: by?.sub ?? null,
      byUsername: by?.username ?? null,
      ip: by?.ip ?? null,
    });
    await recordAudit(tx, {
      action: "report-link.void",
      outcome: "success",
      actor: by ? { sub: by.sub, username: by.username } : { sub: null, username: null },
      target: { type: "case", id: version.caseId },
      ip: by?.ip,
      userAgent: by?.userAgent,
      details: {
        caseId: version.caseId,
        clientId: version.clientId,
        reportId: version.id,
        version: version.version,
        deliveryId: delivery.id,
        contactId: delivery.contactId,
        reason: voiding.reason,
      },
    });
  }
}

function voidOf(voiding: LinkVoiding): DeliveryVoid {
  return {
    reason: voiding.reason,
    at: voiding.at ?? new Date(),
    by: voiding.actor ? { sub: voiding.actor.sub, username: voiding.actor.username } : undefined,
  };
}

/**
 * The clients module's hook when contacts stop being who a link was for (removed, dropped from the protocol's report
 * recipients, or given another address): their unused links are voided in the caller's transaction.
 */
export async function withdrawContactLinks(
  tx: Db,
  contactIds: readonly string[],
  voiding: LinkVoiding,
): Promise<ReportDeliveryRow[]> {
  const voided = await voidDeliveriesToContacts(tx, contactIds, voidOf(voiding));
  await recordVoidedLinks(tx, voided, voiding);
  return voided;
}

/** `withdrawContactLinks` as the clients module's `onContactsWithdrawn` hook calls it. */
export function withdrawReportLinks(
  tx: Db,
  contactIds: readonly string[],
  reason: "recipient-removed" | "address-changed",
  actor: Actor,
): Promise<ReportDeliveryRow[]> {
  return withdrawContactLinks(tx, contactIds, { reason, actor });
}

/** A newer link of the version went to each of `sent`: the older unused ones to the same person stop working. */
export async function voidSupersededLinks(
  tx: Db,
  reportId: string,
  sent: readonly ReportDeliveryRow[],
  actor?: Actor,
): Promise<ReportDeliveryRow[]> {
  const voiding: LinkVoiding = { reason: "superseded", actor };
  const newIds = sent.map((delivery) => delivery.id);
  const voided: ReportDeliveryRow[] = [];
  for (const delivery of sent) {
    voided.push(
      ...(await voidEarlierDeliveries(
        tx,
        reportId,
        { contactId: delivery.contactId, email: delivery.recipientEmail },
        newIds,
        voidOf(voiding),
      )),
    );
  }
  await recordVoidedLinks(tx, voided, voiding);
  return voided;
}
