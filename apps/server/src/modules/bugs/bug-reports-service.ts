import {
  type Author,
  type BugReport,
  type BugReportEvent,
  type BugReportPage,
  type BugReportSummary,
  type bugReportQuerySchema,
  bugStatusLabels,
  type changeBugStatusRequestSchema,
  type createBugReportRequestSchema,
} from "@vigil/contract";
import type { z } from "zod";
import { type Actor, auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { assertVersion } from "../../http/versioning.js";
import { findUserById } from "../../identity/user-directory.js";
import {
  type BugReportEventRow,
  type BugReportRow,
  findBugReport,
  findBugReportEvents,
  findBugReportPage,
  insertBugReport,
  insertBugReportEvent,
  updateBugReportStatus,
} from "./bug-reports-repository.js";

type CreateBugReportInput = z.output<typeof createBugReportRequestSchema>;
type ChangeBugStatusInput = z.output<typeof changeBugStatusRequestSchema>;
type BugReportQuery = z.output<typeof bugReportQuerySchema>;

/** Who files or triages, with the display name shown beside their words. */
type Reporter = Actor & { name: string | null };

/** "BUG-42": what people say aloud and search for. */
export function bugNumber(number: number): string {
  return `BUG-${number}`;
}

function toSummary(row: BugReportRow): BugReportSummary {
  return {
    id: row.id,
    number: bugNumber(row.number),
    title: row.title,
    severity: row.severity,
    status: row.status,
    reporter: { sub: row.reporterSub, username: row.reporterUsername, name: row.reporterName },
    pageUrl: row.pageUrl,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

function toEvent(row: BugReportEventRow): BugReportEvent {
  return {
    id: row.id,
    at: row.at.toISOString(),
    by: { sub: row.bySub, username: row.byUsername, name: row.byName },
    fromStatus: row.fromStatus,
    toStatus: row.toStatus,
    comment: row.comment,
  };
}

function toBugReport(row: BugReportRow, events: BugReportEventRow[]): BugReport {
  return {
    description: row.description,
    stepsToReproduce: row.stepsToReproduce,
    context: row.context,
    history: events.map(toEvent),
    ...toSummary(row),
  };
}

async function withHistory(db: Db, row: BugReportRow): Promise<BugReport> {
  return toBugReport(row, await findBugReportEvents(db, row.id));
}

/** The actor with their display name, looked up before any transaction (PGlite has one connection). */
async function reporterOf(db: Db, actor: Actor): Promise<Reporter> {
  const user = await findUserById(db, actor.sub);
  return { name: user?.name ?? null, ...actor };
}

function authorFields(reporter: Reporter): Author {
  return { sub: reporter.sub, username: reporter.username, name: reporter.name };
}

async function requireBugReport(db: Db, id: string, lock?: "update"): Promise<BugReportRow> {
  const row = await findBugReport(db, id, lock);
  if (!row) throw new AppError("not_found", `No bug report with id ${id}.`);
  return row;
}

/**
 * Anyone signed in may file (users without groups too: a problem signing in to the right screens is a bug).
 * The number, the first history event and the audit event share the report's transaction.
 */
export async function fileBugReport(db: Db, input: CreateBugReportInput, actor: Actor): Promise<BugReport> {
  const reporter = await reporterOf(db, actor);
  const author = authorFields(reporter);
  return db.transaction(async (tx) => {
    const row = await insertBugReport(tx, {
      title: input.title,
      description: input.description,
      stepsToReproduce: input.stepsToReproduce,
      severity: input.severity,
      context: input.context,
      // A column of its own so lists show it and search finds it without reading the JSON.
      pageUrl: input.context.pageUrl,
      reporterSub: author.sub,
      reporterUsername: author.username,
      reporterName: author.name,
    });
    const event = await insertBugReportEvent(tx, {
      reportId: row.id,
      bySub: author.sub,
      byUsername: author.username,
      byName: author.name,
      fromStatus: null,
      toStatus: row.status,
      comment: "Filed",
    });
    // The audit row names the report, not its words: users may have pasted patient details into them.
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "bug.report",
        { type: "bug-report", id: row.id },
        { number: bugNumber(row.number), severity: row.severity, pageUrl: row.pageUrl },
      ),
    );
    return toBugReport(row, [event]);
  });
}

/**
 * `GET /bugs/reports`. A report is not patient data in itself, but users may paste patient details into its
 * title, description or steps, so the list and each report stay with `bugs:triage` (the contract's access) and
 * are never shown to everyone who can file.
 */
export async function listBugReports(db: Db, query: BugReportQuery): Promise<BugReportPage> {
  const { rows, total } = await findBugReportPage(db, query);
  return { items: rows.map(toSummary), total, limit: query.limit, offset: query.offset };
}

export async function getBugReport(db: Db, id: string): Promise<BugReport> {
  return withHistory(db, await requireBugReport(db, id));
}

/**
 * Moves a report to a new status with a comment (If-Match on `version`). The event, the new version and the
 * audit event share one transaction; the row lock serialises concurrent triage, so the loser gets a 412.
 */
export async function changeBugStatus(
  db: Db,
  id: string,
  expectedVersions: readonly number[],
  input: ChangeBugStatusInput,
  actor: Actor,
): Promise<BugReport> {
  const reporter = await reporterOf(db, actor);
  const author = authorFields(reporter);
  return db.transaction(async (tx) => {
    const before = await requireBugReport(tx, id, "update");
    const history = await findBugReportEvents(tx, id);
    assertVersion(expectedVersions, before, () => toBugReport(before, history));
    if (before.status === input.status) {
      const label = bugStatusLabels[input.status];
      throw new AppError(
        "conflict",
        `${bugNumber(before.number)} is already ${label}; nothing to change. Choose another status.`,
        { status: before.status },
      );
    }
    const after = (await updateBugReportStatus(tx, id, input.status)) as BugReportRow;
    const event = await insertBugReportEvent(tx, {
      reportId: id,
      bySub: author.sub,
      byUsername: author.username,
      byName: author.name,
      fromStatus: before.status,
      toStatus: input.status,
      comment: input.comment,
    });
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "bug.status-change",
        { type: "bug-report", id },
        { number: bugNumber(after.number), from: before.status, to: after.status, version: after.version },
      ),
    );
    return toBugReport(after, [...history, event]);
  });
}
