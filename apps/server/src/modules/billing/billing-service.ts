import {
  type AppliedRate,
  type BillingMonthRow,
  type BillingOverview,
  type billingOverviewQuerySchema,
  type ClientMonthRate,
  type ClientReceivableSummary,
  rangeMessages,
  supportedCalendar,
} from "@vigil/contract";
import { Temporal } from "temporal-polyfill";
import type { z } from "zod";
import type { Actor } from "../../audit/audited-write.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { addMonths, currentMonth, monthsBetween, monthWindow } from "./billing-calendar.js";
import { sumKeptMonthTotals } from "./billing-figures-repository.js";
import {
  amountCentsFor,
  centsOf,
  formatHundredths,
  hundredthsFromSeconds,
  moneyOfCents,
  rateForMonth,
  sumDecimals,
} from "./billing-money.js";
import {
  type BillingCaseRow,
  type BillingClientRow,
  findBillingClient,
  findBillingClients,
  findRatesOfClients,
  type RateRow,
  type WindowCaseSeconds,
} from "./billing-repository.js";
import { findStatementNumbers } from "./billing-statements-repository.js";
import { type CptRulesConfig, defaultCptRulesConfig } from "./cpt-rules.js";
import { findAgingRows } from "./receivables-repository.js";

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
export type BillingSettings = {
  caps: Config["technologistCaps"];
  cpt: CptRulesConfig;
  currency: string;
  /**
   * The company that issues invoices, as reports name it (REPORT_COMPANY_NAME, REPORT_COMPANY_DETAILS); blank for
   * the callers that only check cases (the case workflow), which never issue.
   */
  issuer: { name: string; details: string };
};

export function billingSettingsOf(
  config: Pick<Config, "technologistCaps" | "cptRules" | "currency"> & Partial<Pick<Config, "reports">>,
): BillingSettings {
  return {
    currency: config.currency,
    issuer: { name: config.reports?.companyName ?? "", details: config.reports?.companyDetails ?? "" },
    caps: config.technologistCaps,
    cpt: {
      finalPartialSegmentUsesShortCode: config.cptRules.finalPartialSegmentShortCode,
      professionalReporting: config.cptRules.professionalReporting,
      videoThresholdPercent: defaultCptRulesConfig.videoThresholdPercent,
    },
  };
}

/** How far ahead a rate may be set: a year of the client's calendar (contracts are priced a year ahead at most). */
export const rateMonthsAhead = 12;
/** The longest overview (10 years of months per client): beyond that a page of totals means little. */
export const overviewMaxMonths = 120;

type OverviewQuery = z.output<typeof billingOverviewQuerySchema>;

/** Who sets a rate: the audit actor and their display name (looked up before the transaction). */
export type BillingActor = Actor & { name: string | null };

export function badRequest(issues: { path: string; message: string }[], message?: string): AppError {
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
  // In hundredths and cents (billing-money.ts); the overview totals its months with the same rules in SQL
  // (billing-figures-repository.ts: sumKeptMonthTotals).
  const rateCents = rate ? centsOf(rate.hourlyRate) : null;
  const caseHours = new Map<string, string>();
  const caseAmounts = new Map<string, string>();
  let hundredths = 0;
  let cents = 0n;
  for (const line of lines) {
    const lineHundredths = hundredthsFromSeconds(line.seconds);
    hundredths += lineHundredths;
    caseHours.set(line.caseId, formatHundredths(lineHundredths));
    if (rateCents !== null) {
      const lineCents = amountCentsFor(lineHundredths, rateCents);
      cents += lineCents;
      caseAmounts.set(line.caseId, formatHundredths(lineCents));
    }
  }
  return {
    caseHours,
    caseAmounts,
    hours: formatHundredths(hundredths),
    amount: rateCents !== null ? formatHundredths(cents) : null,
    caseCount: lines.length,
    // A month with billable time and no rate at all is flagged, never billed at zero.
    rateMissing: rate === null && lines.length > 0,
    provisional: lines.some((line) => line.running),
  };
}

/* Clients × months */

const day = 86_400_000;

/**
 * `GET /billing/continuous-monitoring`: every client × month of the range (default: the 12 months ending with the
 * current month) — active clients even without hours (so a rate can be set ahead), other clients where they have
 * hours. One query totals every client month from the kept monthly figures, each case's line rounded as its
 * statement rounds it; rows are filtered, sorted (month descending, then client name) and paged here, and the
 * totals cover every matching row.
 */
/**
 * The balance and oldest overdue invoice today (UTC) of each client named: the aging report's own statement
 * (`findAgingRows`), so the overview and aging cannot disagree. A client without ledger entries owes nothing.
 */
async function findClientReceivables(db: Db, clientIds: string[], now: Date): Promise<ClientReceivableSummary[]> {
  if (clientIds.length === 0) return [];
  const asOf = now.toISOString().slice(0, 10);
  const { rows } = await findAgingRows(db, { asOf, clientIds }, { limit: clientIds.length, offset: 0 });
  const rowOf = new Map(rows.map((row) => [row.clientId, row]));
  return clientIds.map((clientId) => {
    const row = rowOf.get(clientId);
    return {
      clientId,
      balance: moneyOfCents(row?.balanceCents ?? 0),
      oldestOverdue:
        row?.oldestId && row.oldestNumber && row.oldestDueDate
          ? {
              invoiceId: row.oldestId,
              number: row.oldestNumber,
              dueDate: row.oldestDueDate,
              daysPastDue: Temporal.PlainDate.from(row.oldestDueDate).until(asOf).days,
            }
          : null,
    };
  });
}

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
  const monthKeys = monthsBetween(from, to);
  if (monthKeys.length > overviewMaxMonths) {
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
  const clientIds = clients.map((client) => client.id);
  const [rates, statements] = await Promise.all([
    findRatesOfClients(db, clientIds),
    findStatementNumbers(db, clientIds, { from, to }),
  ]);
  const ratesOf = groupBy(rates, (rate) => rate.clientId);
  const months = clients.flatMap((client) => {
    const own = ratesOf.get(client.id) ?? [];
    return monthKeys.map((month) => {
      const rate = rateForMonth(month, own);
      return {
        client,
        month,
        rate,
        ownRate: own.find((candidate) => candidate.month === month),
        window: { clientId: client.id, key: month, ...monthWindow(month, client.timezone) },
      };
    });
  });
  // Each month's lines are rounded and summed in the database (the overview shows totals only, not case lines).
  const totals = await sumKeptMonthTotals(
    db,
    months.map(({ window, rate }) => ({ rateCents: rate ? centsOf(rate.hourlyRate) : null, ...window })),
    now,
  );
  const totalsOf = new Map(totals.map((total) => [`${total.clientId}|${total.key}`, total]));
  const statementOf = new Map(statements.map((statement) => [`${statement.clientId}|${statement.month}`, statement]));

  let rows: BillingMonthRow[] = months.map(({ client, month, rate, ownRate }): BillingMonthRow => {
    const total = totalsOf.get(`${client.id}|${month}`);
    const statement = statementOf.get(`${client.id}|${month}`);
    const caseCount = total?.caseCount ?? 0;
    return {
      clientId: client.id,
      clientName: client.name,
      clientTimezone: client.timezone,
      month,
      hours: formatHundredths(total?.hundredths ?? 0),
      caseCount,
      rate,
      ownRate: ownRate ? toClientMonthRate(ownRate) : null,
      amount: rate ? formatHundredths(total?.cents ?? 0n) : null,
      // A month with billable time and no rate at all is flagged, never billed at zero.
      rateMissing: rate === null && caseCount > 0,
      invoiced: statement !== undefined,
      statementNumber: statement?.number ?? null,
      provisional: total?.running ?? false,
    };
  });
  // true: only the months that need a rate; false: only those that do not; absent: all.
  if (query.missingRate !== undefined) rows = rows.filter((row) => row.rateMissing === query.missingRate);
  const order = new Map(clients.map((client, index) => [client.id, index]));
  rows.sort(
    (left, right) =>
      right.month.localeCompare(left.month) || (order.get(left.clientId) ?? 0) - (order.get(right.clientId) ?? 0),
  );
  const items = rows.slice(query.offset, query.offset + query.limit);
  return {
    items,
    receivables: await findClientReceivables(db, [...new Set(items.map((row) => row.clientId))], now),
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

export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
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
