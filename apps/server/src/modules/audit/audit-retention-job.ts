import { z } from "zod";
import { type AuditRetention, pruneAuditEvents } from "../../audit/audit-retention.js";
import { defineJob } from "../../jobs/job-definition.js";

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/**
 * The audit log's retention (docs/operations.md, "Audit log retention") as a recurring job: one a day across all
 * instances. Running twice is harmless: each try archives and deletes only what is still past the retention, a
 * batch per transaction, and the advisory lock inside `pruneAuditEvents` keeps a concurrent `npm run audit:archive`
 * from archiving the same rows. A try cut short leaves the rows of its unfinished batch in place (the archive file
 * may then hold them twice, never zero times). Three tries an hour apart; then kept failed and visible on the
 * integration page, and the next day's job starts again.
 */
export function auditRetentionJob(retention: AuditRetention) {
  return defineJob({
    kind: "audit-retention",
    payload: z.object({ period: z.iso.datetime() }),
    retry: { limit: 3, backoff: { baseMs: hourMs, maxMs: hourMs } },
    timeoutMs: 30 * 60_000,
    every: { ms: dayMs, payload: (start) => ({ period: start.toISOString() }) },
    // A day's job still waiting after six hours means no instance runs the job room.
    maxWaitMs: 6 * hourMs,
    handle: async (_payload, { db, log }) => {
      const result = await pruneAuditEvents(db, retention);
      if (result.archived > 0)
        log.info({ archived: result.archived, files: result.files }, "archived and pruned old audit events");
      else if (result.skipped) log.info({}, "audit retention skipped: another instance or the CLI is archiving");
    },
  });
}
