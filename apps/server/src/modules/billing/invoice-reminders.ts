import { sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, queryRows } from "../../db/client.js";
import { defineJob } from "../../jobs/job-definition.js";
import { queueReminder } from "./invoice-sending-service.js";
import { invoiceStatusSql } from "./invoice-status.js";

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
