import { createHash } from "node:crypto";
import type { InvoiceDeliveryMode, InvoiceSending } from "@vigil/contract";
import { z } from "zod";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import type { SendingRecipient } from "../../db/tables/invoice-sending-tables.js";
import { AppError } from "../../errors/app-error.js";
import { enqueueJob } from "../../jobs/job-queue.js";
import { type MessageService, maskDestination } from "../../messaging/message-service.js";
import { listContacts } from "../clients/contacts-service.js";
import { recordInvoiceDisclosures } from "../reports/disclosures-service.js";
import { type BillingActor, badRequest } from "./billing-service.js";
import { type InvoiceLinkSettings, invoiceLinkOf, linkLines } from "./invoice-links-service.js";
import {
  findBillingContactIds,
  findInvoiceToSend,
  findNamedPatients,
  findSending,
  type InvoiceToSend,
  insertSending,
  listSendingsOf,
  type SendingRow,
  type SendingValues,
  setSendingError,
  settleSending,
} from "./invoice-sending-repository.js";

/**
 * Sending invoices (BILLING.md "Sending invoices and reminders"): an e-mail of an invoice or credit note to the
 * client's billing contacts, the PDF as issued attached or, when the client's profile says so, a one-time link to it
 * (invoice-links-service.ts), through the job room. The sending row is written with its
 * job in one transaction; the job sends it once and records the outcome on it.
 */

export const invoiceSendingKind = { kind: "invoice-sending", payload: z.object({ sendingId: z.uuid() }) };

/** 6 tries, 30 s doubling to 30 min (about an hour in all); the last failed try marks the sending `failed`. */
export const invoiceSendingRetry = { limit: 6, backoff: { baseMs: 30_000, maxMs: 30 * 60_000 } };

export function toInvoiceSending(row: SendingRow): InvoiceSending {
  return {
    id: row.id,
    invoiceId: row.invoiceId,
    purpose: row.purpose,
    trigger: row.trigger,
    reminderDays: row.reminderDays,
    recipients: row.recipients,
    status: row.status,
    lastError: row.lastError,
    attachmentSha256: row.attachmentSha256,
    delivery: row.delivery,
    linkExpiresAt: row.linkExpiresAt?.toISOString() ?? null,
    linkOpenedAt: row.linkOpenedAt?.toISOString() ?? null,
    requestedAt: row.requestedAt.toISOString(),
    requestedBy: { username: row.requestedByUsername, name: row.requestedByName },
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The client's billing contacts with an e-mail address, in the order the profile names them. */
async function recipientsOf(
  db: Db,
  clientId: string,
): Promise<{ recipients: SendingRecipient[]; sendOnIssue: boolean; delivery: InvoiceDeliveryMode }> {
  const profile = await findBillingContactIds(db, clientId);
  if (!profile || profile.billingContactIds.length === 0) {
    return { recipients: [], sendOnIssue: false, delivery: "attachment" };
  }
  const contacts = new Map((await listContacts(db, clientId)).map((contact) => [contact._id, contact]));
  const recipients = profile.billingContactIds.flatMap((id) => {
    const contact = contacts.get(id);
    return contact?.email ? [{ contactId: id, name: contact.name, email: contact.email }] : [];
  });
  return { recipients, sendOnIssue: profile.sendOnIssue, delivery: profile.invoiceDelivery };
}

/** A profile names only the client's own contacts (400 otherwise: an id from another client, or a typo). */
export async function requireBillingContacts(db: Db, clientId: string, contactIds: readonly string[]): Promise<void> {
  if (contactIds.length === 0) return;
  const known = new Set((await listContacts(db, clientId)).map((contact) => contact._id));
  const issues = contactIds.flatMap((id, index) =>
    known.has(id) ? [] : [{ path: `body.billingContactIds.${index}`, message: "is not one of the client's contacts" }],
  );
  if (issues.length > 0) throw badRequest(issues, "A billing contact is not one of the client's contacts.");
}

/** A sending and its job, in the caller's transaction; undefined when a reminder's threshold was claimed already. */
export async function queueSending(
  tx: Db,
  values: Omit<SendingValues, "id" | "status">,
): Promise<SendingRow | undefined> {
  const row = await insertSending(tx, values);
  if (row) {
    await enqueueJob(tx, invoiceSendingKind, { sendingId: row.id }, { uniqueKey: `invoice-sending:${row.id}` });
  }
  return row;
}

/** On issue, in the issuing transaction: queued when the client's profile says so and names someone to send to. */
export async function queueSendingOnIssue(
  tx: Db,
  invoice: { id: string; clientId: string },
  actor: BillingActor,
): Promise<void> {
  const { recipients, sendOnIssue, delivery } = await recipientsOf(tx, invoice.clientId);
  if (!sendOnIssue || recipients.length === 0) return;
  await queueSending(tx, {
    delivery,
    invoiceId: invoice.id,
    purpose: "invoice",
    trigger: "on-issue",
    recipients,
    requestedByUsername: actor.username,
    requestedByName: actor.name,
  });
}

/** A reminder of an overdue invoice at `days`, claimed once per invoice and threshold (the unique row). */
export async function queueReminder(tx: Db, invoice: { id: string; clientId: string }, days: number) {
  const { recipients, delivery } = await recipientsOf(tx, invoice.clientId);
  if (recipients.length === 0) return undefined;
  return queueSending(tx, {
    delivery,
    invoiceId: invoice.id,
    purpose: "reminder",
    trigger: "reminder",
    reminderDays: days,
    recipients,
    requestedByUsername: "system",
    requestedByName: "Overdue reminders",
  });
}

/** `POST /billing/invoices/{id}/sendings`: sends (or sends again) the invoice to the client's billing contacts. */
export async function sendInvoice(db: Db, invoiceId: string, actor: BillingActor): Promise<InvoiceSending> {
  return db.transaction(async (tx) => {
    const invoice = await findInvoiceToSend(tx, invoiceId);
    if (!invoice) throw new AppError("not_found", `No invoice with id ${invoiceId}.`);
    const { recipients, delivery } = await recipientsOf(tx, invoice.clientId);
    if (recipients.length === 0) {
      throw new AppError(
        "conflict",
        "The client has no billing contact with an e-mail address. Name them in the client's billing profile first.",
      );
    }
    const row = (await queueSending(tx, {
      delivery,
      invoiceId,
      purpose: "invoice",
      trigger: "manual",
      recipients,
      requestedByUsername: actor.username,
      requestedByName: actor.name,
    })) as SendingRow;
    await recordAudit(tx, {
      action: "billing.invoice.send-requested",
      outcome: "success",
      actor: { sub: actor.sub, username: actor.username },
      target: { type: "invoice", id: invoiceId },
      ip: actor.ip,
      userAgent: actor.userAgent,
      details: { number: invoice.number, sendingId: row.id, recipients: recipients.length, delivery },
    });
    return toInvoiceSending(row);
  });
}

/** `GET /billing/invoices/{id}/sendings`: every e-mail of the invoice, newest first. */
export async function listInvoiceSendings(db: Db, invoiceId: string): Promise<InvoiceSending[]> {
  if (!(await findInvoiceToSend(db, invoiceId))) throw new AppError("not_found", `No invoice with id ${invoiceId}.`);
  return (await listSendingsOf(db, invoiceId)).map(toInvoiceSending);
}

const documentNames = { invoice: "Invoice", supplementary: "Supplementary invoice", "credit-note": "Credit note" };

function daysPast(dueDate: string, today: Date): number {
  return Math.floor((today.getTime() - Date.parse(`${dueDate}T00:00:00Z`)) / 86_400_000);
}

/**
 * The e-mail: what the document is, its total and due date, and the link when it carries one instead of the PDF; no
 * patient names (the PDF has what the client asked).
 */
function messageOf(
  invoice: InvoiceToSend,
  sending: SendingRow,
  now: Date,
  link: { url: string; expiresAt: Date } | undefined,
) {
  const pdf = link ? linkLines(link, invoice.timeZone) : [];
  const what = `${documentNames[invoice.kind]} ${invoice.number}`;
  const from = invoice.issuerName || "Vigil";
  const amount = `${invoice.total} ${invoice.currency}`;
  if (sending.purpose === "reminder") {
    return {
      subject: `Reminder: ${what} is overdue`,
      body: [
        `${what} from ${from} to ${invoice.billToName}, ${amount}, was due on ${invoice.dueDate} (${daysPast(invoice.dueDate, now)} days ago) and is not settled yet.`,
        "",
        link
          ? "If you have paid it already, please disregard this reminder."
          : "The invoice is attached again. If you have paid it already, please disregard this reminder.",
        ...(link ? ["", ...pdf] : []),
      ].join("\n"),
    };
  }
  const terms =
    invoice.kind === "credit-note" ? `Amount credited: ${amount}.` : `Amount due: ${amount} by ${invoice.dueDate}.`;
  return {
    subject: `${what} from ${from}`,
    body: [
      `${what} from ${from} to ${invoice.billToName}, issued ${invoice.issueDate}.`,
      terms,
      "",
      ...(link ? pdf : ["The PDF is attached."]),
    ].join("\n"),
  };
}

/** How the e-mails leave, and where and for how long an invoice's link works. */
export type InvoiceSendingContext = { messages: MessageService } & InvoiceLinkSettings;

/**
 * Sends one sending outside any transaction (SMTP must not hold one open), then records its outcome. A sending
 * already sent or failed is left alone, so a job run twice sends nothing twice; only a try that dies after the relay
 * accepted the e-mail and before `sent` committed is sent again (the same PDF). The attachment is the stored bytes;
 * their SHA-256 is checked against the invoice's before anything leaves.
 */
export async function deliverInvoiceSending(
  db: Db,
  context: InvoiceSendingContext,
  sendingId: string,
  options: { final: boolean; now?: Date },
): Promise<void> {
  const sending = await findSending(db, sendingId);
  if (!sending || sending.status !== "pending") return;
  const invoice = (await findInvoiceToSend(db, sending.invoiceId)) as InvoiceToSend;
  const digest = createHash("sha256").update(invoice.pdf).digest("hex");
  let failure: string | undefined;
  const now = options.now ?? new Date();
  if (digest !== invoice.pdfSha256) {
    failure = `The stored PDF of ${invoice.number} does not match its SHA-256; nothing was sent.`;
  } else {
    try {
      const link = sending.delivery === "link" ? await invoiceLinkOf(db, context, sending, now) : undefined;
      await context.messages.send({
        channel: "email",
        to: sending.recipients.map((recipient) => recipient.email).join(", "),
        ...messageOf(invoice, sending, now, link),
        ...(link
          ? {}
          : {
              attachments: [
                { fileName: `${invoice.number}.pdf`, contentType: "application/pdf", content: invoice.pdf },
              ],
            }),
      });
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
  }
  if (failure !== undefined && !options.final) {
    await setSendingError(db, sending.id, failure);
    throw new Error(`Invoice sending ${sending.id}: ${failure}`);
  }
  await db.transaction(async (tx) => {
    const settled = await settleSending(tx, sending.id, {
      status: failure === undefined ? "sent" : "failed",
      lastError: failure ?? null,
      attachmentSha256: failure === undefined ? digest : null,
      finishedAt: new Date(),
    });
    if (!settled) return;
    // A link discloses nothing until it is opened (invoice-links-service.ts records that).
    if (failure === undefined && sending.delivery === "attachment") {
      // The PDF names the patients its client's profile asked for: each is a disclosure to these recipients.
      await recordInvoiceDisclosures(tx, await findNamedPatients(tx, invoice.id), {
        recipient: sending.recipients.map((recipient) => `${recipient.name} <${recipient.email}>`).join(", "),
        bySub: null,
        byUsername: sending.requestedByUsername,
        byName: sending.requestedByName,
      });
    }
    await recordAudit(tx, {
      action: sending.purpose === "reminder" ? "billing.invoice.reminded" : "billing.invoice.sent",
      outcome: failure === undefined ? "success" : "failure",
      actor: { sub: null, username: sending.requestedByUsername },
      target: { type: "invoice", id: invoice.id },
      details: {
        number: invoice.number,
        sendingId: sending.id,
        recipients: sending.recipients.map((recipient) => maskDestination("email", recipient.email)),
        delivery: sending.delivery,
        ...(sending.reminderDays === null ? {} : { reminderDays: sending.reminderDays }),
        ...(failure === undefined ? { pdfSha256: digest } : { error: failure }),
      },
    });
  });
  if (failure !== undefined) throw new Error(`Invoice sending ${sending.id}: ${failure}`);
}
