import type { MonitoringMode } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { countConcurrentPeaks } from "../../db/concurrent-peaks.js";
import { capFor, type TechnologistCaps } from "./time-log-rules.js";

/** A time log as the cap check reads it, with the concurrent-patient peak kept on write (null: none kept). */
export type CappedLog = {
  recordId: string;
  caseId: string;
  technologistUsername: string;
  mode: MonitoringMode;
  startedAt: Date;
  endedAt: Date | null;
  concurrentPeak: number | null;
};

/**
 * The cases (of `logs`) where a log had more concurrent patients than its mode's cap allows, as the time-log
 * screens flag it. Billing asks this for its CPT suggestions. Each live log's peak is kept as the logs are written
 * (db/concurrent-peaks.ts), so this is a comparison; a log without one (none should be left once the server has
 * started) is counted from its technologist's logs.
 */
export async function findCasesOverCap(
  db: Db,
  logs: readonly CappedLog[],
  caps: TechnologistCaps,
): Promise<Set<string>> {
  const monitored = logs.filter((log) => capFor(log.mode, caps) !== null);
  const missing = monitored.filter((log) => log.concurrentPeak === null);
  const counted = missing.length > 0 ? await countConcurrentPeaks(db, missing) : new Map<string, number>();
  const over = new Set<string>();
  for (const log of monitored) {
    const peak = log.concurrentPeak ?? counted.get(log.recordId) ?? 1;
    if (peak > (capFor(log.mode, caps) as number)) over.add(log.caseId);
  }
  return over;
}
