import type { BillableHoursReport, BillableHoursRow, billableHoursQuerySchema, ReportGrouping } from "@vigil/contract";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { type Bucket, dayBuckets, monthBuckets, periodWindow, weekBuckets } from "./billing-calendar.js";
import { countKeptInPeriods, sumKeptSecondsForReport } from "./billing-figures-repository.js";
import { hoursFromSeconds, sumDecimals } from "./billing-money.js";
import {
  type ClientWindow,
  countBillableInWindows,
  findBillingClient,
  findBillingClients,
  sumBillableSecondsForReport,
} from "./billing-repository.js";

/**
 * Billable-hours reporting (PRODUCT.md §5): the same hours as billing (billable, live logs of cases not archived,
 * a running log counting to now), over a period of calendar days cut in each client's own time zone, grouped by
 * day, ISO week, month, client or technologist. The buckets are computed per client zone and summed in SQL; a
 * bucket key ("2026-11-16", "2026-W47", "2026-11") means the same calendar days for every client.
 */

type ReportQuery = z.output<typeof billableHoursQuerySchema>;

const bucketsOf: Record<"day" | "week" | "month", (from: string, to: string, timeZone: string) => Bucket[]> = {
  day: dayBuckets,
  week: weekBuckets,
  month: monthBuckets,
};

const day = 86_400_000;

function isCalendarGrouping(groupBy: ReportGrouping): groupBy is "day" | "week" | "month" {
  return groupBy === "day" || groupBy === "week" || groupBy === "month";
}

/**
 * `GET /reporting/continuous-monitoring/billable-hours`. Rows come in key order; for day, week and month every
 * bucket of the period is a row, with or without hours, so a chart shows the gaps. Each row's hours are its exact
 * seconds rounded once; `totals.hours` is the sum of the rows' rounded hours (what the table adds up to), and the
 * totals' case and log counts are distinct over the whole period (a case spanning two days counts once).
 */
export async function getBillableHoursReport(
  db: Db,
  query: ReportQuery,
  now = new Date(),
): Promise<BillableHoursReport> {
  const { from, to, groupBy } = query;
  const technologist = query.technologist?.trim() || undefined;
  if (query.clientId && !(await findBillingClient(db, query.clientId))) {
    throw new AppError("not_found", `No client with id ${query.clientId}.`);
  }
  // Any zone is within a day of UTC: the search is widened by a day, the exact cut is per client.
  const utc = periodWindow(from, to, "UTC");
  const clients = await findBillingClients(db, {
    clientId: query.clientId,
    since: new Date(utc.start.getTime() - day),
    until: new Date(utc.end.getTime() + day),
    now,
    includeActive: false,
    technologist,
  });
  const periods: ClientWindow[] = clients.map((client) => ({
    clientId: client.id,
    key: client.id,
    ...periodWindow(from, to, client.timezone),
  }));
  // Clients share a handful of zones: each zone's buckets are cut once (a month by day is ~30 zone conversions).
  const bucketsByZone = new Map<string, Bucket[]>();
  const bucketsIn = (grouping: "day" | "week" | "month", timeZone: string): Bucket[] => {
    let buckets = bucketsByZone.get(timeZone);
    if (!buckets) {
      buckets = bucketsOf[grouping](from, to, timeZone);
      bucketsByZone.set(timeZone, buckets);
    }
    return buckets;
  };
  const windows = isCalendarGrouping(groupBy)
    ? clients.flatMap((client) =>
        bucketsIn(groupBy, client.timezone).map((bucket) => ({
          clientId: client.id,
          key: bucket.key,
          start: bucket.start,
          end: bucket.end,
        })),
      )
    : periods;
  // The kept figures have no technologist: one technologist's hours, or hours by technologist, sum the logs.
  const fromLogs = technologist !== undefined || groupBy === "technologist";
  const [sums, totals] = await Promise.all([
    fromLogs
      ? sumBillableSecondsForReport(db, windows, now, { technologist, byTechnologist: groupBy === "technologist" })
      : sumKeptSecondsForReport(db, windows, now, { days: groupBy === "day" }),
    fromLogs ? countBillableInWindows(db, periods, now, technologist) : countKeptInPeriods(db, periods, now),
  ]);

  const toRow = (key: string, label: string, found: (typeof sums)[number] | undefined): BillableHoursRow => ({
    key,
    label,
    hours: hoursFromSeconds(found?.seconds ?? 0),
    caseCount: found?.caseCount ?? 0,
    logCount: found?.logCount ?? 0,
  });
  const byKey = new Map(sums.map((sum) => [sum.key, sum]));
  let rows: BillableHoursRow[];
  if (isCalendarGrouping(groupBy)) {
    // Keys and labels depend only on the calendar days, never on the zone: UTC names them for everyone.
    rows = bucketsOf[groupBy](from, to, "UTC").map((bucket) => toRow(bucket.key, bucket.label, byKey.get(bucket.key)));
  } else if (groupBy === "client") {
    const names = new Map(clients.map((client) => [client.id, client.name]));
    rows = sums.map((sum) => toRow(sum.key, names.get(sum.key) ?? sum.key, sum));
  } else {
    rows = sums.map((sum) => toRow(sum.key, sum.label ?? sum.key, sum));
  }
  rows.sort((left, right) => (left.key < right.key ? -1 : left.key > right.key ? 1 : 0));

  return {
    from,
    to,
    groupBy,
    clientId: query.clientId ?? null,
    technologist: technologist ?? null,
    rows,
    totals: { hours: sumDecimals(rows.map((row) => row.hours)), ...totals },
    generatedAt: now.toISOString(),
  };
}
