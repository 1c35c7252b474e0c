import {
  type BillingCheck,
  type CptSuggestion,
  type CptWarningId,
  cptWarningIds,
  cptWarningLabels,
} from "@vigil/contract";
import { Temporal } from "temporal-polyfill";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { hasSignedReport } from "../reports/reports-service.js";
import { splitByMonth } from "./billing-calendar.js";
import { suggestCptForCases } from "./billing-cpt-service.js";
import { hoursFromSeconds, rateForMonth } from "./billing-money.js";
import {
  findAcknowledgedWarnings,
  findBillingCases,
  findLiveTimeLogs,
  findRatesOfClients,
} from "./billing-repository.js";
import { type BillingSettings, requireBillingClient } from "./billing-service.js";

/* The billing check of reviewed → closed. */

/** What the check needs of a case (a cases-module row fits). */
export type BillingCaseRef = { id: string; clientId: string; caseNumber: string };

const checkLabels = {
  "no-running-time-log": "No time log of the case is still running",
  "rate-known": "A rate is known for every month the case's billable time falls in",
  "cpt-warnings-acknowledged": "Every CPT warning is acknowledged in a billing note",
  "report-signed": "A signed report is stored for the case",
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
 * acknowledged in a live billing note; (4) a signed report is stored (the same fact the case's Reports list shows:
 * the professional component is billed for a report that exists and can be delivered).
 */
export async function checkCaseBilling(
  db: Db,
  subject: BillingCaseRef,
  now: Date,
  settings: BillingSettings,
): Promise<BillingCheck> {
  const [client, logs, rates, acknowledgedIds, reportSigned] = await Promise.all([
    requireBillingClient(db, subject.clientId),
    findLiveTimeLogs(db, [subject.id]),
    findRatesOfClients(db, [subject.clientId]),
    findAcknowledgedWarnings(db, subject.id),
    hasSignedReport(db, subject.id),
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
  const reportMessage = reportSigned
    ? null
    : `No signed report is stored for ${subject.caseNumber}; sign its interpretation (a report signed before reports were stored is stored when the case's Reports list is opened)`;
  const checks = [
    { id: "no-running-time-log" as const, message: runningMessage },
    { id: "rate-known" as const, message: rateMessage },
    { id: "cpt-warnings-acknowledged" as const, message: cptMessage },
    { id: "report-signed" as const, message: reportMessage },
  ].map((check) => ({ label: checkLabels[check.id], passed: check.message === null, ...check }));
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
