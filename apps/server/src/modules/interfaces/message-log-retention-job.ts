import { z } from "zod";
import { defineJob } from "../../jobs/job-definition.js";
import { deleteHl7MessagesBefore } from "./message-log-repository.js";

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/**
 * The HL7 message log's retention (docs/operations.md, HL7_LOG_DAYS): once a day across all instances, the messages
 * logged more than `logDays` days ago are deleted, a batch per statement. Running twice is harmless: each try deletes
 * only what is still past the retention. The audit rows of who read a message stay (they name its case and MRN),
 * for the audit log's own, longer retention. Three tries an hour apart; then kept failed and visible on the
 * integration page, and the next day's job starts again.
 */
export function hl7LogRetentionJob(settings: { logDays: number }) {
  return defineJob({
    kind: "hl7-log-retention",
    payload: z.object({ period: z.iso.datetime() }),
    retry: { limit: 3, backoff: { baseMs: hourMs, maxMs: hourMs } },
    timeoutMs: 30 * 60_000,
    every: { ms: dayMs, payload: (start) => ({ period: start.toISOString() }) },
    // A day's job still waiting after six hours means no instance runs the job room.
    maxWaitMs: 6 * hourMs,
    handle: async (_payload, { db, log }) => {
      const before = new Date(Date.now() - settings.logDays * dayMs);
      const deleted = await deleteHl7MessagesBefore(db, before);
      if (deleted > 0)
        log.info({ deleted, before: before.toISOString() }, "deleted HL7 messages past the log's retention");
    },
  });
}
