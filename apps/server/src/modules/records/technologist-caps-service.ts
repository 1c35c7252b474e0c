import type { MonitoringMode } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { findTechnologistLogsOverlapping, type OverlappingLog } from "../../db/time-log-overlaps.js";
import { capFor, peakConcurrentCases, type TechnologistCaps } from "./time-log-rules.js";

/** A time log as the cap check reads it. */
export type CappedLog = {
  recordId: string;
  caseId: string;
  technologistUsername: string;
  mode: MonitoringMode;
  startedAt: Date;
  endedAt: Date | null;
};

/**
 * The cases (of `logs`) where a log had more concurrent patients than its mode's cap allows: each monitored log is
 * judged against its technologist's other logs of the same mode, as the time-log screens flag it. Billing asks this
 * for its CPT suggestions.
 */
export async function findCasesOverCap(
  db: Db,
  logs: readonly CappedLog[],
  caps: TechnologistCaps,
  now: Date,
): Promise<Set<string>> {
  const monitored = logs.filter((log) => capFor(log.mode, caps) !== null);
  const over = new Set<string>();
  if (monitored.length === 0) return over;
  const from = new Date(Math.min(...monitored.map((log) => log.startedAt.getTime())));
  const to = new Date(
    Math.max(...monitored.map((log) => Math.max((log.endedAt ?? now).getTime(), log.startedAt.getTime() + 1))),
  );
  const usernames = [...new Set(monitored.map((log) => log.technologistUsername))];
  const modes = [...new Set(monitored.map((log) => log.mode))];
  const nearby = await findTechnologistLogsOverlapping(db, usernames, { from, to, now, modes });
  // Only the same technologist's logs of the same mode can count against a cap. Each such group is sorted by start
  // once; a log's peers are then found by walking back from the last one starting before it ends, no further than
  // the group's longest log reaches — a month of a busy client is thousands of logs against tens of thousands.
  const members = new Map<string, OverlappingLog[]>();
  for (const other of nearby) {
    const key = `${other.technologistUsername}|${other.mode}`;
    const group = members.get(key);
    if (group) group.push(other);
    else members.set(key, [other]);
  }
  const groups = new Map<string, { logs: OverlappingLog[]; longest: number }>();
  for (const [key, group] of members) {
    const sorted = [...group].sort((left, right) => left.startMs - right.startMs);
    let longest = 0;
    for (const other of sorted) longest = Math.max(longest, (other.endMs ?? to.getTime()) - other.startMs);
    groups.set(key, { logs: sorted, longest });
  }
  for (const log of monitored) {
    if (over.has(log.caseId)) continue; // one log over the cap is enough to flag its case
    const group = groups.get(`${log.technologistUsername}|${log.mode}`);
    if (!group) continue;
    const start = log.startedAt.getTime();
    const end = Math.max((log.endedAt ?? now).getTime(), start + 1);
    const peers: { caseId: string; start: Date; end: Date | null }[] = [];
    for (let index = lastStartingBefore(group.logs, end); index >= 0; index--) {
      const other = group.logs[index] as OverlappingLog;
      if (other.startMs < start - group.longest) break;
      if (other.recordId === log.recordId || (other.endMs !== null && other.endMs <= start)) continue;
      peers.push({
        caseId: other.caseId,
        start: new Date(other.startMs),
        end: other.endMs === null ? null : new Date(other.endMs),
      });
    }
    const cap = capFor(log.mode, caps) as number;
    if (peakConcurrentCases({ caseId: log.caseId, start: log.startedAt, end: log.endedAt }, peers, now) > cap) {
      over.add(log.caseId);
    }
  }
  return over;
}

/** The index of the last log of `logs` (sorted by start) that starts before `limit`; -1 when none does. */
function lastStartingBefore(logs: readonly OverlappingLog[], limit: number): number {
  let low = 0;
  let high = logs.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((logs[middle] as OverlappingLog).startMs < limit) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}
