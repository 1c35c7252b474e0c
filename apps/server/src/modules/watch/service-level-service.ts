import {
  type Author,
  type CaseStage,
  caseStageSchema,
  criticalFindingKindSchema,
  protocolContentSchema,
  type ServiceLevelPeople,
  type ServiceLevelReport,
} from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { criticalFindingsOf } from "./service-level-findings.js";
import {
  findServiceLevelClient,
  findServiceLevelHistory,
  type ServiceLevelActionRow,
  type ServiceLevelCaseRow,
  type ServiceLevelClientRow,
  type ServiceLevelFindingRow,
  type ServiceLevelHistoryRows,
} from "./service-level-repository.js";
import {
  breachesOf,
  type CaseHistory,
  type ClockInstance,
  clockInstancesOf,
  type FindingHistory,
  kindFiguresOf,
  monthsEndingWith,
  monthWindowIn,
  peopleOf,
  seriesOf,
  type Window,
} from "./service-level-rules.js";

/** The report's chart: the month asked for and the 11 before it. */
const seriesMonths = 12;
/** The longest window a protocol may set (168 hours): no clock is due later than this after the step it waits for. */
const longestWindowMs = 168 * 3_600_000;

// A client without any protocol revision is held to the protocol's defaults, as the live clocks are.
const defaultPromises = protocolContentSchema.parse({ transferForm: { fields: [] } });

function dateOf(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

function optionalDateOf(value: Date | string | null): Date | null {
  return value === null ? null : dateOf(value);
}

function authorOf(value: unknown): Author | null {
  if (!value || typeof value !== "object") return null;
  const { sub, username, name } = value as Record<string, unknown>;
  if (typeof username !== "string") return null;
  return { sub: typeof sub === "string" ? sub : null, username, name: typeof name === "string" ? name : null };
}

/** The priority an action set, if it set one: creation, "Set priority", or a case update that changed it. */
function priorityOf(action: ServiceLevelActionRow): string | undefined {
  const details = action.details;
  if (action.action === "create" || action.action === "set-priority") {
    const value = action.action === "create" ? details.priority : details.to;
    return typeof value === "string" ? value : undefined;
  }
  if (action.action === "update") {
    const change = (details.changes as Record<string, { to?: unknown }> | undefined)?.priority;
    return typeof change?.to === "string" ? change.to : undefined;
  }
  return undefined;
}

/**
 * The periods a case was STAT, from the actions that set its priority. A STAT case without any (written before
 * priorities were recorded) is STAT since its creation, as the live clock reads it.
 */
function statPeriodsOf(row: ServiceLevelCaseRow, actions: ServiceLevelActionRow[]): CaseHistory["statPeriods"] {
  const periods: CaseHistory["statPeriods"] = [];
  let open: Date | null = null;
  let seen = false;
  for (const action of actions) {
    const priority = priorityOf(action);
    if (!priority) continue;
    seen = true;
    const at = dateOf(action.at);
    if (priority === "stat" && !open) open = at;
    if (priority === "routine" && open) {
      periods.push({ from: open, to: at });
      open = null;
    }
  }
  if (open) periods.push({ from: open, to: null });
  if (!seen && row.priority === "stat") periods.push({ from: dateOf(row.created_at), to: null });
  return periods;
}

function groupByCase<T extends { case_id: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.case_id) ?? [];
    group.push(row);
    groups.set(row.case_id, group);
  }
  return groups;
}

function findingHistoryOf(row: ServiceLevelFindingRow): FindingHistory {
  return {
    id: row.id,
    kind: criticalFindingKindSchema.parse(row.kind),
    onsetAt: dateOf(row.onset_at),
    raisedAt: dateOf(row.raised_at),
    dueAt: dateOf(row.due_at),
    windowMinutes: row.window_minutes,
    firstNotifiedAt: optionalDateOf(row.first_notified_at),
    acknowledgedAt: optionalDateOf(row.acknowledged_at),
    cancelledAt: optionalDateOf(row.cancelled_at),
    raisedBy: { sub: row.raised_by_sub, username: row.raised_by_username, name: row.raised_by_name },
  };
}

/** One case's history from the rows read for it. */
export function caseHistoriesOf(rows: ServiceLevelHistoryRows): CaseHistory[] {
  const transitions = groupByCase(rows.transitions);
  const actions = groupByCase(rows.actions);
  const records = groupByCase(rows.records);
  const logs = groupByCase(rows.intermittentLogs);
  const assignments = groupByCase(rows.assignments);
  const findings = groupByCase(rows.findings);
  return rows.cases.map((row) => {
    const caseActions = (actions.get(row.id) ?? []).sort((a, b) => dateOf(a.at).getTime() - dateOf(b.at).getTime());
    const caseRecords = records.get(row.id) ?? [];
    const reviewerChanges: CaseHistory["reviewerChanges"] = [];
    const acknowledgements: Date[] = [];
    for (const action of caseActions) {
      if (action.action === "acknowledge") {
        acknowledgements.push(dateOf(action.at));
        // A reviewer who takes a STAT case without a reviewer becomes its reviewer (case-workflow-service).
        if (action.details.becameReviewer === true) {
          reviewerChanges.push({
            at: dateOf(action.at),
            reviewer: { sub: action.actor_sub, username: action.actor_username, name: action.actor_name },
          });
        }
      }
      const reviewer = action.action === "assign-reviewer" ? authorOf(action.details.reviewer) : null;
      if (reviewer) reviewerChanges.push({ at: dateOf(action.at), reviewer });
    }
    // An acknowledgement kept on the case row but not as an action (written before actions were kept) still counts.
    const acknowledgedAt = optionalDateOf(row.acknowledged_at);
    if (acknowledgedAt && !acknowledgements.some((at) => Math.abs(at.getTime() - acknowledgedAt.getTime()) < 1000)) {
      acknowledgements.push(acknowledgedAt);
    }
    return {
      caseId: row.id,
      caseNumber: row.case_number,
      promises: {
        impedanceCheckIntervalHours: row.impedance_check_interval_hours ?? defaultPromises.impedanceCheckIntervalHours,
        reviewTurnaroundHours: row.review_turnaround_hours ?? defaultPromises.reviewTurnaroundHours,
        statAcknowledgeMinutes: row.stat_acknowledge_minutes ?? defaultPromises.statAcknowledgeMinutes,
      },
      transitions: (transitions.get(row.id) ?? []).map((move) => ({
        at: dateOf(move.at),
        from: caseStageSchema.parse(move.from_stage) satisfies CaseStage,
        to: caseStageSchema.parse(move.to_stage) satisfies CaseStage,
      })),
      recording: {
        startedAt: optionalDateOf(row.recording_started_at),
        endedAt: optionalDateOf(row.recording_ended_at),
      },
      impedanceChecks: caseRecords.filter((record) => record.kind === "impedance").map((record) => dateOf(record.at)),
      reviewChecks: caseRecords.filter((record) => record.kind === "review-check").map((record) => dateOf(record.at)),
      intermittentLogs: (logs.get(row.id) ?? []).map((log) => ({
        startedAt: dateOf(log.started_at),
        endedAt: optionalDateOf(log.ended_at),
        technologist: { sub: log.technologist_sub, username: log.technologist_username, name: log.technologist_name },
      })),
      statPeriods: statPeriodsOf(row, caseActions),
      acknowledgements,
      technologistAssignments: (assignments.get(row.id) ?? []).map((entry) => ({
        startedAt: dateOf(entry.started_at),
        endedAt: optionalDateOf(entry.ended_at),
        technologist: {
          sub: entry.technologist_sub,
          username: entry.technologist_username,
          name: entry.technologist_name,
        },
      })),
      reviewerChanges,
      currentReviewer: row.reviewer_username
        ? { sub: row.reviewer_sub, username: row.reviewer_username, name: row.reviewer_name }
        : null,
      findings: (findings.get(row.id) ?? []).map(findingHistoryOf),
    };
  });
}

type ClientMonth = {
  client: ServiceLevelClientRow;
  window: Window;
  months: { month: string; window: Window }[];
  histories: CaseHistory[];
  instances: ClockInstance[];
};

/** The client's clock instances that can fall due in the 12 months ending with `month` (bounded read). */
async function readClientMonth(db: Db, clientId: string, month: string, asOf: Date): Promise<ClientMonth> {
  const client = await findServiceLevelClient(db, clientId);
  if (!client) throw new AppError("not_found", `No client with id ${clientId}.`);
  const months = monthsEndingWith(month, seriesMonths).map((entry) => ({
    month: entry,
    window: monthWindowIn(entry, client.timezone),
  }));
  const window = monthWindowIn(month, client.timezone);
  const first = months[0]?.window.start ?? window.start;
  const rows = await findServiceLevelHistory(db, clientId, {
    to: window.end,
    reach: new Date(first.getTime() - longestWindowMs),
  });
  const histories = caseHistoriesOf(rows);
  const instances = histories.flatMap((history) => clockInstancesOf(history, asOf));
  return { client, window, months, histories, instances };
}

/** `GET reporting/service-levels/{clientId}/{month}`: the month's promises kept and missed, and the 12-month series. */
export async function getServiceLevelReport(
  db: Db,
  clientId: string,
  month: string,
  asOf: Date = new Date(),
): Promise<ServiceLevelReport> {
  const { client, window, months, histories, instances } = await readClientMonth(db, clientId, month, asOf);
  return {
    clientId: client.id,
    clientName: client.name,
    clientCode: client.code,
    timeZone: client.timezone,
    month,
    periodStart: window.start.toISOString(),
    periodEnd: window.end.toISOString(),
    asOf: asOf.toISOString(),
    kinds: kindFiguresOf(instances, window, asOf),
    breaches: breachesOf(instances, window, asOf),
    criticalFindings: criticalFindingsOf(histories, window, asOf),
    series: seriesOf(instances, months),
  };
}

/** `GET reporting/service-levels/{clientId}/{month}/people`: each owner's kept and missed clocks of the month. */
export async function getServiceLevelPeople(
  db: Db,
  clientId: string,
  month: string,
  asOf: Date = new Date(),
): Promise<ServiceLevelPeople> {
  const { client, window, instances } = await readClientMonth(db, clientId, month, asOf);
  return { clientId: client.id, month, asOf: asOf.toISOString(), people: peopleOf(instances, window) };
}
