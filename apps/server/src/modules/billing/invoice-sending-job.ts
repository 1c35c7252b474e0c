import { defineJob } from "../../jobs/job-definition.js";
import {
  deliverInvoiceSending,
  type InvoiceSendingContext,
  invoiceSendingKind,
  invoiceSendingRetry,
} from "./invoice-sending-service.js";

/**
 * One e-mail of an invoice (sent by hand, again, on issue, or a reminder), enqueued with its sending row; a no-op
 * once the sending is settled. The last failed try marks it `failed` (BILLING.md "Sending invoices and reminders").
 */
export function invoiceSendingJob(context: InvoiceSendingContext) {
  return defineJob({
    retry: invoiceSendingRetry,
    timeoutMs: 2 * 60_000,
    maxWaitMs: 60 * 60_000,
    handle: async ({ sendingId }, { db, attempt }) => {
      await deliverInvoiceSending(db, context, sendingId, { final: attempt >= invoiceSendingRetry.limit });
    },
    ...invoiceSendingKind,
  });
}
