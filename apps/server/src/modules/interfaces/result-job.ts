import { defineJob, JobFailedForGood, type RetryPolicy } from "../../jobs/job-definition.js";
import { type OutboundSettings, sendResultMessage } from "./outbound-service.js";
import { resultJobKind } from "./result-job-kind.js";

/** 10 tries, 30 s doubling to 30 min: about 3 h of an engine down or unreachable before the result is failed. */
export const defaultResultRetry: RetryPolicy = { limit: 10, backoff: { baseMs: 30_000, maxMs: 30 * 60_000 } };

/**
 * `hl7-result`: sends one stored outbound message — a report version's result (queued in the signing transaction) or
 * an order status (queued with the case's change) — and records the ACK.
 * The job claim runs one try at a time across instances; an acknowledged row is never sent again, so a repeated try
 * sends nothing. An AE/AR ends the job failed at once (the same message would be refused again), shown with the
 * peer's words in the message log, on the case's Reports list and among the failed jobs, where Retry sends it again
 * with the same MSH-10. A peer down or silent is retried with back-off; the last try marks the message failed.
 */
export function resultJob(
  settings: OutboundSettings,
  retry: RetryPolicy = defaultResultRetry,
  options: { timeoutMs?: number } = {},
) {
  return defineJob({
    retry,
    // Connect, write a PDF of a few hundred kB and wait for the ACK, with room to record it.
    timeoutMs: options.timeoutMs ?? settings.connectTimeoutMs + settings.ackTimeoutMs + 30_000,
    maxWaitMs: 60 * 60_000,
    handle: async ({ messageId }, { db, log, attempt }) => {
      const outcome = await sendResultMessage(db, settings, messageId, { final: attempt >= retry.limit });
      if (outcome.kind === "refused") {
        log.error({ messageId, error: outcome.error }, "the hospital's system refused a result message");
        throw new JobFailedForGood(outcome.error);
      }
      if (outcome.kind === "not-delivered") throw new Error(outcome.error);
    },
    ...resultJobKind,
  });
}
