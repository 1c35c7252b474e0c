import type { CptSuggestion } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { findCasesOverCap } from "../records/technologist-caps-service.js";
import { findLiveTimeLogs, findReviewCheckTimes, type TimeLogRow } from "./billing-repository.js";
import { type BillingSettings, groupBy } from "./billing-service.js";
import { type CptLog, suggestCpt } from "./cpt-rules.js";

/* CPT suggestions: each case's logs, review checks and caps, judged by the rules of cpt-rules.ts. */

function cptLogOf(row: TimeLogRow): CptLog {
  return {
    start: row.startedAt,
    end: row.endedAt,
    activity: row.activity,
    mode: row.mode,
    video: row.video,
    billable: row.billable,
    channels: row.channels,
  };
}

/**
 * The CPT suggestion of each case (all of one client, whose `timeZone` the warnings name times in), over its whole
 * study (every live log), with its review checks and caps.
 */
export async function suggestCptForCases(
  db: Db,
  caseIds: readonly string[],
  settings: BillingSettings,
  now: Date,
  timeZone: string,
  preloaded?: readonly TimeLogRow[],
): Promise<Map<string, CptSuggestion>> {
  if (caseIds.length === 0) return new Map();
  const [logs, checks] = await Promise.all([
    preloaded ? Promise.resolve(preloaded) : findLiveTimeLogs(db, caseIds),
    findReviewCheckTimes(db, caseIds),
  ]);
  const overCap = await findCasesOverCap(db, logs, settings.caps);
  const logsOf = groupBy(logs, (log) => log.caseId);
  const checksOf = groupBy(checks, (check) => check.caseId);
  return new Map(
    caseIds.map((caseId) => [
      caseId,
      suggestCpt({
        logs: (logsOf.get(caseId) ?? []).map(cptLogOf),
        reviewChecks: (checksOf.get(caseId) ?? []).map((check) => check.at),
        capExceeded: overCap.has(caseId),
        now,
        config: settings.cpt,
        timeZone,
      }),
    ]),
  );
}
