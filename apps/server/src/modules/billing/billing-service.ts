import {
  type AppliedRate,
  type BillingCheck,
  type BillingMonthRow,
  type BillingOverview,
  type billingOverviewQuerySchema,
  type ClientMonthRate,
  type CptSuggestion,
  type CptWarningId,
  cptWarningIds,
  cptWarningLabels,
  rangeMessages,
  type SetRateRequest,
  type setRateRequestSchema,
  supportedCalendar,
} from "@vigil/contract";
import { Temporal } from "temporal-polyfill";
import type { z } from "zod";
import { type Actor, auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { findTechnologistLogsOverlapping, type OverlappingLog } from "../../db/time-log-overlaps.js";
import { AppError } from "../../errors/app-error.js";
import { capFor, peakConcurrentCases, type TechnologistCaps } from "../records/time-log-rules.js";
import { addMonths, currentMonth, monthsBetween, monthWindow, splitByMonth } from "./billing-calendar.js";
import { amountFor, hoursFromSeconds, normalizeRate, rateForMonth, sumDecimals } from "./billing-money.js";
import {
  type BillingCaseRow,
  type BillingClientRow,
  type ClientWindow,
  findAcknowledgedWarnings,
  findBillingCases,
  findBillingClient,
  findBillingClients,
  findLiveTimeLogs,
  findRate,
  findRatesOfClients,
  findReviewCheckTimes,
  insertRateChange,
  type RateRow,
  saveRate,
  sumBillableSecondsByCase,
  type TimeLogRow,
  type WindowCaseSeconds,
} from "./billing-repository.js";
import { findStatementNumbers } from "./billing-statements-repository.js";
import { type CptLog, type CptRulesConfig, defaultCptRulesConfig, suggestCpt } from "./cpt-rules.js";

/**
 * Billing (PRODUCT.md §5): billable hours per client month, the rate that applies (own or inherited), amounts,
 * monthly statements, rates and the billing check that closing a case needs. Hours are the billable, live time
 * logs of a client's cases (archived cases excluded, see billing-repository.ts) clipped to the month in the
 * client's time zone, a running log counting to now. Every amount is computed per case from that case's rounded
 * hours, and every total is the sum of rounded lines, so the overview, the statement and a calculator agree.
 *
 * "Invoiced": a client month is invoiced once its statement has been issued (billing-statements-service.ts). From
 * then on, changing the rate it was billed at (its own, or the one it inherits) needs a reason, kept with the change
 * and in the audit log; the difference is shown against the issued statement, never written into it.
 */

/**
 * The rules billing follows that come from configuration: technologists' caps, the unconfirmed CPT rules and the
 * currency amounts are in.
 */
export type BillingSettings = { caps: TechnologistCaps; cpt: CptRulesConfig; currency: string };

export function billingSettingsOf(config: Pick<Config, "technologistCaps" | "cptRules" | "currency">): BillingSettings {
  return {
    currency: config.currency,
    caps: config.technologistCaps,
    cpt: {
      ...defaultCptRulesConfig,
      finalPartialSegmentUsesShortCode: config.cptRules.finalPartialSegmentShortCode,
      professionalReporting: config.cptRules.professionalReporting,
    },
  };
}

/** How far ahead a rate may be set: a year of the client's calendar (contracts are priced a year ahead at most). */
export const rateMonthsAhead = 12;
/** The longest overview (10 years of months per client): beyond that a page of totals means little. */
export const overviewMaxMonths = 120;

type OverviewQuery = z.output<typeof billingOverviewQuerySchema>;
type RateRequest = z.output<typeof setRateRequestSchema>;

/** Who sets a rate: the audit actor and their display name (looked up before the transaction). */
export type BillingActor = Actor & { name: string | null };

function badRequest(issues: { path: string; message: string }[], message?: string): AppError {
  return new AppError(
    "bad_request",
    message ?? `Invalid request: ${issues.map((issue) => `${issue.path} ${issue.message}`).join("; ")}`,
    { issues },
  );
}

export async function requireBillingClient(db: Db, id: string, lock?: "no key update"): Promise<BillingClientRow> {
  const client = await findBillingClient(db, id, lock);
  if (!client) throw new AppError("not_found", `No client with id ${id}.`);
  return client;
}

export function toClientMonthRate(row: RateRow): ClientMonthRate {
  return {
    clientId: row.clientId,
    month: row.month,
    hourlyRate: row.hourlyRate,
    version: row.version,
    setAt: row.setAt.toISOString(),
    setBy: { sub: row.setBySub, username: row.setByUsername, name: row.setByName },
    reason: row.reason,
  };
}

/** One client month from its cases' seconds: each case's hours rounded, then amounts and totals from those. */
export type MonthFigures = {
  caseHours: Map<string, string>;
  caseAmounts: Map<string, string>;
  hours: string;
  amount: string | null;
  caseCount: number;
  rateMissing: boolean;
  provisional: boolean;
};

export function monthFigures(lines: readonly WindowCaseSeconds[], rate: AppliedRate | null): MonthFigures {
  const caseHours = new Map(lines.map((line) => [line.caseId, hoursFromSeconds(line.seconds)]));
  const caseAmounts = new Map(
    rate ? [...caseHours].map(([caseId, hours]) => [caseId, amountFor(hours, rate.hourlyRate)] as const) : [],
  );
  return {
    caseHours,
    caseAmounts,
    hours: sumDecimals([...caseHours.values()]),
    amount: rate ? sumDecimals([...caseAmounts.values()]) : null,
    caseCount: lines.length,
    // A month with billable time and no rate at all is flagged, never billed at zero.
    rateMissing: rate === null && lines.length > 0,
    provisional: lines.some((line) => line.running),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Clients × months
// ---------------------------------------------------------------------------------------------------------------

const day = 86_400_000;

/**
 * `GET /billing/continuous-monitoring`: every client × month of the range (default: the 12 months ending with the
 * current month) — active clients even without hours (so a rate can be set ahead), other clients where they have
 * hours. One query sums the seconds of every (client, month, case); rows are filtered, sorted (month descending,
 * then client name) and paged here, and the totals cover every matching row.
 */
export async function listBillingMonths(
  db: Db,
  query: OverviewQuery,
  currency: string,
  now = new Date(),
): Promise<BillingOverview> {
  const to = query.to ?? currentMonth("UTC", now);
  // Not before the supported calendar's first month: the rows' months must pass the contract's month schema.
  const yearBefore = addMonths(to, -11);
  const from = query.from ?? (yearBefore < supportedCalendar.firstMonth ? supportedCalendar.firstMonth : yearBefore);
  if (from > to) throw badRequest([{ path: "querystring.from", message: rangeMessages.endIncluded }]);
  const months = monthsBetween(from, to);
  if (months.length > overviewMaxMonths) {
    throw badRequest([
      { path: "querystring.from", message: `the range may cover at most ${overviewMaxMonths} months` },
    ]);
  }
  if (query.clientId) await requireBillingClient(db, query.clientId);

  // Any zone is within a day of UTC: the search is widened by a day, the exact cut is per client below.
  const since = new Date(monthWindow(from, "UTC").start.getTime() - day);
  const until = new Date(monthWindow(to, "UTC").end.getTime() + day);
  const clients = await findBillingClients(db, {
    clientId: query.clientId,
    since,
    until,
    now,
    includeActive: true,
  });
  const windows: ClientWindow[] = clients.flatMap((client) =>
    months.map((month) => ({ clientId: client.id, key: month, ...monthWindow(month, client.timezone) })),
  );
  const clientIds = clients.map((client) => client.id);
  const [seconds, rates, statements] = await Promise.all([
    sumBillableSecondsByCase(db, windows, now),
    findRatesOfClients(db, clientIds),
    findStatementNumbers(db, clientIds, { from, to }),
  ]);
  const linesOf = groupBy(seconds, (line) => `${line.clientId}|${line.key}`);
  const statementOf = new Map(statements.map((statement) => [`${statement.clientId}|${statement.month}`, statement]));
  const ratesOf = groupBy(rates, (rate) => rate.clientId);

  let rows: BillingMonthRow[] = clients.flatMap((client) => {
    const own = ratesOf.get(client.id) ?? [];
    return months.map((month): BillingMonthRow => {
      const rate = rateForMonth(month, own);
      const ownRate = own.find((candidate) => candidate.month === month);
      const figures = monthFigures(linesOf.get(`${client.id}|${month}`) ?? [], rate);
      const statement = statementOf.get(`${client.id}|${month}`);
      return {
        clientId: client.id,
        clientName: client.name,
        clientTimezone: client.timezone,
        month,
        hours: figures.hours,
        caseCount: figures.caseCount,
        rate,
        ownRate: ownRate ? toClientMonthRate(ownRate) : null,
        amount: figures.amount,
        rateMissing: figures.rateMissing,
        invoiced: statement !== undefined,
        statementNumber: statement?.number ?? null,
        provisional: figures.provisional,
      };
    });
  });
  // true: only the months that need a rate; false: only those that do not; absent: all.
  if (query.missingRate !== undefined) rows = rows.filter((row) => row.rateMissing === query.missingRate);
  const order = new Map(clients.map((client, index) => [client.id, index]));
  rows.sort(
    (left, right) =>
      right.month.localeCompare(left.month) || (order.get(left.clientId) ?? 0) - (order.get(right.clientId) ?? 0),
  );
  return {
    items: rows.slice(query.offset, query.offset + query.limit),
    total: rows.length,
    limit: query.limit,
    offset: query.offset,
    currency,
    from,
    to,
    totals: {
      hours: sumDecimals(rows.map((row) => row.hours)),
      amount: sumDecimals(rows.flatMap((row) => (row.amount === null ? [] : [row.amount]))),
      monthsWithoutRate: rows.filter((row) => row.rateMissing).length,
    },
  };
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** "Last, First" as statements print it. */
export function patientNameOf(row: BillingCaseRow): string {
  const name = [row.patientLastName, row.patientFirstName].filter((part) => part?.trim()).join(", ");
  return name || "(no patient details)";
}

// ---------------------------------------------------------------------------------------------------------------
// CPT suggestions
// ---------------------------------------------------------------------------------------------------------------

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
 * The cases (of `logs`) where a log had more concurrent patients than its mode's cap allows: each monitored log is
 * judged against its technologist's other logs of the same mode, as the time-log screens flag it.
 */
async function casesOverCap(db: Db, logs: readonly TimeLogRow[], caps: TechnologistCaps, now: Date) {
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
  const groups = new Map<string, { logs: OverlappingLog[]; longest: number }>();
  for (const [key, members] of groupBy(nearby, (other) => `${other.technologistUsername}|${other.mode}`)) {
    const logs = [...members].sort((left, right) => left.startMs - right.startMs);
    let longest = 0;
    for (const other of logs) longest = Math.max(longest, (other.endMs ?? to.getTime()) - other.startMs);
    groups.set(key, { logs, longest });
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
  const overCap = await casesOverCap(db, logs, settings.caps, now);
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

// ---------------------------------------------------------------------------------------------------------------
// Rates
// ---------------------------------------------------------------------------------------------------------------

/**
 * The issued months whose rate a new own rate for `month` sets: `month` itself and the later months that inherit
 * from it (up to the next month with a rate of its own).
 */
export function issuedMonthsReached<T extends { month: string }>(
  month: string,
  ownRates: readonly { month: string }[],
  issued: readonly T[],
): T[] {
  const nextOwn = ownRates
    .map((rate) => rate.month)
    .filter((candidate) => candidate > month)
    .sort()[0];
  return issued
    .filter((statement) => statement.month >= month && (nextOwn === undefined || statement.month < nextOwn))
    .sort((left, right) => left.month.localeCompare(right.month));
}

/**
 * `POST …/{client}/{month}/rate`: in one transaction, under a lock on the client row (so two changes of one
 * client's rates run one after the other): the named base version must be the month's current one (null: none
 * yet), a reason is required when the change reaches an issued month (issuedMonthsReached), then the month's own
 * rate is written (version + 1), the change appended to the history and the audit event recorded. Months more
 * than a year ahead are refused: a typo such as 2062 for 2026 would otherwise silently price a month nobody
 * looks at.
 */
export async function setBillingRate(
  db: Db,
  clientId: string,
  month: string,
  request: RateRequest | SetRateRequest,
  actor: BillingActor,
  now = new Date(),
): Promise<ClientMonthRate> {
  const reason = request.reason?.trim() || null;
  const hourlyRate = normalizeRate(request.hourlyRate);
  return db.transaction(async (tx) => {
    const client = await requireBillingClient(tx, clientId, "no key update");
    const latest = addMonths(currentMonth(client.timezone, now), rateMonthsAhead);
    if (month > latest) {
      throw badRequest([
        { path: "params.month", message: `must be at most ${rateMonthsAhead} months ahead (${latest} or earlier)` },
      ]);
    }
    const current = await findRate(tx, clientId, month, "update");
    if ((current?.version ?? null) !== request.baseVersion) {
      throw new AppError(
        "conflict",
        current
          ? `The rate of ${month} for ${client.name} was changed by ${current.setByName ?? current.setByUsername}: it is ${current.hourlyRate} (version ${current.version}), and you based your change on ${request.baseVersion === null ? "no rate" : `version ${request.baseVersion}`}. Review it and set the rate again.`
          : `${month} has no rate of its own for ${client.name} yet (you based your change on version ${request.baseVersion}). Review it and set the rate again.`,
        { current: current ? toClientMonthRate(current) : null, baseVersion: request.baseVersion },
      );
    }
    const reached = issuedMonthsReached(
      month,
      await findRatesOfClients(tx, [clientId]),
      await findStatementNumbers(tx, [clientId], { from: month }),
    );
    const invoiced = reached.length > 0;
    if (invoiced && !reason) {
      const named = reached.map((statement) => `${statement.month} (statement No. ${statement.number})`).join(", ");
      throw badRequest(
        [{ path: "body.reason", message: `is required: this rate applies to issued statements: ${named}` }],
        `A reason is required: this rate applies to months already invoiced: ${named}`,
      );
    }
    const version = (current?.version ?? 0) + 1;
    const author = { sub: actor.sub, username: actor.username, name: actor.name };
    const saved = await saveRate(tx, {
      clientId,
      month,
      hourlyRate,
      version,
      setAt: now,
      setBySub: author.sub,
      setByUsername: author.username,
      setByName: author.name,
      reason,
    });
    await insertRateChange(tx, {
      clientId,
      month,
      hourlyRate,
      previousRate: current?.hourlyRate ?? null,
      version,
      invoiced,
      reason,
      changedAt: now,
      changedBySub: author.sub,
      changedByUsername: author.username,
      changedByName: author.name,
    });
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "billing.rate.set",
        { type: "client", id: clientId },
        { month, hourlyRate, previousRate: current?.hourlyRate ?? null, version, invoiced, reason },
      ),
    );
    return toClientMonthRate(saved);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The billing check of reviewed → closed
// ---------------------------------------------------------------------------------------------------------------

/** What the check needs of a case (a cases-module row fits). */
export type BillingCaseRef = { id: string; clientId: string; caseNumber: string };

const checkLabels = {
  "no-running-time-log": "No time log of the case is still running",
  "rate-known": "A rate is known for every month the case's billable time falls in",
  "cpt-warnings-acknowledged": "Every CPT warning is acknowledged in a billing note",
} as const;

/** "2026-11-20 05:00 America/New_York": an instant as the client's staff read it, zone named. */
function localTime(instant: Date, timeZone: string): string {
  const local = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone);
  return `${local.toPlainDate().toString()} ${local.toPlainTime().toString({ smallestUnit: "minute" })} ${timeZone}`;
}

/**
 * The billing check of one case (`billing-check-passed`, reviewed → closed), in the caller's transaction when
 * there is one: (1) no time log of the case is still running, billable or not (its hours are final); (2) every
 * client month its billable time touches has a rate, own or inherited; (3) every CPT warning of the case is
 * acknowledged in a live billing note.
 */
export async function checkCaseBilling(
  db: Db,
  subject: BillingCaseRef,
  now: Date,
  settings: BillingSettings,
): Promise<BillingCheck> {
  const [client, logs, rates, acknowledgedIds] = await Promise.all([
    requireBillingClient(db, subject.clientId),
    findLiveTimeLogs(db, [subject.id]),
    findRatesOfClients(db, [subject.clientId]),
    findAcknowledgedWarnings(db, subject.id),
  ]);
  const cpt = (await suggestCptForCases(db, [subject.id], settings, now, client.timezone, logs)).get(
    subject.id,
  ) as CptSuggestion;

  const secondsByMonth = new Map<string, number>();
  for (const log of logs.filter((candidate) => candidate.billable)) {
    for (const part of splitByMonth({ start: log.startedAt, end: log.endedAt }, client.timezone, now)) {
      secondsByMonth.set(part.month, (secondsByMonth.get(part.month) ?? 0) + part.seconds);
    }
  }
  const months = [...secondsByMonth]
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([month, seconds]) => ({ month, hours: hoursFromSeconds(seconds), rate: rateForMonth(month, rates) }));

  const running = logs.filter((log) => log.endedAt === null);
  const unpriced = months.filter((entry) => entry.rate === null).map((entry) => entry.month);
  const acknowledged = cptWarningIds.filter((id) => acknowledgedIds.includes(id));
  const unacknowledged = cpt.warnings.filter((warning) => !acknowledged.includes(warning.id));

  const runningMessage =
    running.length === 0
      ? null
      : `${running.length === 1 ? "A time log is" : `${running.length} time logs are`} still running (${running
          .map(
            (log) =>
              `${log.technologistName ?? log.technologistUsername}'s ${log.activity} log since ${localTime(log.startedAt, client.timezone)}`,
          )
          .join(", ")}); clock ${running.length === 1 ? "it" : "them"} out first`;
  const rateMessage = unpriced.length === 0 ? null : `No rate for ${unpriced.join(", ")} (${client.name})`;
  const cptMessage =
    unacknowledged.length === 0
      ? null
      : `CPT warnings not acknowledged in a billing note: ${unacknowledged
          .map((warning) => `${cptWarningLabels[warning.id as CptWarningId]} (${warning.id})`)
          .join("; ")}`;
  const checks = [
    { id: "no-running-time-log" as const, message: runningMessage },
    { id: "rate-known" as const, message: rateMessage },
    { id: "cpt-warnings-acknowledged" as const, message: cptMessage },
  ].map((check) => ({ ...check, label: checkLabels[check.id], passed: check.message === null }));
  return {
    caseId: subject.id,
    passed: checks.every((check) => check.passed),
    checks,
    months,
    cpt,
    acknowledgedWarnings: acknowledged,
  };
}

/** Why the check fails, in words (the failed parts joined), or undefined when it passes. */
export function billingCheckFailure(check: BillingCheck): string | undefined {
  const messages = check.checks.flatMap((item) => (item.message ? [item.message] : []));
  return messages.length === 0 ? undefined : `${messages.join("; ")}.`;
}

/** `GET /cases/{id}/billing-check`: the check as the billing screens show it. */
export async function getBillingCheck(
  db: Db,
  caseId: string,
  settings: BillingSettings,
  now = new Date(),
): Promise<BillingCheck> {
  const [subject] = await findBillingCases(db, [caseId]);
  if (!subject) throw new AppError("not_found", `No case with id ${caseId}.`);
  return checkCaseBilling(db, subject, now, settings);
}
