import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client.js";

type Instant = Date | string;

export type ServiceLevelClientRow = { id: string; name: string; code: string; timezone: string };

export type ServiceLevelCaseRow = {
  id: string;
  case_number: string;
  priority: string;
  created_at: Instant;
  acknowledged_at: Instant | null;
  recording_started_at: Instant | null;
  recording_ended_at: Instant | null;
  reviewer_sub: string | null;
  reviewer_username: string | null;
  reviewer_name: string | null;
  impedance_check_interval_hours: number | null;
  review_turnaround_hours: number | null;
  stat_acknowledge_minutes: number | null;
};

export type ServiceLevelTransitionRow = { case_id: string; from_stage: string; to_stage: string; at: Instant };

export type ServiceLevelActionRow = {
  case_id: string;
  action: string;
  details: Record<string, unknown>;
  actor_sub: string | null;
  actor_username: string;
  actor_name: string | null;
  at: Instant;
};

export type ServiceLevelRecordRow = { case_id: string; kind: "impedance" | "review-check"; at: Instant };

export type ServiceLevelLogRow = {
  case_id: string;
  started_at: Instant;
  ended_at: Instant | null;
  technologist_sub: string | null;
  technologist_username: string;
  technologist_name: string | null;
};

export type ServiceLevelFindingRow = {
  id: string;
  case_id: string;
  kind: string;
  onset_at: Instant;
  raised_at: Instant;
  due_at: Instant;
  window_minutes: number;
  first_notified_at: Instant | null;
  acknowledged_at: Instant | null;
  cancelled_at: Instant | null;
  raised_by_sub: string | null;
  raised_by_username: string;
  raised_by_name: string | null;
};

export type ServiceLevelHistoryRows = {
  cases: ServiceLevelCaseRow[];
  transitions: ServiceLevelTransitionRow[];
  actions: ServiceLevelActionRow[];
  records: ServiceLevelRecordRow[];
  intermittentLogs: ServiceLevelLogRow[];
  assignments: ServiceLevelLogRow[];
  findings: ServiceLevelFindingRow[];
};

export async function findServiceLevelClient(db: Db, clientId: string): Promise<ServiceLevelClientRow | undefined> {
  const [row] = await queryRows<ServiceLevelClientRow>(
    db,
    sql`select id, name, code, timezone from clients where id = ${clientId}`,
  );
  return row;
}

/**
 * Everything the clock instances of a client's cases derive from, for the cases that can own a clock due before `to`
 * from `reach` on: opened before `to`, not archived (withdrawn from the service), and not closed before `reach` (a
 * closed case's clocks all started by its closing, the last change of its row, so none is due later than the longest
 * window after it). The cases are read through `cases_client_idx`; then one statement per table over those case ids
 * as one array, so each is an index probe per case (`case_id` leads every one of their indexes) rather than a scan.
 */
export async function findServiceLevelHistory(
  db: Db,
  clientId: string,
  period: { to: Date; reach: Date },
): Promise<ServiceLevelHistoryRows> {
  const cases = await queryRows<ServiceLevelCaseRow>(
    db,
    sql`select c.id, c.case_number, c.priority, c.created_at, c.acknowledged_at, c.recording_started_at,
      c.recording_ended_at, c.reviewer_sub, c.reviewer_username, c.reviewer_name,
      p.impedance_check_interval_hours, p.review_turnaround_hours, p.stat_acknowledge_minutes
    from cases c
    left join lateral (
      select pr.impedance_check_interval_hours, pr.review_turnaround_hours, pr.stat_acknowledge_minutes
      from protocol_revisions pr
      where (c.protocol_revision_id is not null and pr.id = c.protocol_revision_id)
         or (c.protocol_revision_id is null and pr.client_id = c.client_id)
      order by pr.revision desc limit 1
    ) p on true
    where c.client_id = ${clientId} and c.archived_at is null and c.created_at < ${period.to.toISOString()}
      and (c.stage <> 'closed' or c.updated_at >= ${period.reach.toISOString()})`,
  );
  if (cases.length === 0)
    return { cases, transitions: [], actions: [], records: [], intermittentLogs: [], assignments: [], findings: [] };
  const ids = sql`${sql.param(cases.map((row) => row.id))}::uuid[]`;
  const [transitions, actions, records, intermittentLogs, assignments, findings] = await Promise.all([
    queryRows<ServiceLevelTransitionRow>(
      db,
      sql`select t.case_id, t.from_stage, t.to_stage, coalesce(t.decided_at, t.created_at) as at
      from case_transitions t where t.case_id = any(${ids}) and t.status = 'completed'`,
    ),
    queryRows<ServiceLevelActionRow>(
      db,
      sql`select a.case_id, a.action, a.details, a.actor_sub, a.actor_username, a.actor_name, a.created_at as at
      from case_actions a
      where a.case_id = any(${ids})
        and (a.action in ('create', 'set-priority', 'acknowledge', 'assign-reviewer')
          or (a.action = 'update' and a.details->'changes'->'priority' is not null))`,
    ),
    queryRows<ServiceLevelRecordRow>(
      db,
      sql`select r.case_id,
          case when r.kind = 'impedance' then 'impedance' else 'review-check' end as kind,
          case when r.kind = 'impedance' then (r.data->>'checkedAt')::timestamptz
            else (r.data->>'occurredAt')::timestamptz end as at
      from case_records r
      where r.case_id = any(${ids}) and r.kind in ('impedance', 'event') and not r.deleted
        and (r.kind = 'impedance' or r.data->>'type' = 'review-check')`,
    ),
    queryRows<ServiceLevelLogRow>(
      db,
      sql`select l.case_id, l.started_at, l.ended_at, l.technologist_sub, l.technologist_username, l.technologist_name
      from case_time_logs l where l.case_id = any(${ids}) and l.mode = 'intermittent' and not l.deleted`,
    ),
    queryRows<ServiceLevelLogRow>(
      db,
      sql`select s.case_id, s.started_at, s.ended_at, s.technologist_sub, s.technologist_username, s.technologist_name
      from case_assignments s where s.case_id = any(${ids})`,
    ),
    queryRows<ServiceLevelFindingRow>(
      db,
      // Only the hospital's acknowledgement keeps the promise (PRODUCT.md §10): a phone call staff recorded, or a
      // client contact's own link. A link once sent to Vigil staff never counts, whatever it was used for.
      sql`select f.id, f.case_id, f.kind, f.onset_at, f.raised_at, f.due_at, f.window_minutes, f.first_notified_at,
        case when f.acknowledged_via = 'phone' or exists (
            select 1 from finding_recipients r where r.id = f.acknowledged_recipient_id and r.kind = 'contact')
          then f.acknowledged_at end as acknowledged_at,
        f.cancelled_at, f.raised_by_sub, f.raised_by_username, f.raised_by_name
      from critical_findings f where f.case_id = any(${ids})`,
    ),
  ]);
  return { cases, transitions, actions, records, intermittentLogs, assignments, findings };
}
