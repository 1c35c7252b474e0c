import { z } from "zod";
import { defineJob } from "../../jobs/job-definition.js";
import { deliveryLeaseMs } from "./finding-deliveries-repository.js";
import { type DeliveryPass, sendDueDeliveries } from "./finding-deliveries-service.js";
import { escalateDueFindings } from "./finding-escalations-service.js";
import { findingEscalationKind, findingMessagesKind } from "./finding-job-kinds.js";
import type { FindingsContext } from "./findings-context.js";

export type FindingWorkPass = DeliveryPass & { escalations: number };

/**
 * One pass of the critical-finding work at `now`: the escalations due, then every message due (the escalations' new
 * ones included). Each step claims its rows (FOR UPDATE SKIP LOCKED, a lease on each message), so a pass is safe to
 * run again and on several instances at once: the jobs below run it, and tests call it at the moment they choose.
 */
export async function runFindingWork(ctx: FindingsContext, now: Date = new Date()): Promise<FindingWorkPass> {
  const escalations = await escalateDueFindings(ctx, now);
  const deliveries = await sendDueDeliveries(ctx, now);
  return { escalations, ...deliveries };
}

function logPass(
  pass: FindingWorkPass,
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void },
) {
  if (pass.escalations + pass.sent + pass.retrying + pass.failed > 0) log.info(pass, "critical finding work");
  if (pass.failed > 0) log.warn({ failed: pass.failed }, "critical finding messages failed after every attempt");
}

// A try's lease (timeout × 1.5 + 1 s) outlasts a message's claim (deliveryLeaseMs), so a try run again after its
// instance died finds the dead try's messages claimable again, and sends what it left.
const messagesTimeoutMs = deliveryLeaseMs;

/**
 * The critical findings' kinds (docs/design/JOBS.md, FINDINGS.md): their messages, their escalations, and a sweep
 * every FINDING_WORKER_SECONDS (0: none) that catches what no job points at — rows written before the job room, a
 * message claimed by an instance that died. All three run the same idempotent pass.
 */
export function findingJobs(ctx: FindingsContext) {
  const messages = defineJob({
    // A transport error is retried on the message's own schedule (FINDING_DELIVERY_ATTEMPTS, a job at its time);
    // a try that throws (the database away) is retried here.
    retry: { limit: 5, backoff: { baseMs: 5_000, maxMs: 60_000 } },
    timeoutMs: messagesTimeoutMs,
    maxWaitMs: 5 * 60_000,
    handle: async (_payload, { log }) => logPass(await runFindingWork(ctx), log),
    ...findingMessagesKind,
  });
  const escalation = defineJob({
    retry: { limit: 5, backoff: { baseMs: 5_000, maxMs: 60_000 } },
    timeoutMs: messagesTimeoutMs,
    maxWaitMs: 5 * 60_000,
    // Never earlier than it was due, whatever this instance's clock says against the database's.
    handle: async (payload, { log }) =>
      logPass(await runFindingWork(ctx, new Date(Math.max(Date.now(), Date.parse(payload.at)))), log),
    ...findingEscalationKind,
  });
  const seconds = ctx.settings.findings.workerSeconds;
  if (seconds <= 0) return [messages, escalation];
  const sweep = defineJob({
    kind: "finding-sweep",
    payload: z.object({ period: z.iso.datetime() }),
    retry: { limit: 1, backoff: { baseMs: 1000, maxMs: 1000 } },
    timeoutMs: messagesTimeoutMs,
    every: { ms: seconds * 1000, payload: (start) => ({ period: start.toISOString() }) },
    maxWaitMs: Math.max(5 * 60_000, seconds * 3000),
    handle: async (_payload, { log }) => logPass(await runFindingWork(ctx), log),
  });
  return [messages, escalation, sweep];
}
