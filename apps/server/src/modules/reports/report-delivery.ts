import { formatInstantInZone, pages } from "@vigil/contract";
import type { Actor } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { cachedServerSecret } from "../../identity/server-secrets-repository.js";
import { signLink } from "../../links/signed-links.js";
import { type MessageService, maskDestination } from "../../messaging/message-service.js";
import { disclosedRecipient } from "./disclosures-service.js";
import type { ReportInputs } from "./report-inputs.js";
import { reportSubjectOf } from "./report-naming.js";
import {
  findDeliveriesByIds,
  findReportVersionSummary,
  insertDeliveries,
  insertDisclosure,
  type ReportDeliveryRow,
  type ReportVersionSummaryRow,
  setDeliveryError,
  settleDelivery,
} from "./reports-repository.js";

/** What delivering reports needs: where links point, how long they work, who issues them, how mail leaves. */
export type ReportDeliveryContext = {
  db: Db;
  messages: MessageService;
  publicUrl: string;
  linkHours: number;
  /** The e-mails' jobs: the grace before they run, their tries and first back-off (REPORT_DELIVERY_*). */
  delivery: DeliverySettings;
};

export type DeliverySettings = { graceMs: number; attempts: number; retryMs: number };

/** One server secret keys every report link (the same on every instance; see links/signed-links.ts). */
export function reportLinkSecret(db: Db): Promise<Buffer> {
  return cachedServerSecret(db, "report-links");
}

export type Recipient = { contactId: string; name: string; email: string };

/** "Dr. Ada Lee <a***e@example.org>": a recipient as the audit log's details name them. */
export function recipientLabel(delivery: Pick<ReportDeliveryRow, "recipientName" | "recipientEmail">): string {
  return `${delivery.recipientName} <${maskDestination("email", delivery.recipientEmail)}>`;
}

/** Pending deliveries (one link each) to `recipients`, in the caller's transaction; see enqueueDeliveries. */
export async function createDeliveries(
  tx: Db,
  context: { linkHours: number },
  version: ReportVersionSummaryRow,
  recipients: readonly Recipient[],
  now: Date,
  sentBy?: Actor & { name: string | null },
): Promise<ReportDeliveryRow[]> {
  // Whole seconds: the link carries its expiry in seconds, and the row must say the same instant.
  const expiresAt = new Date(Math.floor((now.getTime() + context.linkHours * 3_600_000) / 1000) * 1000);
  return insertDeliveries(
    tx,
    recipients.map((recipient) => ({
      reportId: version.id,
      caseId: version.caseId,
      contactId: recipient.contactId,
      recipientName: recipient.name,
      recipientEmail: recipient.email,
      linkExpiresAt: expiresAt,
      sentBySub: sentBy?.sub ?? null,
      sentByUsername: sentBy?.username ?? null,
      sentByName: sentBy?.name ?? null,
    })),
  );
}

function messageOf(inputs: ReportInputs, link: string, expiresAt: Date) {
  const zone = inputs.client.timeZone;
  const what = inputs.report.kind === "addendum" ? `an addendum (version ${inputs.report.version}) to` : "";
  // No patient name or MRN: the e-mail leaves the building; the PDF behind the link names the patient.
  return {
    subject: reportSubjectOf(inputs),
    body: [
      `${inputs.company.name} has signed ${what ? `${what} ` : ""}the ${inputs.report.title} for ${inputs.client.name}, case ${inputs.case.number}.`,
      "",
      `Download the PDF here (the link works once, until ${formatInstantInZone(expiresAt, zone)}):`,
      link,
      "",
      `If the link has expired or was already used, ask ${inputs.company.name} to send the report again.`,
    ].join("\n"),
  };
}

/**
 * The delivery job's retry policy (by default 8 tries, 30 s doubling to 30 min); its last failed try marks the
 * delivery `failed` (see report-delivery-job.ts).
 */
export function deliveryRetryOf(settings: DeliverySettings) {
  return {
    limit: settings.attempts,
    backoff: { baseMs: settings.retryMs, maxMs: Math.max(settings.retryMs, 30 * 60_000) },
  };
}

/**
 * Sends one delivery outside any transaction (SMTP must not hold one open; PGlite has one connection), then records
 * its outcome in one transaction: `sent` with its `report-delivered` disclosure and audit row. A delivery already
 * sent, voided or gone is left alone, so a second call (a job's retry, the fast path and its job) sends nothing.
 * A refused send keeps the delivery pending with the transport's error and throws, so the job tries again; only
 * `final` (the job's last try) marks it `failed`. A failure never undoes the signing: the list shows it and staff
 * re-send.
 */
export async function sendDelivery(
  context: ReportDeliveryContext,
  deliveryId: string,
  options: { final: boolean },
): Promise<void> {
  const { db } = context;
  const [delivery] = await findDeliveriesByIds(db, [deliveryId]);
  // `failed` is sent again only by a job retried from the queue page; a voided link is never mailed.
  if (!delivery || delivery.status === "sent" || delivery.voidedAt) return;
  const version = (await findReportVersionSummary(db, delivery.reportId)) as ReportVersionSummaryRow;
  const inputs = version.inputs as unknown as ReportInputs;
  const secret = await reportLinkSecret(db);
  // The token depends only on the delivery's id and expiry: a resent e-mail carries the same one-time link.
  const token = signLink(secret, { id: delivery.id, expiresAt: delivery.linkExpiresAt });
  const link = `${context.publicUrl}/#${pages["report-download"].href({ token })}`;
  const message = messageOf(inputs, link, delivery.linkExpiresAt);
  let failure: string | undefined;
  try {
    await context.messages.send({ channel: "email", to: delivery.recipientEmail, ...message });
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  if (failure !== undefined && !options.final) {
    await setDeliveryError(db, delivery.id, failure);
    throw new Error(`Report delivery ${delivery.id}: ${failure}`);
  }
  const by = delivery.sentByUsername
    ? { sub: delivery.sentBySub, username: delivery.sentByUsername }
    : { sub: null, username: null };
  await db.transaction(async (tx) => {
    const settled = await settleDelivery(
      tx,
      delivery.id,
      failure === undefined ? { status: "sent", sentAt: new Date() } : { status: "failed", lastError: failure },
    );
    if (!settled) return;
    if (failure === undefined) {
      await insertDisclosure(tx, {
        kind: "report-delivered",
        patientMrn: version.patientMrn,
        patientName: version.patientName,
        caseId: version.caseId,
        clientId: version.clientId,
        reportId: version.id,
        deliveryId: delivery.id,
        recipient: disclosedRecipient(delivery),
        bySub: delivery.sentBySub,
        byUsername: delivery.sentByUsername,
        byName: delivery.sentByName,
      });
    }
    await recordAudit(tx, {
      action: "report.delivery",
      outcome: failure === undefined ? "success" : "failure",
      actor: by,
      target: { type: "case", id: version.caseId },
      details: {
        caseId: version.caseId,
        clientId: version.clientId,
        reportId: version.id,
        version: version.version,
        deliveryId: delivery.id,
        recipient: recipientLabel(delivery),
        ...(failure === undefined ? {} : { error: failure }),
      },
    });
  });
  if (failure !== undefined) throw new Error(`Report delivery ${delivery.id}: ${failure}`);
}

/**
 * The fast path after the signing (or re-send) commits: each delivery is tried at once, in this request. Its job,
 * enqueued in the same transaction, is the safety net that runs later and finds it already sent; a refused send is
 * left pending for the job to retry.
 */
export async function sendDeliveries(context: ReportDeliveryContext, deliveryIds: readonly string[]): Promise<void> {
  for (const id of deliveryIds) {
    await sendDelivery(context, id, { final: false }).catch(() => undefined);
  }
}
