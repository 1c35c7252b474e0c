import type { BugSeverity, BugStatus } from "@vigil/contract";
import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { bugReportEvents, bugReports } from "../../db/schema.js";

export type BugReportRow = typeof bugReports.$inferSelect;
export type BugReportEventRow = typeof bugReportEvents.$inferSelect;
export type BugReportValues = Omit<
  typeof bugReports.$inferInsert,
  "id" | "number" | "status" | "version" | "createdAt" | "updatedAt"
>;
export type BugReportEventValues = Omit<typeof bugReportEvents.$inferInsert, "id" | "at">;

export type BugReportFilter = {
  status?: BugStatus | undefined;
  severity?: BugSeverity | undefined;
  /** The reporter's username, compared case-insensitively. */
  reporter?: string | undefined;
  /** Whitespace-separated words; each must appear in the number, title, description or page address. */
  search?: string | undefined;
  sort: "newest" | "oldest" | "severity" | "updated";
  limit: number;
  offset: number;
};

/** `%`, `_` and `\` typed by a user are literal characters, not LIKE wildcards. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** "BUG-12", "bug12", "#12" or "12" name report 12. */
const numberPattern = /^(?:bug-?|#)?(\d{1,9})$/i;

function wordCondition(word: string): SQL | undefined {
  const pattern = likePattern(word);
  const number = numberPattern.exec(word)?.[1];
  return or(
    number === undefined ? undefined : eq(bugReports.number, Number(number)),
    ilike(bugReports.title, pattern),
    ilike(bugReports.description, pattern),
    ilike(bugReports.pageUrl, pattern),
  );
}

/** Critical first; the stored text maps to its rank here so the order does not depend on the words' spelling. */
const severityRank = sql`case ${bugReports.severity} when 'critical' then 0 when 'high' then 1 when 'medium' then 2 else 3 end`;

const orderings: Record<BugReportFilter["sort"], SQL[]> = {
  // The number follows filing order and is unique, so it breaks ties and keeps pages stable.
  newest: [desc(bugReports.createdAt), desc(bugReports.number)],
  oldest: [asc(bugReports.createdAt), asc(bugReports.number)],
  severity: [asc(severityRank), desc(bugReports.createdAt), desc(bugReports.number)],
  updated: [desc(bugReports.updatedAt), desc(bugReports.number)],
};

export async function findBugReportPage(
  db: Db,
  filter: BugReportFilter,
): Promise<{ rows: BugReportRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [];
  if (filter.status) conditions.push(eq(bugReports.status, filter.status));
  if (filter.severity) conditions.push(eq(bugReports.severity, filter.severity));
  if (filter.reporter) {
    conditions.push(sql`lower(${bugReports.reporterUsername}) = ${filter.reporter.toLowerCase()}`);
  }
  for (const word of filter.search?.split(/\s+/).filter(Boolean) ?? []) conditions.push(wordCondition(word));
  const where = and(...conditions);
  // One after the other: PGlite has a single connection.
  const rows = await db
    .select()
    .from(bugReports)
    .where(where)
    .orderBy(...orderings[filter.sort])
    .limit(filter.limit)
    .offset(filter.offset);
  const [counted] = await db.select({ total: count() }).from(bugReports).where(where);
  return { rows, total: Number(counted?.total ?? 0) };
}

export async function findBugReport(db: Db, id: string, lock?: "update"): Promise<BugReportRow | undefined> {
  const query = db.select().from(bugReports).where(eq(bugReports.id, id)).limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** The report's history, oldest first; the filing (from null) leads among events of the same instant. */
export async function findBugReportEvents(db: Db, reportId: string): Promise<BugReportEventRow[]> {
  return db
    .select()
    .from(bugReportEvents)
    .where(eq(bugReportEvents.reportId, reportId))
    .orderBy(asc(bugReportEvents.at), sql`${bugReportEvents.fromStatus} is not null`, asc(bugReportEvents.id));
}

/** Inserts a report with the next number of the sequence (numbers are never reused, gaps are possible). */
export async function insertBugReport(db: Db, values: BugReportValues): Promise<BugReportRow> {
  const [row] = await db
    .insert(bugReports)
    .values({ number: sql`nextval('bug_report_number_seq')`, ...values })
    .returning();
  return row as BugReportRow;
}

export async function insertBugReportEvent(db: Db, values: BugReportEventValues): Promise<BugReportEventRow> {
  const [row] = await db.insert(bugReportEvents).values(values).returning();
  return row as BugReportEventRow;
}

/** Sets the status and moves the report to its next version. */
export async function updateBugReportStatus(db: Db, id: string, status: BugStatus): Promise<BugReportRow | undefined> {
  const [row] = await db
    .update(bugReports)
    .set({ status, version: sql`${bugReports.version} + 1`, updatedAt: sql`now()` })
    .where(eq(bugReports.id, id))
    .returning();
  return row;
}
