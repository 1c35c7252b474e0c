import { z } from "zod";
import { pageOf, pageQuerySchema } from "../envelope.js";
import {
  authorSchema,
  calendarDateSchema,
  derivedDateTimeSchema,
  derivedMonthSchema,
  idSchema,
  isoDateTimeSchema,
  monthSchema,
  orderedRange,
} from "./common.js";

/**
 * Billing and reporting (PRODUCT.md §5, DOMAIN.md §2). Money and hours travel as decimal strings and are computed
 * with decimal arithmetic, never binary floats: a rate is at most 2 decimals, an amount is hours × rate rounded
 * half-up to cents, and every total is the sum of the rounded lines above it (statements say so).
 */

/** What a user types as an hourly rate: up to 9 whole digits and 2 decimals, no sign, no thousands separators. */
export const rateInputSchema = z
  .string()
  .trim()
  .regex(/^\d{1,9}(\.\d{1,2})?$/, "must be an amount such as 125 or 125.50 (at most 2 decimals)")
  .refine((value) => Number(value) > 0, "must be more than zero");

/** Money as the server sends it: always 2 decimals ("1250.00"). */
export const moneySchema = z.string().regex(/^-?\d+\.\d{2}$/);
/** Hours as the server sends them: always 2 decimals ("12.25"), rounded half-up from the exact seconds. */
export const hoursSchema = z.string().regex(/^\d+\.\d{2}$/);
/** A difference of hours (later figures minus issued ones): may be negative ("-1.50"). */
export const hoursDifferenceSchema = z.string().regex(/^-?\d+\.\d{2}$/);

/**
 * The ISO 4217 code amounts are in (the server's `CURRENCY`; an issued statement keeps the one it was issued in).
 * Amounts are computed to the cent, so only currencies with 2 minor digits are accepted by the server.
 */
export const currencyCodeSchema = z.string().regex(/^[A-Z]{3}$/);

/** Which rate applies to a month: its own, inherited from the latest earlier month that has one, or none. */
export const appliedRateSchema = z.object({
  hourlyRate: moneySchema,
  /** The month whose own rate this is (equal to the month when not inherited). */
  fromMonth: monthSchema,
  inherited: z.boolean(),
});
export type AppliedRate = z.infer<typeof appliedRateSchema>;

/** A month's own rate as stored, with its version (a new rate names the version it replaces). */
export const clientMonthRateSchema = z.object({
  clientId: idSchema,
  month: monthSchema,
  hourlyRate: moneySchema,
  version: z.number().int().min(1),
  setAt: isoDateTimeSchema,
  setBy: authorSchema,
  reason: z.string().nullable(),
});
export type ClientMonthRate = z.infer<typeof clientMonthRateSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Clients × months
// ---------------------------------------------------------------------------------------------------------------

export const billingOverviewQuerySchema = orderedRange(
  pageQuerySchema.extend({
    /** First month shown (inclusive); default: 11 months before `to`. */
    from: monthSchema.optional(),
    /** Last month shown (inclusive); default: the current month in UTC. */
    to: monthSchema.optional(),
    clientId: idSchema.optional(),
    /** Only rows that need attention: months with hours but no rate at all. */
    missingRate: z
      .enum(["true", "false"])
      .transform((value) => value === "true")
      .optional(),
  }),
  { from: "from", to: "to" },
);
export type BillingOverviewQuery = z.input<typeof billingOverviewQuerySchema>;

export const billingMonthRowSchema = z.object({
  clientId: idSchema,
  clientName: z.string(),
  clientTimezone: z.string(),
  month: monthSchema,
  hours: hoursSchema,
  caseCount: z.number().int().min(0),
  /** null when no month up to this one has a rate: the month is flagged, never billed at zero. */
  rate: appliedRateSchema.nullable(),
  /** This month's own rate (what the set-rate dialog edits), null when it has none. */
  ownRate: clientMonthRateSchema.nullable(),
  /** Sum of the statement's rounded case amounts; null without a rate. */
  amount: moneySchema.nullable(),
  rateMissing: z.boolean(),
  /** A statement has been issued for this client month: changing the rate it was billed at needs a reason. */
  invoiced: z.boolean(),
  /** The number of the statement issued for this month (per client), null when none has been. */
  statementNumber: z.number().int().min(1).nullable(),
  /** A time log touching this month is still running; the month's hours still grow. */
  provisional: z.boolean(),
});
export type BillingMonthRow = z.infer<typeof billingMonthRowSchema>;

/**
 * A client's receivables today (UTC) by the ledger's one status rule: the aging report's balance and oldest overdue
 * invoice, for each client on the overview's page.
 */
export const clientReceivableSummarySchema = z.object({
  clientId: idSchema,
  /** What the client owes (negative: a credit). */
  balance: moneySchema,
  oldestOverdue: z
    .object({ invoiceId: idSchema, number: z.string(), dueDate: calendarDateSchema, daysPastDue: z.number().int() })
    .nullable(),
});
export type ClientReceivableSummary = z.infer<typeof clientReceivableSummarySchema>;

export const billingOverviewSchema = pageOf(billingMonthRowSchema).extend({
  /** The currency of every amount and rate (ISO 4217). */
  currency: currencyCodeSchema,
  from: monthSchema,
  to: monthSchema,
  /** Over every row the filters match, not just this page: sums of the rows' (already rounded) figures. */
  totals: z.object({ hours: hoursSchema, amount: moneySchema, monthsWithoutRate: z.number().int().min(0) }),
  /** One per client on this page, in no particular order. */
  receivables: z.array(clientReceivableSummarySchema),
});
export type BillingOverview = z.infer<typeof billingOverviewSchema>;

export const billingClientMonthParamsSchema = z.object({ client: idSchema, month: monthSchema });

// ---------------------------------------------------------------------------------------------------------------
// CPT suggestions (DOMAIN.md §2)
// ---------------------------------------------------------------------------------------------------------------

export const cptComponents = ["technical", "professional"] as const;

/** Warnings a billing note must acknowledge (by id) before a reviewed case may close. */
export const cptWarningIds = [
  "under-2-hours",
  "review-check-gap",
  "technologist-cap-exceeded",
  "fewer-than-8-channels",
  "channels-not-recorded",
] as const;
export const cptWarningIdSchema = z.enum(cptWarningIds);
export type CptWarningId = z.infer<typeof cptWarningIdSchema>;

export const cptWarningLabels: Record<CptWarningId, string> = {
  "under-2-hours": "Recording under 2 hours: long-term EEG codes do not apply",
  "review-check-gap": "Intermittent monitoring with more than 2 hours between review checks",
  "technologist-cap-exceeded": "A technologist had more concurrent patients than the cap allows",
  "fewer-than-8-channels": "Fewer than 8 channels recorded: setup is 95999, not 95700",
  "channels-not-recorded": "No channel count on the time logs: 95700 needs at least 8 channels",
};

export const cptSuggestionLineSchema = z.object({
  code: z.string().regex(/^\d{5}$/),
  units: z.number().int().min(1),
  component: z.enum(cptComponents),
  description: z.string(),
  /** Why this code: duration, mode and video share that it is based on. */
  basis: z.string(),
});
export type CptSuggestionLine = z.infer<typeof cptSuggestionLineSchema>;

export const cptWarningSchema = z.object({ id: cptWarningIdSchema, message: z.string() });
export type CptWarning = z.infer<typeof cptWarningSchema>;

export const cptSuggestionSchema = z.object({
  /** Recording time: the union of the case's billable monitoring logs, as hours. */
  recordingHours: hoursSchema,
  /** Share of recording time with video, in whole percent (video codes need ≥ 80). */
  videoPercent: z.number().int().min(0).max(100),
  lines: z.array(cptSuggestionLineSchema),
  warnings: z.array(cptWarningSchema),
});
export type CptSuggestion = z.infer<typeof cptSuggestionSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The monthly statement
// ---------------------------------------------------------------------------------------------------------------

export const statementCaseSchema = z.object({
  caseId: idSchema,
  caseNumber: z.string(),
  patientName: z.string(),
  stage: z.string(),
  hours: hoursSchema,
  /** hours × rate, rounded half-up to cents; null without a rate. */
  amount: moneySchema.nullable(),
  logCount: z.number().int().min(0),
  /** A billable log of this case is still running: its hours count up to now. */
  running: z.boolean(),
  cpt: cptSuggestionSchema,
});
export type StatementCase = z.infer<typeof statementCaseSchema>;

/** A case line as issued: frozen with the statement, never recomputed. */
export const issuedStatementLineSchema = z.object({
  caseId: idSchema,
  caseNumber: z.string(),
  patientName: z.string(),
  /** The case's stage when the statement was issued. */
  stage: z.string(),
  hours: hoursSchema,
  amount: moneySchema,
  logCount: z.number().int().min(0),
  cpt: cptSuggestionSchema,
});
export type IssuedStatementLine = z.infer<typeof issuedStatementLineSchema>;

/**
 * A statement as it was sent to the hospital: numbered per client (1, 2, 3… without gaps, in the order issued),
 * with its lines, rate, currency and totals stored when it was issued. Nothing later changes it; later changes of
 * the month are differences to carry to the next statement.
 */
export const issuedStatementSchema = z.object({
  id: idSchema,
  number: z.number().int().min(1),
  client: z.object({ id: idSchema, name: z.string(), timezone: z.string() }),
  month: monthSchema,
  periodStart: derivedDateTimeSchema,
  periodEnd: derivedDateTimeSchema,
  currency: currencyCodeSchema,
  rate: appliedRateSchema,
  lines: z.array(issuedStatementLineSchema),
  totals: z.object({ hours: hoursSchema, amount: moneySchema, caseCount: z.number().int().min(0) }),
  roundingNote: z.string(),
  issuedAt: isoDateTimeSchema,
  issuedBy: authorSchema,
  /** The invoice issued with the statement (null for statements issued before invoices were). */
  invoice: z.object({ id: idSchema, number: z.string() }).nullable(),
});
export type IssuedStatement = z.infer<typeof issuedStatementSchema>;

export const statementChangeKinds = ["added", "removed", "changed"] as const;

/** One case whose figures differ from the issued statement (current minus issued). */
export const statementDifferenceLineSchema = z.object({
  caseId: idSchema,
  caseNumber: z.string(),
  patientName: z.string(),
  change: z.enum(statementChangeKinds),
  issuedHours: hoursSchema.nullable(),
  currentHours: hoursSchema.nullable(),
  issuedAmount: moneySchema.nullable(),
  /** null when the month has no rate now. */
  currentAmount: moneySchema.nullable(),
  hours: hoursDifferenceSchema,
  /** Positive: to bill on the next statement; negative: to credit. null without a current rate. */
  amount: moneySchema.nullable(),
});
export type StatementDifferenceLine = z.infer<typeof statementDifferenceLineSchema>;

/** What changed in the month since its statement was issued: the lines and the sums to bill or credit next time. */
export const statementDifferencesSchema = z.object({
  /** The rate now, when it is not the one the statement was issued at. */
  rateChangedTo: appliedRateSchema.nullable(),
  lines: z.array(statementDifferenceLineSchema),
  hours: hoursDifferenceSchema,
  /** Current total minus issued total: positive to bill, negative to credit; null without a current rate. */
  amount: moneySchema.nullable(),
});
export type StatementDifferences = z.infer<typeof statementDifferencesSchema>;

/** A supplementary invoice or credit note that corrected a month's invoice (the invoices' own shape in full). */
export const statementAdjustmentSchema = z.object({
  id: idSchema,
  kind: z.enum(["supplementary", "credit-note"]),
  number: z.string(),
  /** What the document bills (supplementary) or credits (credit note), tax included; never negative. */
  total: moneySchema,
  reason: z.string(),
  issuedAt: isoDateTimeSchema,
});
export type StatementAdjustment = z.infer<typeof statementAdjustmentSchema>;

/** Carries a month's differences onto a numbered document: the reason is printed on it. */
export const issueAdjustmentRequestSchema = z.object({
  reason: z.string().trim().min(1, "a reason is required: it is printed on the document").max(1000),
});
export type IssueAdjustmentRequest = z.input<typeof issueAdjustmentRequestSchema>;

export const billingStatementSchema = z.object({
  client: z.object({ id: idSchema, name: z.string(), timezone: z.string() }),
  month: monthSchema,
  /** The month's bounds as instants: local midnight of the 1st to local midnight of the next 1st. */
  periodStart: derivedDateTimeSchema,
  periodEnd: derivedDateTimeSchema,
  /** The currency of the live figures below (the server's current one). */
  currency: currencyCodeSchema,
  rate: appliedRateSchema.nullable(),
  ownRate: clientMonthRateSchema.nullable(),
  rateMissing: z.boolean(),
  /** A statement has been issued for this month (`issued`). */
  invoiced: z.boolean(),
  provisional: z.boolean(),
  /** The live figures: computed now from the time logs and the rate. */
  cases: z.array(statementCaseSchema),
  totals: z.object({ hours: hoursSchema, amount: moneySchema.nullable(), caseCount: z.number().int().min(0) }),
  /** How the totals were made, printed under them. */
  roundingNote: z.string(),
  generatedAt: isoDateTimeSchema,
  /**
   * A digest of the live figures (rate, currency and every line), also sent as the ETag: issuing names it in
   * `If-Match`, so what is issued is exactly what the user looked at.
   */
  fingerprint: z.string(),
  /** The statement issued for this month, as it was sent; null until one is issued. */
  issued: issuedStatementSchema.nullable(),
  /**
   * The live figures minus what has been billed for the month: the issued statement and every supplementary
   * invoice and credit note since (`adjustments`); null until a statement is issued.
   */
  changesSinceIssue: statementDifferencesSchema.nullable(),
  /** The supplementary invoices and credit notes that carried earlier differences, oldest first. */
  adjustments: z.array(statementAdjustmentSchema),
  /** Why the month cannot be issued now (already issued, no rate, a running log, no hours); null when it can. */
  issueRefusal: z.string().nullable(),
});
export type BillingStatement = z.infer<typeof billingStatementSchema>;

export const setRateRequestSchema = z.object({
  hourlyRate: rateInputSchema,
  /** The version of the month's own rate the user saw; null when it had none. A stale one is refused (409). */
  baseVersion: z.number().int().min(1).nullable(),
  /** Required when the change reaches a month whose statement has been issued (its own or one inheriting it). */
  reason: z.string().trim().max(1000).nullable().default(null),
});
export type SetRateRequest = z.input<typeof setRateRequestSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The billing check of reviewed → closed
// ---------------------------------------------------------------------------------------------------------------

/** `report-signed`: a signed report is stored for the case (a closed case is billed for a report that exists). */
export const billingCheckItemIds = [
  "no-running-time-log",
  "rate-known",
  "cpt-warnings-acknowledged",
  "report-signed",
] as const;

export const billingCheckSchema = z.object({
  caseId: idSchema,
  passed: z.boolean(),
  checks: z.array(
    z.object({
      id: z.enum(billingCheckItemIds),
      label: z.string(),
      passed: z.boolean(),
      message: z.string().nullable(),
    }),
  ),
  /** The client months the case's billable time touches, with the rate each would be billed at. */
  months: z.array(z.object({ month: derivedMonthSchema, hours: hoursSchema, rate: appliedRateSchema.nullable() })),
  cpt: cptSuggestionSchema,
  /** Warnings acknowledged in the case's current billing notes. */
  acknowledgedWarnings: z.array(cptWarningIdSchema),
});
export type BillingCheck = z.infer<typeof billingCheckSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Billable-hours reporting
// ---------------------------------------------------------------------------------------------------------------

export const reportGroupings = ["day", "week", "month", "client", "technologist"] as const;
export const reportGroupingSchema = z.enum(reportGroupings);
export type ReportGrouping = z.infer<typeof reportGroupingSchema>;

/** Longest period a report covers (grouping by day over more would be a wall of rows). */
export const reportMaxDays = { day: 92, week: 371, month: 1096, client: 1096, technologist: 1096 } as const;

export const billableHoursQuerySchema = orderedRange(
  z.object({
    /** First day (inclusive), in each client's time zone. */
    from: calendarDateSchema,
    /** Last day (inclusive). */
    to: calendarDateSchema,
    clientId: idSchema.optional(),
    /** A technologist's username. */
    technologist: z.string().trim().min(1).max(128).optional(),
    groupBy: reportGroupingSchema.default("month"),
  }),
  { from: "from", to: "to" },
).refine((value) => daysBetween(value.from, value.to) < reportMaxDays[value.groupBy], {
  message: "the period is too long for this grouping (by day at most 92 days, by week 371, otherwise 3 years)",
  path: ["to"],
});
export type BillableHoursQuery = z.input<typeof billableHoursQuerySchema>;

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export const billableHoursRowSchema = z.object({
  /** Sort key: YYYY-MM-DD, YYYY-Www (ISO week), YYYY-MM, a client id or a username. */
  key: z.string(),
  label: z.string(),
  hours: hoursSchema,
  caseCount: z.number().int().min(0),
  logCount: z.number().int().min(0),
});
export type BillableHoursRow = z.infer<typeof billableHoursRowSchema>;

export const billableHoursReportSchema = z.object({
  from: calendarDateSchema,
  to: calendarDateSchema,
  groupBy: reportGroupingSchema,
  clientId: idSchema.nullable(),
  technologist: z.string().nullable(),
  /** In key order; buckets without hours are included for day, week and month so a chart shows the gaps. */
  rows: z.array(billableHoursRowSchema),
  /** `hours` is the sum of the rows' rounded hours; `caseCount` counts distinct cases over the whole period. */
  totals: z.object({ hours: hoursSchema, caseCount: z.number().int().min(0), logCount: z.number().int().min(0) }),
  generatedAt: isoDateTimeSchema,
});
export type BillableHoursReport = z.infer<typeof billableHoursReportSchema>;
