import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client.js";

/** A critical finding not cancelled, as `json_build_object` writes it (instants as ISO strings). */
export type CaseFindingClockRow = {
  raisedAt: string;
  dueAt: string;
  windowMinutes: number;
  acknowledgedAt: string | null;
  raisedBySub: string | null;
  raisedByUsername: string;
  raisedByName: string | null;
};

/** One case's clock inputs as stored: the case row's own fields and the latest of each record that moves a clock. */
export type CaseClockRow = {
  case_id: string;
  client_id: string;
  archived_at: Date | string | null;
  stage: string;
  priority: string;
  acknowledged_at: Date | string | null;
  recording_started_at: Date | string | null;
  recording_ended_at: Date | string | null;
  reviewer_sub: string | null;
  reviewer_username: string | null;
  reviewer_name: string | null;
  stat_since: Date | string | null;
  preview_since: Date | string | null;
  reviewed_at: Date | string | null;
  last_impedance_check_at: Date | string | null;
  last_review_check_at: Date | string | null;
  intermittent_started_at: Date | string | null;
  intermittent_sub: string | null;
  intermittent_username: string | null;
  intermittent_name: string | null;
  technologist_sub: string | null;
  technologist_username: string | null;
  technologist_name: string | null;
  impedance_check_interval_hours: number | null;
  review_turnaround_hours: number | null;
  stat_acknowledge_minutes: number | null;
  /** The case's critical findings not cancelled, oldest raised first (a JSON array; some drivers hand it over as text). */
  findings: CaseFindingClockRow[] | string;
};

/**
 * Everything the clocks of one case derive from, in one statement over the case's own indexes: the pinned protocol
 * revision (the client's current one before monitoring pins it), when the case last became STAT, its latest entry
 * into preview and the first entry into reviewed after it, the latest impedance check and review-check event, the
 * running intermittent time log, the current technologist, and its critical findings not cancelled (through
 * `critical_findings_case_idx`). `undefined` when there is no such case.
 */
export async function findCaseClockRow(db: Db, caseId: string): Promise<CaseClockRow | undefined> {
  const [row] = await queryRows<CaseClockRow>(
    db,
    sql`
    with c as (select * from cases where id = ${caseId}),
    preview as (
      select max(coalesce(t.decided_at, t.created_at)) as at from case_transitions t
      where t.case_id = ${caseId} and t.to_stage = 'preview' and t.status = 'completed'
    )
    select
      c.id as case_id, c.client_id, c.archived_at, c.stage, c.priority, c.acknowledged_at, c.recording_started_at, c.recording_ended_at,
      c.reviewer_sub, c.reviewer_username, c.reviewer_name,
      (select coalesce(max(a.created_at), case when c.priority = 'stat' then c.created_at end) from case_actions a
        where a.case_id = c.id and (
          (a.action = 'set-priority' and a.details->>'to' = 'stat')
          or (a.action = 'update' and a.details->'changes'->'priority'->>'to' = 'stat'))) as stat_since,
      preview.at as preview_since,
      (select min(coalesce(t.decided_at, t.created_at)) from case_transitions t
        where t.case_id = c.id and t.to_stage = 'reviewed' and t.status = 'completed'
          and coalesce(t.decided_at, t.created_at) >= preview.at) as reviewed_at,
      (select max((r.data->>'checkedAt')::timestamptz) from case_records r
        where r.case_id = c.id and r.kind = 'impedance' and not r.deleted) as last_impedance_check_at,
      (select max((r.data->>'occurredAt')::timestamptz) from case_records r
        where r.case_id = c.id and r.kind = 'event' and not r.deleted and r.data->>'type' = 'review-check')
        as last_review_check_at,
      log.started_at as intermittent_started_at, log.technologist_sub as intermittent_sub,
      log.technologist_username as intermittent_username, log.technologist_name as intermittent_name,
      tech.technologist_sub, tech.technologist_username, tech.technologist_name,
      p.impedance_check_interval_hours, p.review_turnaround_hours, p.stat_acknowledge_minutes,
      (select coalesce(json_agg(json_build_object(
          'raisedAt', f.raised_at, 'dueAt', f.due_at, 'windowMinutes', f.window_minutes,
          'acknowledgedAt', f.acknowledged_at, 'raisedBySub', f.raised_by_sub,
          'raisedByUsername', f.raised_by_username, 'raisedByName', f.raised_by_name) order by f.raised_at), '[]'::json)
        from critical_findings f where f.case_id = c.id and f.status <> 'cancelled') as findings
    from c
    cross join preview
    left join lateral (
      select l.started_at, l.technologist_sub, l.technologist_username, l.technologist_name from case_time_logs l
      where l.case_id = c.id and l.mode = 'intermittent' and l.ended_at is null and not l.deleted
      order by l.started_at desc limit 1
    ) log on true
    left join lateral (
      select s.technologist_sub, s.technologist_username, s.technologist_name from case_assignments s
      where s.case_id = c.id and s.ended_at is null order by s.started_at desc limit 1
    ) tech on true
    left join lateral (
      select pr.impedance_check_interval_hours, pr.review_turnaround_hours, pr.stat_acknowledge_minutes
      from protocol_revisions pr
      where (c.protocol_revision_id is not null and pr.id = c.protocol_revision_id)
         or (c.protocol_revision_id is null and pr.client_id = c.client_id)
      order by pr.revision desc limit 1
    ) p on true`,
  );
  return row;
}
