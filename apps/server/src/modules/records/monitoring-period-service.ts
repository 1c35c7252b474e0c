import type { TimeLogData } from "@vigil/contract";
import { formatInstantInZone } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { requireClient } from "../clients/clients-service.js";
import { type CaseState, findTimeLogsOfCase } from "./records-repository.js";
import {
  describePeriodIssue,
  type MonitoringPeriod,
  monitoringPeriodIssues,
  periodIssueAdvice,
} from "./time-log-rules.js";

/*
 * Billable time and the case's monitoring period (time-log-rules.ts says why a log outside it is refused): the
 * check of a time log being written, and the logs a new recording period would leave outside, which the cases
 * module asks about before it changes the recording times. Times in refusals are in the client's zone, as the
 * screens show them.
 */

export type LogOutsidePeriod = {
  recordId: string;
  technologistUsername: string;
  startedAt: Date;
  endedAt: Date | null;
  /** In words, times in the client's zone: "tech's log from … to …: its start is more than 6 hours before …". */
  description: string;
};

async function zoneFormatter(db: Db, clientId: string): Promise<(instant: Date) => string> {
  const { timezone } = await requireClient(db, clientId);
  return (instant) => formatInstantInZone(instant, timezone);
}

/** A billable log outside the period is a 400 naming its start or end (`prefix`: where the data sat). */
export async function assertInsideMonitoringPeriod(
  db: Db,
  data: TimeLogData,
  state: CaseState,
  prefix: string,
): Promise<void> {
  if (!data.billable) return;
  const log = { start: new Date(data.startedAt), end: data.endedAt ? new Date(data.endedAt) : null };
  const period = {
    recordingStartedAt: state.recordingStartedAt,
    recordingEndedAt: state.recordingEndedAt,
    openedAt: state.createdAt,
  };
  const found = monitoringPeriodIssues(log, period);
  if (found.length === 0) return;
  const format = await zoneFormatter(db, state.clientId);
  const issues = found.map((issue) => ({
    path: `${prefix}${issue.field}`,
    message: `${describePeriodIssue(issue, format)}; billable time must lie in the monitoring period (${periodIssueAdvice(issue)})`,
  }));
  throw new AppError("bad_request", `Invalid request: ${issues.map((i) => `${i.path} ${i.message}`).join("; ")}`, {
    issues,
  });
}

/** The case's live billable logs that `period` would leave outside it (with the margins). */
export async function findBillableLogsOutsidePeriod(
  db: Db,
  caseRow: { id: string; clientId: string },
  period: MonitoringPeriod,
): Promise<LogOutsidePeriod[]> {
  const logs = await findTimeLogsOfCase(db, caseRow.id);
  const outside = logs.flatMap((log) => {
    if (!log.billable) return [];
    const [issue] = monitoringPeriodIssues({ start: log.startedAt, end: log.endedAt }, period);
    return issue ? [{ log, issue }] : [];
  });
  if (outside.length === 0) return [];
  const format = await zoneFormatter(db, caseRow.clientId);
  return outside.map(({ log, issue }) => ({
    recordId: log.recordId,
    technologistUsername: log.technologistUsername,
    startedAt: log.startedAt,
    endedAt: log.endedAt,
    description: `${log.technologistUsername}'s log from ${format(log.startedAt)} to ${log.endedAt ? format(log.endedAt) : "now (running)"}: its ${issue.field === "startedAt" ? "start" : "end"} ${describePeriodIssue(issue, format)}`,
  }));
}
