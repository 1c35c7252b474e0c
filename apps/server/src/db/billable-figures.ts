import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "./client.js";

/**
 * The billable figures kept on write (`billable_seconds_daily`, `billable_second_carries`,
 * `billable_seconds_monthly`; tables/billing-figure-tables.ts says what they hold). One SQL split of logs into their
 * client's calendar days serves every writer: a time log's write subtracts the old projection row's contribution
 * and adds the new one's in the write's transaction; a restore, a bulk load or a client's new time zone recomputes
 * them from the logs; the check compares the kept rows with a recomputation. Billing (modules/billing) reads them.
 *
 * What counts is what billing counts (billing-repository.ts): billable, not deleted, finished logs (a running log
 * is added at read time, counted to now); each day is local midnight to local midnight in the client's zone
 * (PostgreSQL's zone rules, as the reads cut their windows with), whole seconds the floor of each piece. Archived
 * cases keep their figures: archiving is a case's change, and billing leaves those cases out when it reads.
 */

/** The projection's fields the figures depend on. */
export type FigureLog = {
  recordId: string;
  caseId: string;
  billable: boolean;
  deleted?: boolean | null | undefined;
  startedAt: Date;
  endedAt?: Date | null | undefined;
};

function counts(log: FigureLog | undefined): log is FigureLog & { endedAt: Date } {
  return log?.billable === true && !log.deleted && log.endedAt instanceof Date;
}

/** The finished billable logs of the figures, with their client and zone; `sign` is +1 (or −1 to take one away). */
function keptLogs(filter: SQL = sql`true`): SQL {
  return sql`select l.record_id, l.case_id, c.client_id, k.timezone as time_zone, l.started_at, l.ended_at, 1 as sign
    from case_time_logs l join cases c on c.id = l.case_id join clients k on k.id = c.client_id
    where l.billable and not l.deleted and l.ended_at is not null and ${filter}`;
}

/**
 * Each log's pieces, one per calendar day it touches (days without a whole second included, so `lag` sees the day
 * before): the whole seconds of the piece, whether the day before had one too, and the whole seconds of the log.
 */
function piecesOf(logs: SQL): SQL {
  return sql`select p.*,
      coalesce(p.seconds >= 1 and lag(p.seconds) over (partition by p.record_id, p.sign order by p.day) >= 1, false)
        as continued
    from (select l.record_id, l.case_id, l.client_id, l.sign, d.day,
        floor(extract(epoch from least(l.ended_at, (d.day + 1)::timestamp at time zone l.time_zone)
          - greatest(l.started_at, d.day::timestamp at time zone l.time_zone)))::int as seconds,
        floor(extract(epoch from l.ended_at - l.started_at))::int as total
      from (${logs}) l
      cross join lateral (
        select g::date as day from generate_series(
          (l.started_at at time zone l.time_zone)::date::timestamp,
          ((l.ended_at - interval '1 microsecond') at time zone l.time_zone)::date::timestamp,
          interval '1 day') g) d) p`;
}

/** The daily rows the logs make (signed). */
function dailyOf(logs: SQL): SQL {
  return sql`select case_id, client_id, day, sum(sign * seconds)::int as seconds, sum(sign)::int as log_count,
      sum(case when continued then sign else 0 end)::int as continued_count
    from (${piecesOf(logs)}) pieces where seconds >= 1
    group by case_id, client_id, day`;
}

/**
 * The carried seconds the logs make, per log and sign: logs whose days add up to a second less than the whole log.
 * `pieces` names the relation holding `piecesOf` of the logs.
 */
function signedCarriesOf(pieces: SQL): SQL {
  return sql`select record_id, sign, case_id, client_id, min(day) as first_day, max(day) as last_day,
      sum(seconds) = 0 as counted_alone
    from ${pieces}
    group by record_id, sign, case_id, client_id
    having max(total) > sum(seconds)`;
}

/** The carries (`billable_second_carries`) the logs make. */
function carriesOf(logs: SQL): SQL {
  return sql`select record_id, case_id, client_id, first_day, last_day, counted_alone
    from (${signedCarriesOf(sql`(${piecesOf(logs)}) pieces`)}) carries where sign = 1`;
}

/** The first day of a date's month, as a date (no time zone involved: the days are already the client's). */
const monthOfDay = (column: SQL) => sql`(${column} - extract(day from ${column})::int + 1)`;

/**
 * The monthly rows the logs make (signed): per case and calendar month, the whole seconds of its days plus the carried
 * seconds of logs wholly inside the month; its days' logs minus those continued from a day of the same month, plus
 * the logs counted only by such a carry — what a month window reads from the daily rows and the carries.
 */
function monthlyOf(logs: SQL): SQL {
  const month = monthOfDay(sql`day`);
  return sql`with pieces as materialized (${piecesOf(logs)})
    select case_id, client_id, month, sum(seconds)::int as seconds, sum(logs)::int as log_count
    from (
      select case_id, client_id, ${month} as month, sign * seconds as seconds,
          case when continued and extract(day from day) > 1 then 0 else sign end as logs
        from pieces where seconds >= 1
      union all
      select case_id, client_id, ${monthOfDay(sql`first_day`)}, sign, case when counted_alone then sign else 0 end
        from (${signedCarriesOf(sql`pieces`)}) carries
        where ${monthOfDay(sql`first_day`)} = ${monthOfDay(sql`last_day`)}
    ) parts
    group by case_id, client_id, month`;
}

function logValues(log: FigureLog & { endedAt: Date }, sign: number): SQL {
  return sql`select ${log.recordId}::uuid as record_id, c.id as case_id, c.client_id, k.timezone as time_zone,
      ${log.startedAt.toISOString()}::timestamptz as started_at, ${log.endedAt.toISOString()}::timestamptz as ended_at,
      ${sign}::int as sign
    from cases c join clients k on k.id = c.client_id where c.id = ${log.caseId}`;
}

/**
 * Moves the figures from the log's old projection row (`before`, undefined for a new log) to its new one, in the
 * caller's transaction (the one writing `case_time_logs`). The client row is share-locked first, so a change of
 * the client's time zone (which recomputes the client's figures) and this write run one after the other.
 */
export async function keepBillableFigures(db: Db, before: FigureLog | undefined, after: FigureLog): Promise<void> {
  const old = counts(before) ? before : undefined;
  const now = counts(after) ? after : undefined;
  if (!old && !now) return;
  if (
    old &&
    now &&
    old.startedAt.getTime() === now.startedAt.getTime() &&
    old.endedAt.getTime() === now.endedAt.getTime()
  )
    return;
  await db.execute(
    sql`select k.id from clients k join cases c on c.client_id = k.id where c.id = ${after.caseId} for share of k`,
  );
  const parts = [...(old ? [logValues(old, -1)] : []), ...(now ? [logValues(now, 1)] : [])];
  await db.execute(
    sql`insert into billable_seconds_daily as f (case_id, client_id, day, seconds, log_count, continued_count)
      ${dailyOf(sql.join(parts, sql` union all `))}
      on conflict (case_id, day) do update set seconds = f.seconds + excluded.seconds,
        log_count = f.log_count + excluded.log_count, continued_count = f.continued_count + excluded.continued_count`,
  );
  await db.execute(
    sql`delete from billable_seconds_daily
      where case_id = ${after.caseId} and seconds = 0 and log_count = 0 and continued_count = 0`,
  );
  await db.execute(
    sql`insert into billable_seconds_monthly as f (case_id, client_id, month, seconds, log_count)
      ${monthlyOf(sql.join(parts, sql` union all `))}
      on conflict (case_id, month) do update set seconds = f.seconds + excluded.seconds,
        log_count = f.log_count + excluded.log_count`,
  );
  await db.execute(
    sql`delete from billable_seconds_monthly where case_id = ${after.caseId} and seconds = 0 and log_count = 0`,
  );
  await db.execute(sql`delete from billable_second_carries where record_id = ${after.recordId}`);
  if (now) {
    await db.execute(
      sql`insert into billable_second_carries (record_id, case_id, client_id, first_day, last_day, counted_alone)
        ${carriesOf(logValues(now, 1))}`,
    );
  }
}

/** Recomputes the figures from the logs: every client's, or one client's (its time zone changed). */
export async function recomputeBillableFigures(db: Db, clientId?: string): Promise<void> {
  const ofClient = clientId ? sql`client_id = ${clientId}` : sql`true`;
  const logs = keptLogs(clientId ? sql`c.client_id = ${clientId}` : sql`true`);
  await db.execute(sql`delete from billable_seconds_daily where ${ofClient}`);
  await db.execute(sql`delete from billable_second_carries where ${ofClient}`);
  await db.execute(sql`delete from billable_seconds_monthly where ${ofClient}`);
  await db.execute(
    sql`insert into billable_seconds_daily (case_id, client_id, day, seconds, log_count, continued_count)
      ${dailyOf(logs)}`,
  );
  await db.execute(
    sql`insert into billable_second_carries (record_id, case_id, client_id, first_day, last_day, counted_alone)
      ${carriesOf(logs)}`,
  );
  await db.execute(
    sql`insert into billable_seconds_monthly (case_id, client_id, month, seconds, log_count) ${monthlyOf(logs)}`,
  );
}

/**
 * After a restore or a bulk load: recomputes the figures when none are kept but finished billable logs exist (a
 * backup from before the figures, or loaded without them). Answers whether it did.
 */
export async function recomputeBillableFiguresIfMissing(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ missing: boolean }>(
    db,
    sql`select (not exists (select 1 from billable_seconds_daily)
          and exists (select 1 from case_time_logs l where l.billable and not l.deleted and l.ended_at is not null))
        or (not exists (select 1 from billable_seconds_monthly) and exists (select 1 from billable_seconds_daily))
        as missing`,
  );
  if (!row?.missing) return false;
  await db.transaction((tx) => recomputeBillableFigures(tx));
  return true;
}

/** One row where the kept figures differ from the logs: what is kept and what the logs make (null: no row). */
export type FigureDifference = {
  table: "billable_seconds_daily" | "billable_second_carries" | "billable_seconds_monthly";
  key: string;
  kept: string | null;
  expected: string | null;
};

/** Compares every kept figure with a recomputation from the logs; no rows means they agree. */
export async function compareBillableFigures(db: Db): Promise<FigureDifference[]> {
  const logs = keptLogs();
  const daily = await queryRows<FigureDifference>(
    db,
    sql`select 'billable_seconds_daily' as "table",
        coalesce(a.case_id, b.case_id)::text || ' ' || coalesce(a.day, b.day)::text as key,
        case when a.case_id is null then null
          else concat_ws(' ', a.client_id, a.seconds, a.log_count, a.continued_count) end as kept,
        case when b.case_id is null then null
          else concat_ws(' ', b.client_id, b.seconds, b.log_count, b.continued_count) end as expected
      from billable_seconds_daily a full join (${dailyOf(logs)}) b on b.case_id = a.case_id and b.day = a.day
      where a.case_id is null or b.case_id is null or a.client_id <> b.client_id or a.seconds <> b.seconds
        or a.log_count <> b.log_count or a.continued_count <> b.continued_count
      order by 2`,
  );
  const carries = await queryRows<FigureDifference>(
    db,
    sql`select 'billable_second_carries' as "table", coalesce(a.record_id, b.record_id)::text as key,
        case when a.record_id is null then null
          else concat_ws(' ', a.case_id, a.client_id, a.first_day, a.last_day, a.counted_alone) end as kept,
        case when b.record_id is null then null
          else concat_ws(' ', b.case_id, b.client_id, b.first_day, b.last_day, b.counted_alone) end as expected
      from billable_second_carries a full join (${carriesOf(logs)}) b on b.record_id = a.record_id
      where a.record_id is null or b.record_id is null or a.case_id <> b.case_id or a.client_id <> b.client_id
        or a.first_day <> b.first_day or a.last_day <> b.last_day or a.counted_alone <> b.counted_alone
      order by 2`,
  );
  const monthly = await queryRows<FigureDifference>(
    db,
    sql`select 'billable_seconds_monthly' as "table",
        coalesce(a.case_id, b.case_id)::text || ' ' || coalesce(a.month, b.month)::text as key,
        case when a.case_id is null then null else concat_ws(' ', a.client_id, a.seconds, a.log_count) end as kept,
        case when b.case_id is null then null else concat_ws(' ', b.client_id, b.seconds, b.log_count) end as expected
      from billable_seconds_monthly a full join (${monthlyOf(logs)}) b on b.case_id = a.case_id and b.month = a.month
      where a.case_id is null or b.case_id is null or a.client_id <> b.client_id or a.seconds <> b.seconds
        or a.log_count <> b.log_count
      order by 2`,
  );
  return [...daily, ...carries, ...monthly];
}
