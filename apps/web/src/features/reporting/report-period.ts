import { billableHoursQuerySchema } from "@vigil/contract";
import { ApiRequestError } from "../../lib/api-client";
import type { BillableHoursParams } from "./api/query-keys";

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** The default period: the current month to date, by the user's calendar. */
export function currentMonthToDate(now: Date = new Date()): { from: string; to: string } {
  const month = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
  return { from: `${month}-01`, to: `${month}-${pad(now.getDate())}` };
}

/** Query field → the one message shown beside it (`from`, `to`, `groupBy`, …); "" is about the query as a whole. */
export type QueryProblems = Record<string, string>;

/**
 * What the contract's own query schema says about the filters before anything is sent (a period the server would
 * refuse is not asked for): the same messages the server would answer with.
 */
export function checkReportQuery(params: BillableHoursParams): QueryProblems {
  const parsed = billableHoursQuerySchema.safeParse(params);
  if (parsed.success) return {};
  const problems: QueryProblems = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? "");
    if (!(key in problems)) problems[key] = issue.message;
  }
  return problems;
}

/** The messages of a 400 about the query (`details.issues[{ path: "querystring.to", message }]`), by field. */
export function serverQueryProblems(error: unknown): QueryProblems {
  if (!(error instanceof ApiRequestError) || error.body.status !== 400) return {};
  const details = error.body.details;
  const issues = typeof details === "object" && details !== null ? (details as { issues?: unknown }).issues : undefined;
  if (!Array.isArray(issues) || issues.length === 0) return { "": error.body.message };
  const problems: QueryProblems = {};
  for (const issue of issues) {
    if (typeof issue !== "object" || issue === null) continue;
    const { path, message } = issue as { path?: unknown; message?: unknown };
    if (typeof path !== "string" || typeof message !== "string") continue;
    const key = path.startsWith("querystring") ? (path.replace(/^querystring\.?/, "").split(".")[0] ?? "") : "";
    if (!(key in problems)) problems[key] = message;
  }
  return problems;
}

/** A message as it reads under its field: the contract's fragments ("must be…") start with a capital there. */
export function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}
