import { createHash } from "node:crypto";
import type {
  AppliedRate,
  BillingStatement,
  CptSuggestion,
  Invoice,
  IssuedStatement,
  StatementAdjustment,
  StatementCase,
  StatementDifferenceLine,
  StatementDifferences,
} from "@vigil/contract";
import { auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { AppError } from "../../errors/app-error.js";
import { monthWindow } from "./billing-calendar.js";
import { suggestCptForCases } from "./billing-cpt-service.js";
import { sumKeptMonthSecondsByCase } from "./billing-figures-repository.js";
import { differenceOf, plusOf, rateForMonth, roundingNote, sumDecimals } from "./billing-money.js";
import { findBillingCases, findRatesOfClients } from "./billing-repository.js";
import {
  type BillingActor,
  type BillingSettings,
  monthFigures,
  patientNameOf,
  requireBillingClient,
  toClientMonthRate,
} from "./billing-service.js";
import {
  findLastStatementNumber,
  findStatementOfMonth,
  insertStatement,
  type StatementWithLines,
} from "./billing-statements-repository.js";
import { findAdjustmentsOfStatement, findInvoice, findInvoiceOfStatement } from "./invoices-repository.js";
import { getInvoice, issueAdjustmentForStatement, issueInvoiceForStatement } from "./invoices-service.js";

/**
 * Monthly statements. The live statement is computed from the time logs and the rate whenever it is read; issuing
 * freezes it: a statement numbered per client, with its lines, rate, currency and totals stored as they were shown
 * (what a hospital was sent never changes). "Invoiced" means exactly that: a statement has been issued for the
 * client month. What changes in the month afterwards (a re-opened case's new time, a rate changed with a reason)
 * is shown beside the issued statement as differences to bill or credit on the next one.
 */

/**
 * A digest of everything a statement shows, so issuing can name the figures the user looked at. Stored statements
 * keep theirs, so the digest is of one fixed text: the JSON of `[currency, month, rate, [line, …]]`. It is fed to
 * the hash a line at a time — the same bytes, so the same digest — because the whole text of a large client's month
 * is a string of hundreds of kilobytes, made and dropped on every read.
 */
export function fingerprintOf(figures: {
  currency: string;
  month: string;
  rate: AppliedRate | null;
  cases: readonly StatementCase[];
}): string {
  const hash = createHash("sha256");
  hash.update(
    `[${JSON.stringify(figures.currency)},${JSON.stringify(figures.month)},${JSON.stringify(figures.rate)},[`,
  );
  figures.cases.forEach((line, index) => {
    const fields = [line.caseId, line.caseNumber, line.patientName, line.hours, line.amount, line.logCount, line.cpt];
    hash.update(index === 0 ? JSON.stringify(fields) : `,${JSON.stringify(fields)}`);
  });
  return hash.update("]]").digest("base64url").slice(0, 32);
}

type LiveStatement = Omit<
  BillingStatement,
  "issued" | "changesSinceIssue" | "issueRefusal" | "invoiced" | "adjustments"
>;

/** The month's figures as the time logs and rates make them now. */
async function computeLiveStatement(
  db: Db,
  clientId: string,
  month: string,
  settings: BillingSettings,
  now: Date,
): Promise<LiveStatement> {
  const client = await requireBillingClient(db, clientId);
  const period = monthWindow(month, client.timezone);
  const lines = await sumKeptMonthSecondsByCase(db, [{ clientId, key: month, ...period }], now);
  const caseIds = lines.map((line) => line.caseId);
  const [rates, caseRows, suggestions] = await Promise.all([
    findRatesOfClients(db, [clientId]),
    findBillingCases(db, caseIds),
    suggestCptForCases(db, caseIds, settings, now, client.timezone),
  ]);
  const rate = rateForMonth(month, rates);
  const ownRate = rates.find((candidate) => candidate.month === month);
  const figures = monthFigures(lines, rate);
  const lineOf = new Map(lines.map((line) => [line.caseId, line]));
  const cases = caseRows.flatMap((row): StatementCase[] => {
    const line = lineOf.get(row.id);
    if (!line) return [];
    return [
      {
        caseId: row.id,
        caseNumber: row.caseNumber,
        patientName: patientNameOf(row),
        stage: row.stage,
        hours: figures.caseHours.get(row.id) ?? "0.00",
        amount: figures.caseAmounts.get(row.id) ?? null,
        logCount: line.logCount,
        running: line.running,
        cpt: suggestions.get(row.id) as CptSuggestion,
      },
    ];
  });
  return {
    client: { id: client.id, name: client.name, timezone: client.timezone },
    month,
    periodStart: period.start.toISOString(),
    periodEnd: period.end.toISOString(),
    currency: settings.currency,
    rate,
    ownRate: ownRate ? toClientMonthRate(ownRate) : null,
    rateMissing: figures.rateMissing,
    provisional: figures.provisional,
    cases,
    totals: { hours: figures.hours, amount: figures.amount, caseCount: figures.caseCount },
    roundingNote,
    generatedAt: now.toISOString(),
    fingerprint: fingerprintOf({ currency: settings.currency, month, rate, cases }),
  };
}

function toIssuedStatement(
  { statement, lines }: StatementWithLines,
  invoice: IssuedStatement["invoice"],
): IssuedStatement {
  return {
    id: statement.id,
    number: statement.number,
    client: { id: statement.clientId, name: statement.clientName, timezone: statement.clientTimezone },
    month: statement.month,
    periodStart: statement.periodStart.toISOString(),
    periodEnd: statement.periodEnd.toISOString(),
    currency: statement.currency,
    rate: {
      hourlyRate: statement.hourlyRate,
      fromMonth: statement.rateFromMonth,
      inherited: statement.rateFromMonth !== statement.month,
    },
    lines: lines.map((line) => ({
      caseId: line.caseId,
      caseNumber: line.caseNumber,
      patientName: line.patientName,
      stage: line.stage,
      hours: line.hours,
      amount: line.amount,
      logCount: line.logCount,
      cpt: line.cpt,
    })),
    totals: { hours: statement.totalHours, amount: statement.totalAmount, caseCount: statement.caseCount },
    roundingNote: statement.roundingNote,
    issuedAt: statement.issuedAt.toISOString(),
    issuedBy: { sub: statement.issuedBySub, username: statement.issuedByUsername, name: statement.issuedByName },
    invoice,
  };
}

/** The live figures minus the issued ones, line by line (by case) and in total. */
export function differencesSince(issued: IssuedStatement, live: LiveStatement): StatementDifferences {
  const issuedOf = new Map(issued.lines.map((line) => [line.caseId, line]));
  const liveOf = new Map(live.cases.map((line) => [line.caseId, line]));
  const lines: StatementDifferenceLine[] = [];
  for (const line of live.cases) {
    const before = issuedOf.get(line.caseId);
    if (before && before.hours === line.hours && before.amount === line.amount) continue;
    lines.push({
      caseId: line.caseId,
      caseNumber: line.caseNumber,
      patientName: line.patientName,
      change: before ? "changed" : "added",
      issuedHours: before?.hours ?? null,
      currentHours: line.hours,
      issuedAmount: before?.amount ?? null,
      currentAmount: line.amount,
      hours: differenceOf(line.hours, before?.hours ?? "0.00"),
      amount: line.amount === null ? null : differenceOf(line.amount, before?.amount ?? "0.00"),
    });
  }
  for (const before of issued.lines) {
    if (liveOf.has(before.caseId)) continue;
    lines.push({
      caseId: before.caseId,
      caseNumber: before.caseNumber,
      patientName: before.patientName,
      change: "removed",
      issuedHours: before.hours,
      currentHours: null,
      issuedAmount: before.amount,
      currentAmount: null,
      hours: differenceOf("0.00", before.hours),
      amount: differenceOf("0.00", before.amount),
    });
  }
  lines.sort((left, right) => left.caseNumber.localeCompare(right.caseNumber));
  const rateChanged = live.rate?.hourlyRate !== issued.rate.hourlyRate;
  return {
    rateChangedTo: rateChanged ? live.rate : null,
    lines,
    hours: sumDecimals(lines.map((line) => line.hours)),
    amount: lines.some((line) => line.amount === null) ? null : sumDecimals(lines.map((line) => line.amount ?? "0")),
  };
}

type Adjustments = Awaited<ReturnType<typeof findAdjustmentsOfStatement>>;

/**
 * What has been billed for the month: the issued statement's lines with every supplementary invoice added and
 * every credit note taken off, case by case (a case credited to nothing drops out), at the rate of the latest
 * correction. Differences are counted against this, so a carried difference is not offered again.
 */
export function billedSoFar(issued: IssuedStatement, adjustments: Adjustments): IssuedStatement {
  if (adjustments.length === 0) return issued;
  const lines = new Map(issued.lines.map((line) => [line.caseId, { ...line }]));
  let rate = issued.rate;
  for (const { invoice, lines: adjusted } of adjustments) {
    const add = invoice.kind === "credit-note" ? differenceOf : plusOf;
    rate = { hourlyRate: invoice.hourlyRate, fromMonth: rate.fromMonth, inherited: rate.inherited };
    for (const line of adjusted) {
      const before = lines.get(line.caseId) ?? {
        caseId: line.caseId,
        caseNumber: line.caseNumber,
        patientName: line.patientName ?? "",
        stage: "",
        hours: "0.00",
        amount: "0.00",
        logCount: 0,
        cpt: { recordingHours: "0.00", videoPercent: 0, lines: [], warnings: [] },
      };
      // biome-ignore lint/plugin/leading-spread-then-keys: the line's own hours and amount, adjusted
      lines.set(line.caseId, {
        ...before,
        hours: add(before.hours, line.hours),
        amount: add(before.amount, line.amount),
      });
    }
  }
  // biome-ignore lint/plugin/leading-spread-then-keys: the statement's own rate and lines, as billed so far
  return {
    ...issued,
    rate,
    lines: [...lines.values()].filter((line) => line.hours !== "0.00" || line.amount !== "0.00"),
  };
}

function toAdjustments(adjustments: Adjustments): StatementAdjustment[] {
  return adjustments.map(({ invoice }) => ({
    id: invoice.id,
    kind: invoice.kind as StatementAdjustment["kind"],
    number: invoice.number,
    total: invoice.total,
    reason: invoice.reason ?? "",
    issuedAt: invoice.issuedAt.toISOString(),
  }));
}

/** Why the month cannot be issued now, in words; null when it can. */
function issueRefusalOf(live: LiveStatement, issued: IssuedStatement | undefined): string | null {
  if (issued) {
    return `Statement No. ${issued.number} has been issued for this month; later changes are differences to carry to the next statement.`;
  }
  if (live.cases.length === 0) return "There is no billable time in this month to bill.";
  if (live.rate === null) return "No hourly rate applies to this month: set one before issuing the statement.";
  if (live.provisional) {
    return "A time log in this month is still running: stop it first, so the statement does not bill hours that are still growing.";
  }
  return null;
}

/**
 * `GET /billing/continuous-monitoring/{client}/{month}`: the live statement (every case with billable time in the
 * month, its hours, amount and CPT suggestion over the whole study), the issued statement when there is one, and
 * the differences between them.
 */
export async function getBillingStatement(
  db: Db,
  clientId: string,
  month: string,
  settings: BillingSettings,
  now = new Date(),
): Promise<BillingStatement> {
  const live = await computeLiveStatement(db, clientId, month, settings, now);
  const stored = await findStatementOfMonth(db, clientId, month);
  const issued = stored ? toIssuedStatement(stored, await findInvoiceOfStatement(db, stored.statement.id)) : undefined;
  const adjustments = stored ? await findAdjustmentsOfStatement(db, stored.statement.id) : [];
  return {
    invoiced: issued !== undefined,
    issued: issued ?? null,
    changesSinceIssue: issued ? differencesSince(billedSoFar(issued, adjustments), live) : null,
    adjustments: toAdjustments(adjustments),
    issueRefusal: issueRefusalOf(live, issued),
    ...live,
  };
}

/** The fingerprints an `If-Match` header names (`"abc"`, `W/"abc"` or a list); 428 without one. */
export function readStatementIfMatch(header: string | undefined): string[] {
  const value = header?.trim();
  if (!value || value === "*") {
    throw new AppError(
      "precondition_required",
      "Issuing a statement needs an If-Match header with the statement's ETag (the figures you looked at).",
    );
  }
  const tags = value.split(",").map((tag) =>
    tag
      .trim()
      .replace(/^W\//, "")
      .replace(/^"(.*)"$/, "$1"),
  );
  if (tags.some((tag) => !/^[A-Za-z0-9_-]{1,64}$/.test(tag))) {
    const issue = { path: "headers.if-match", message: "must be the statement's ETag, as the GET sent it" };
    throw new AppError("bad_request", `Invalid request: ${issue.path} ${issue.message}`, { issues: [issue] });
  }
  return tags;
}

/**
 * `POST …/{client}/{month}/statement`: issues the month's statement, in one transaction under the client row's
 * lock (so issues and rate changes of one client run one after the other and numbers are taken in turn). The
 * request names, in `If-Match`, the fingerprint of the live statement the user looked at: a statement is issued
 * only with exactly those figures (412 otherwise, with the current ETag). When the month is already issued with
 * those figures (a double click, a retried request) the same statement is answered and nothing is written; with
 * other figures it is a 409 naming the statement. Numbers are the client's highest + 1, so they have no gaps.
 */
export async function issueBillingStatement(
  db: Db,
  clientId: string,
  month: string,
  ifMatch: string | undefined,
  actor: BillingActor,
  settings: BillingSettings,
  now = new Date(),
): Promise<IssuedStatement> {
  const expected = readStatementIfMatch(ifMatch);
  try {
    return await db.transaction(async (tx) => {
      const client = await requireBillingClient(tx, clientId, "no key update");
      const existing = await findStatementOfMonth(tx, clientId, month);
      if (existing) {
        const issued = toIssuedStatement(existing, await findInvoiceOfStatement(tx, existing.statement.id));
        if (expected.includes(existing.statement.fingerprint)) return issued;
        throw new AppError(
          "conflict",
          `Statement No. ${issued.number} was already issued for ${month} (${client.name}) on ${issued.issuedAt} by ${issued.issuedBy.name ?? issued.issuedBy.username}. Later changes are shown as differences to carry to the next statement.`,
          { current: issued },
        );
      }
      const live = await computeLiveStatement(tx, clientId, month, settings, now);
      if (!expected.includes(live.fingerprint)) {
        throw new AppError(
          "precondition_failed",
          `The statement for ${month} changed since you looked at it (hours, amounts, the rate or the cases). Review it and issue it again.`,
          { current: { totals: live.totals, rate: live.rate, caseCount: live.cases.length } },
          { etag: `"${live.fingerprint}"` },
        );
      }
      const refusal = issueRefusalOf(live, undefined);
      if (refusal) throw new AppError("conflict", refusal);
      const rate = live.rate as AppliedRate;
      const number = (await findLastStatementNumber(tx, clientId)) + 1;
      const saved = await insertStatement(
        tx,
        {
          clientId,
          month,
          number,
          currency: live.currency,
          clientName: client.name,
          clientTimezone: client.timezone,
          periodStart: new Date(live.periodStart),
          periodEnd: new Date(live.periodEnd),
          hourlyRate: rate.hourlyRate,
          rateFromMonth: rate.fromMonth,
          totalHours: live.totals.hours,
          totalAmount: live.totals.amount as string,
          caseCount: live.totals.caseCount,
          roundingNote: live.roundingNote,
          fingerprint: live.fingerprint,
          issuedAt: now,
          issuedBySub: actor.sub,
          issuedByUsername: actor.username,
          issuedByName: actor.name,
        },
        live.cases.map((line) => ({
          caseId: line.caseId,
          caseNumber: line.caseNumber,
          patientName: line.patientName,
          stage: line.stage,
          hours: line.hours,
          amount: line.amount as string,
          logCount: line.logCount,
          cpt: line.cpt,
        })),
      );
      // The audit row names the statement and its sums, not its patients (the lines stay in the statement).
      await recordAudit(
        tx,
        auditedWrite(
          actor,
          "billing.statement.issued",
          { type: "client", id: clientId },
          {
            month,
            statementId: saved.statement.id,
            number,
            currency: live.currency,
            hourlyRate: rate.hourlyRate,
            hours: live.totals.hours,
            amount: live.totals.amount,
            caseCount: live.totals.caseCount,
          },
        ),
      );
      // The invoice the hospital receives is issued with the statement, or neither is.
      const statement = toIssuedStatement(saved, null);
      const invoice = await issueInvoiceForStatement(tx, statement, actor, settings, now);
      // biome-ignore lint/plugin/leading-spread-then-keys: the statement's own invoice, issued with it
      return { ...statement, invoice };
    });
  } catch (error) {
    // Only reachable if the client lock was bypassed: say what happened instead of a 500.
    if (
      isUniqueViolation(error, "billing_statements_client_month_idx") ||
      isUniqueViolation(error, "billing_statements_client_number_idx")
    ) {
      throw new AppError("conflict", `A statement for ${month} was issued at the same moment. Reload the statement.`);
    }
    throw error;
  }
}

/**
 * `POST …/{client}/{month}/adjustment`: carries the month's differences (current figures minus what its invoice and
 * earlier corrections billed) onto a numbered supplementary invoice when they add up to more, or a credit note when
 * to less, correcting the month's invoice and printing the reason. Under the client row's lock, like issuing; the
 * request names in `If-Match` the statement's ETag the user looked at (412 when the figures moved since). Refused
 * (409) before the month's invoice is issued, when nothing is left to carry, when the differences come to zero,
 * without a rate now, or with a time log still running.
 */
export async function issueStatementAdjustment(
  db: Db,
  clientId: string,
  month: string,
  ifMatch: string | undefined,
  reason: string,
  actor: BillingActor,
  settings: BillingSettings,
  now = new Date(),
): Promise<Invoice> {
  const expected = readStatementIfMatch(ifMatch);
  const created = await db.transaction(async (tx) => {
    const client = await requireBillingClient(tx, clientId, "no key update");
    const stored = await findStatementOfMonth(tx, clientId, month);
    const invoiceRef = stored ? await findInvoiceOfStatement(tx, stored.statement.id) : null;
    if (!stored || !invoiceRef) {
      throw new AppError(
        "conflict",
        `No invoice has been issued for ${month} (${client.name}): issue the month's statement first.`,
      );
    }
    const live = await computeLiveStatement(tx, clientId, month, settings, now);
    if (!expected.includes(live.fingerprint)) {
      throw new AppError(
        "precondition_failed",
        `The figures of ${month} changed since you looked at them. Review the differences and issue again.`,
        { current: { totals: live.totals, rate: live.rate, caseCount: live.cases.length } },
        { etag: `"${live.fingerprint}"` },
      );
    }
    if (live.provisional) {
      throw new AppError(
        "conflict",
        "A time log in this month is still running: stop it first, so the correction does not bill hours that are still growing.",
      );
    }
    if (live.rate === null) throw new AppError("conflict", "No hourly rate applies to this month now: set one first.");
    const adjustments = await findAdjustmentsOfStatement(tx, stored.statement.id);
    const issued = toIssuedStatement(stored, invoiceRef);
    const billed = billedSoFar(issued, adjustments);
    const differences = differencesSince(billed, live);
    if (differences.lines.length === 0 || differences.amount === null) {
      throw new AppError(
        "conflict",
        `Nothing has changed in ${month} since it was last billed: there is nothing to carry.`,
      );
    }
    if (differences.amount === "0.00") {
      throw new AppError(
        "conflict",
        `The differences in ${month} add up to ${live.currency} 0.00: there is nothing to bill or credit.`,
      );
    }
    const original = await findInvoice(tx, invoiceRef.id);
    if (!original) throw new AppError("conflict", `The invoice ${invoiceRef.number} could not be read.`);
    const billedOf = new Map(billed.lines.map((line) => [line.caseId, line.hours]));
    return issueAdjustmentForStatement(tx, {
      original,
      differences: differences.lines.map((line) => ({
        caseId: line.caseId,
        caseNumber: line.caseNumber,
        patientName: line.patientName,
        change: line.change,
        billedHours: billedOf.get(line.caseId) ?? "0.00",
        currentHours: line.currentHours ?? "0.00",
        hours: line.hours,
        amount: line.amount ?? "0.00",
      })),
      net: differences.amount,
      currentRate: live.rate.hourlyRate,
      reason,
      timezone: client.timezone,
      actor,
      settings,
      now,
    });
  });
  return getInvoice(db, created.id, now);
}
