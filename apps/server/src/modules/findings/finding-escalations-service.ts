import { recordAudit } from "../../audit/record-audit.js";
import { requireCase } from "../cases/cases-service.js";
import { recordCaseChange } from "../watch/watch-service.js";
import { scheduleFindingEscalation } from "./finding-job-kinds.js";
import { notifyLevel } from "./finding-notices.js";
import { nextEscalationAfter } from "./finding-schedule.js";
import type { FindingsContext } from "./findings-context.js";
import { claimDueEscalation, updateFinding } from "./findings-repository.js";

/** Escalations sent in one pass at most; more wait for the next pass (a backlog after an outage shrinks each time). */
const escalationsPerPass = 100;

/**
 * Sends every escalation due at `now` (PRODUCT.md §11): each in its own short transaction, which locks the finding
 * with FOR UPDATE SKIP LOCKED (so instances working at once take different findings, and none is escalated twice),
 * then its case; tells the level's recipients (their messages wait for the delivery worker: nothing is sent while a
 * transaction is open), counts the escalation, schedules the next, audits it and publishes the case change.
 * Answers how many were sent.
 */
export async function escalateDueFindings(ctx: FindingsContext, now: Date): Promise<number> {
  let escalated = 0;
  while (escalated < escalationsPerPass) {
    const done = await ctx.db.transaction(async (tx) => {
      const finding = await claimDueEscalation(tx, now);
      if (!finding) return false;
      const caseRow = await requireCase(tx, finding.caseId, "update");
      const level = finding.escalations + 1;
      const recipients = await notifyLevel(tx, ctx.settings, finding, caseRow, level, now);
      const nextEscalationAt = nextEscalationAfter(
        finding.nextEscalationAt ?? finding.dueAt,
        now,
        ctx.settings.findings.escalationMinutes,
      );
      await updateFinding(tx, finding.id, { escalations: level, nextEscalationAt });
      await scheduleFindingEscalation(tx, finding.id, level + 1, nextEscalationAt);
      // No user acts: Vigil escalates on the protocol's behalf, so the row has no actor.
      await recordAudit(tx, {
        action: "critical-finding.escalate",
        outcome: "success",
        target: { type: "case", id: finding.caseId },
        details: {
          caseNumber: caseRow.caseNumber,
          findingId: finding.id,
          level,
          recipients: recipients.map((recipient) => recipient.id),
          nextEscalationAt: nextEscalationAt.toISOString(),
        },
      });
      await recordCaseChange(tx, { caseId: finding.caseId, clientId: finding.clientId, change: "record" });
      return true;
    });
    if (!done) break;
    escalated += 1;
  }
  return escalated;
}
