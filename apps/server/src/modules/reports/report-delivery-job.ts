import { z } from "zod";
import type { Db } from "../../db/client.js";
import { defineJob } from "../../jobs/job-definition.js";
import { enqueueJob } from "../../jobs/job-queue.js";
import { deliveryRetryOf, type ReportDeliveryContext, sendDelivery } from "./report-delivery.js";

const kind = { kind: "report-delivery", payload: z.object({ deliveryId: z.uuid() }) };

/**
 * One job per delivery, in the caller's (signing or re-send) transaction: a committed signature always has its
 * jobs, a rolled-back one never does. The unique key keeps one job per delivery. Each is due `graceMs`
 * (REPORT_DELIVERY_GRACE_SECONDS, 2 min) later: the signing request's own send goes first, and that grace is longer
 * than any SMTP try, so the job only finds a delivery still pending when that send failed or its instance died
 * (docs/design/REPORTS.md).
 */
export async function enqueueDeliveries(
  tx: Db,
  deliveryIds: readonly string[],
  graceMs: number,
  now = new Date(),
): Promise<void> {
  for (const deliveryId of deliveryIds) {
    await enqueueJob(
      tx,
      kind,
      { deliveryId },
      { runAt: new Date(now.getTime() + graceMs), uniqueKey: `report-delivery:${deliveryId}` },
    );
  }
}

/**
 * Sends a report e-mail and records its disclosure. Idempotent: a delivery already sent is left alone. What can be
 * doubled: an instance killed after the relay accepted the e-mail and before the `sent` row committed — the retry
 * sends it again, with the same one-time link, and records one disclosure.
 */
export function reportDeliveryJob(context: ReportDeliveryContext) {
  const retry = deliveryRetryOf(context.delivery);
  return defineJob({
    retry,
    timeoutMs: 2 * 60_000,
    maxWaitMs: 60 * 60_000,
    handle: async ({ deliveryId }, { attempt }) => {
      await sendDelivery(context, deliveryId, { final: attempt >= retry.limit });
    },
    ...kind,
  });
}
