import { z } from "zod";
import type { Db } from "../../db/client.js";
import { enqueueJob } from "../../jobs/job-queue.js";

/*
 * The critical findings' job kinds as writers enqueue them (docs/design/JOBS.md): the kind and its payload only, so a
 * service can enqueue in its transaction without importing the handlers (finding-jobs.ts), which import the services.
 */

/** Sends the finding messages due now; enqueued with every message written, and for each retry at its time. */
export const findingMessagesKind = {
  kind: "finding-messages",
  payload: z.object({ findingId: z.uuid() }),
} as const;

/** The finding's `level`-th escalation, due at `at` (its `next_escalation_at` when it was scheduled). */
export const findingEscalationKind = {
  kind: "finding-escalation",
  payload: z.object({ findingId: z.uuid(), level: z.number().int().min(1), at: z.iso.datetime() }),
} as const;

/** In the caller's transaction: the messages just written (or due for a retry at `runAt`) get a job to send them. */
export async function scheduleFindingMessages(tx: Db, findingId: string, options: { runAt?: Date; key?: string } = {}) {
  await enqueueJob(
    tx,
    findingMessagesKind,
    { findingId },
    { runAt: options.runAt, uniqueKey: options.key ? `finding-messages:${options.key}` : undefined },
  );
}

/**
 * In the caller's transaction: the escalation to `level` at `at`, once (its unique key); a finding closed by then
 * makes it a no-op, so closing one needs no cancelling of jobs.
 */
export async function scheduleFindingEscalation(tx: Db, findingId: string, level: number, at: Date) {
  await enqueueJob(
    tx,
    findingEscalationKind,
    { findingId, level, at: at.toISOString() },
    { runAt: at, uniqueKey: `finding-escalation:${findingId}:${level}` },
  );
}
