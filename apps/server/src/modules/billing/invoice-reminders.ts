import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "../../audit/record-audit.js";
import { type Db, queryRows } from "../../db/client.js";
import { invoices } from "../../db/schema.js";
import { defineJob, type JobDefinition } from "../../jobs/job-definition.js";
import { findSending, settleSending } from "./invoice-sending-repository.js";
import { queueReminder } from "./invoice-sending-service.js";
import { invoiceFiguresSql, invoiceStatusSql, totalCentsSql } from "./invoice-status.js";

const hourMs = 60 * 60_000;

/**
 * Invoices owed past one of their client's reminder thresholds (BILLING.md "Sending invoices and reminders"): per
 * invoice the highest threshold reached, when no reminder at it or a later one was claimed yet, and the invoice is `overdue` by the
 * ledger's one status rule (`invoiceStatusSql`: something still open, not written off). Clients who opted out, and
 * credit notes, are never reminded.
 */
async function findRemindersDue(db: Db, today: string) {
  return queryRows<{ invoice_id: string; client_id: string; days: number }>(
    db,
    sql`select invoices.id as invoice_id, invoices.client_id, max(d.days) as days
        from invoices
        join client_billing_profiles p on p.client_id = invoices.client_id
        cross join lateral (select value::int as days from jsonb_array_elements_text(p.reminder_days)) d
        where invoices.kind <> 'credit-note'
          and p.reminders_enabled
          and jsonb_array_length(p.billing_contact_ids) > 0
          and invoices.due_date + d.days <= ${today}::date
          and ${invoiceStatusSql(today)} = 'overdue'
          and not exists (
            select 1 from invoice_sendings s
            where s.invoice_id = invoices.id and s.purpose = 'reminder' and s.reminder_days >= d.days
          )
        group by invoices.id, invoices.client_id
        order by invoices.id`,
  );
}

/**
 * Claims and queues the reminders due on `today` (UTC). Each is an `invoice_sendings` row unique per (invoice,
 * days): two instances (or two sweeps) racing for one insert one row, and only the inserted row is e-mailed.
 * Returns how many were queued.
 */
export async function sweepInvoiceReminders(db: Db, today: string): Promise<number> {
  let queued = 0;
  for (const due of await findRemindersDue(db, today)) {
    const claimed = await db.transaction((tx) =>
      queueReminder(tx, { id: due.invoice_id, clientId: due.client_id }, Number(due.days)),
    );
    if (claimed) queued += 1;
  }
  return queued;
}

/** Hourly across instances (one job per hour, the period's key): reminders go out within the hour they fall due. */
export function invoiceRemindersJob() {
  return defineJob({
    kind: "invoice-reminders",
    payload: z.object({ period: z.iso.datetime() }),
    retry: { limit: 2, backoff: { baseMs: 5 * 60_000, maxMs: 5 * 60_000 } },
    timeoutMs: 10 * 60_000,
    every: { ms: hourMs, payload: (start) => ({ period: start.toISOString() }) },
    maxWaitMs: 3 * hourMs,
    handle: async (_payload, { db, log }) => {
      const queued = await sweepInvoiceReminders(db, new Date().toISOString().slice(0, 10));
      if (queued > 0) log.info({ queued }, "overdue invoice reminders queued");
    },
  });
}

/** Every ledger entry recorded so far, whatever the day it is dated: what the invoice owes at the moment of sending. */
const everythingRecorded = "9999-12-31";

/** Why a reminder of this invoice should not leave now, or undefined when it is still owed (status `overdue`). */
async function reasonNotToRemind(db: Db, invoiceId: string): Promise<string | undefined> {
  const [invoice] = await db
    .select({
      number: invoices.number,
      status: invoiceStatusSql(everythingRecorded),
      creditedCents: invoiceFiguresSql(everythingRecorded).creditedCents.mapWith(Number),
      totalCents: totalCentsSql.mapWith(Number),
    })
    .from(invoices)
    .where(eq(invoices.id, invoiceId))
    .limit(1);
  if (!invoice) return "the invoice no longer exists";
  switch (invoice.status) {
    case "overdue":
      return undefined;
    case "written-off":
      return `${invoice.number} was written off before the reminder left`;
    case "paid":
      return invoice.creditedCents >= invoice.totalCents
        ? `${invoice.number} was credited in full before the reminder left`
        : `${invoice.number} was paid before the reminder left`;
    default:
      return `${invoice.number} is not overdue (${invoice.status})`;
  }
}

/**
 * Re-reads a reminder's invoice just before the e-mail would leave (BILLING.md "Sending invoices and reminders"):
 * the sweep queued it while the invoice was overdue, but a payment, a write-off or a credit note may have settled it
 * since. Then the sending is settled without an e-mail (`withdrawn`, the reason as its error, so the invoice's page
 * says why nothing went) and audited. Anything else, and a reminder already settled, is left to the delivery.
 * Returns the reason when it withdrew the reminder.
 */
export async function withdrawReminderNoLongerOwed(db: Db, sendingId: string): Promise<string | undefined> {
  const sending = await findSending(db, sendingId);
  if (!sending || sending.purpose !== "reminder" || sending.status !== "pending") return undefined;
  const reason = await reasonNotToRemind(db, sending.invoiceId);
  if (reason === undefined) return undefined;
  const withdrawn = await db.transaction(async (tx) => {
    const settled = await settleSending(tx, sending.id, {
      status: "withdrawn",
      lastError: `Not sent: ${reason}.`,
      attachmentSha256: null,
      finishedAt: new Date(),
    });
    if (!settled) return false;
    await recordAudit(tx, {
      action: "billing.invoice.reminder-withdrawn",
      outcome: "success",
      actor: { sub: null, username: sending.requestedByUsername },
      target: { type: "invoice", id: sending.invoiceId },
      details: { sendingId: sending.id, reminderDays: sending.reminderDays, reason },
    });
    return true;
  });
  return withdrawn ? reason : undefined;
}

/**
 * The invoice-sending job with the reminders' last check before it: a reminder whose invoice was settled since the
 * sweep is withdrawn first, and the delivery, finding it settled, sends nothing.
 */
export function recheckingReminders(job: JobDefinition<{ sendingId: string }>): JobDefinition<{ sendingId: string }> {
  // biome-ignore lint/plugin/leading-spread-then-keys: this handle wraps the job's own
  return {
    ...job,
    handle: async (payload, context) => {
      await withdrawReminderNoLongerOwed(context.db, payload.sendingId);
      await job.handle(payload, context);
    },
  };
}
