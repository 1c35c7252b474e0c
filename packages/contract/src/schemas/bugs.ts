import { z } from "zod";
import { pageOf, pageQuerySchema } from "../envelope.js";
import { authorSchema, idSchema, isoDateTimeSchema, singleLineTextSchema } from "./common.js";

/**
 * Bugs (PRODUCT.md §6, spec §1, §2 `/bugs`, §7 `/bugs/reports`, `/bugs/unit-tests`): reports any signed-in user
 * files (the web app adds where they were and what they ran), triaged by developers and administrators; the
 * catalogue of the product's own tests with the results of their last run; live self-checks of a deployment.
 */

export const bugSeverities = ["low", "medium", "high", "critical"] as const;
export const bugSeveritySchema = z.enum(bugSeverities);
export type BugSeverity = z.infer<typeof bugSeveritySchema>;
export const bugSeverityLabels: Record<BugSeverity, string> = {
  low: "Low — cosmetic or has an easy workaround",
  medium: "Medium — gets in the way, a workaround exists",
  high: "High — blocks work, no workaround",
  critical: "Critical — patient data wrong, lost or exposed",
};

export const bugStatuses = ["open", "triaged", "in-progress", "fixed", "closed", "wont-fix"] as const;
export const bugStatusSchema = z.enum(bugStatuses);
export type BugStatus = z.infer<typeof bugStatusSchema>;
export const bugStatusLabels: Record<BugStatus, string> = {
  open: "Open",
  triaged: "Triaged",
  "in-progress": "In progress",
  fixed: "Fixed",
  closed: "Closed",
  "wont-fix": "Won't fix",
};

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const requiredText = (max: number) => text(max).min(1, "is required");

/** What the web app fills in by itself: the page, the browser, the screen and the app's version. */
export const bugContextSchema = z.object({
  /** The full address of the page the user was on (hash route included). */
  pageUrl: z.string().trim().min(1).max(2048),
  userAgent: z.string().trim().max(1000),
  screen: z.object({
    width: z.number().int().min(0).max(100_000),
    height: z.number().int().min(0).max(100_000),
    devicePixelRatio: z.number().min(0).max(16).optional(),
  }),
  viewport: z
    .object({ width: z.number().int().min(0).max(100_000), height: z.number().int().min(0).max(100_000) })
    .optional(),
  /** The server release the page last saw (`enoch`) and the web build's id. */
  appVersion: z.object({ enoch: z.string().max(200).nullable(), buildId: z.string().max(200).nullable() }),
});
export type BugContext = z.infer<typeof bugContextSchema>;

export const createBugReportRequestSchema = z.object({
  title: singleLineTextSchema.min(1, "is required").max(200),
  description: requiredText(10_000),
  stepsToReproduce: text(10_000).default(""),
  severity: bugSeveritySchema,
  context: bugContextSchema,
});
export type CreateBugReportRequest = z.input<typeof createBugReportRequestSchema>;

/** One status change (or the filing itself, `from` null), with its comment: the report's history. */
export const bugReportEventSchema = z.object({
  id: idSchema,
  at: isoDateTimeSchema,
  by: authorSchema,
  fromStatus: bugStatusSchema.nullable(),
  toStatus: bugStatusSchema,
  comment: z.string(),
});
export type BugReportEvent = z.infer<typeof bugReportEventSchema>;

export const bugReportSummarySchema = z.object({
  id: idSchema,
  /** A short number people can say aloud ("BUG-42"). */
  number: z.string(),
  title: z.string(),
  severity: bugSeveritySchema,
  status: bugStatusSchema,
  reporter: authorSchema,
  pageUrl: z.string(),
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
  /** Changes with every status change; also the ETag (`versionEtag`). */
  version: z.number().int().min(1),
});
export type BugReportSummary = z.infer<typeof bugReportSummarySchema>;

export const bugReportSchema = bugReportSummarySchema.extend({
  description: z.string(),
  stepsToReproduce: z.string(),
  context: bugContextSchema,
  history: z.array(bugReportEventSchema),
});
export type BugReport = z.infer<typeof bugReportSchema>;

export const bugReportQuerySchema = pageQuerySchema.extend({
  status: bugStatusSchema.optional(),
  severity: bugSeveritySchema.optional(),
  /** The reporter's username (case-insensitive). */
  reporter: z.string().trim().min(1).max(128).optional(),
  /** Words in the number, title, description or page address. */
  search: z.string().trim().min(1).max(200).optional(),
  sort: z.enum(["newest", "oldest", "severity", "updated"]).default("newest"),
});
export type BugReportQuery = z.input<typeof bugReportQuerySchema>;

export const bugReportPageSchema = pageOf(bugReportSummarySchema);
export type BugReportPage = z.infer<typeof bugReportPageSchema>;

/** `PATCH /bugs/reports/{id}` with `If-Match`: a new status, with a comment that says why. */
export const changeBugStatusRequestSchema = z.object({
  status: bugStatusSchema,
  comment: requiredText(5000),
});
export type ChangeBugStatusRequest = z.input<typeof changeBugStatusRequestSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The catalogue of the product's own tests
// ---------------------------------------------------------------------------------------------------------------

export const testSuites = ["contract", "server", "web", "scripts", "e2e"] as const;
export const testSuiteSchema = z.enum(testSuites);
export const testStatuses = ["passed", "failed", "skipped"] as const;
export const testStatusSchema = z.enum(testStatuses);

export const unitTestQuerySchema = pageQuerySchema.extend({
  suite: testSuiteSchema.optional(),
  status: testStatusSchema.optional(),
  /** Words in the file or test name. */
  search: z.string().trim().min(1).max(200).optional(),
});
export type UnitTestQuery = z.input<typeof unitTestQuerySchema>;

export const unitTestSchema = z.object({
  suite: testSuiteSchema,
  /** The test file, relative to the repository. */
  file: z.string(),
  /** The describe blocks and the test's own name, joined with " › ". */
  name: z.string(),
  status: testStatusSchema,
  durationMs: z.number().min(0).nullable(),
  /** The first line of the failure, when it failed. */
  failure: z.string().nullable(),
});
export type UnitTest = z.infer<typeof unitTestSchema>;

const testTotalsSchema = z.object({
  total: z.number().int().min(0),
  passed: z.number().int().min(0),
  failed: z.number().int().min(0),
  skipped: z.number().int().min(0),
});

export const unitTestPageSchema = pageOf(unitTestSchema).extend({
  /** false when no test run has produced a catalogue here yet; then everything else is empty. */
  available: z.boolean(),
  /** When the run that produced the results finished. */
  ranAt: isoDateTimeSchema.nullable(),
  /** The commit or build the run tested, when known. */
  revision: z.string().nullable(),
  /** Over the whole catalogue, and over what the filters match. */
  totals: testTotalsSchema,
  matching: testTotalsSchema,
  suites: z.array(z.object({ suite: testSuiteSchema, ...testTotalsSchema.shape })),
});
export type UnitTestPage = z.infer<typeof unitTestPageSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Integration self-checks of this deployment
// ---------------------------------------------------------------------------------------------------------------

export const integrationCheckIds = [
  "database-round-trip",
  "migrations-current",
  "signing-keys",
  "token-issuer-jwks",
  "mail-transport",
  "clock-skew",
  "data-folder-disk",
  "oidc-discovery",
  "finding-deliveries",
  "job-queue",
] as const;
export const integrationCheckIdSchema = z.enum(integrationCheckIds);
export type IntegrationCheckId = z.infer<typeof integrationCheckIdSchema>;

export const integrationCheckSchema = z.object({
  id: integrationCheckIdSchema,
  title: z.string(),
  purpose: z.string(),
});
export const integrationCheckListSchema = z.object({ items: z.array(integrationCheckSchema) });
export type IntegrationCheckList = z.infer<typeof integrationCheckListSchema>;

export const integrationCheckParamsSchema = z.object({ check: integrationCheckIdSchema });

export const integrationResultSchema = z.object({
  id: integrationCheckIdSchema,
  title: z.string(),
  /**
   * `skipped`: the check does not apply to this deployment (no federation, say), with the reason in `summary`.
   * `warning`: it works, but something needs watching (messages waiting for a retry), said in `summary`.
   */
  status: z.enum(["pass", "warning", "fail", "skipped"]),
  /** One sentence: what was found. */
  summary: z.string(),
  /** What to do when it fails (or how to keep it passing). */
  hint: z.string().nullable(),
  /** Measured facts (latency, days until a key expires, free bytes, …). */
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  durationMs: z.number().min(0),
  checkedAt: isoDateTimeSchema,
});
export type IntegrationResult = z.infer<typeof integrationResultSchema>;
