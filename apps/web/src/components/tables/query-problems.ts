import type { z } from "zod";
import { ApiRequestError } from "../../lib/api-client";

/** Query field → the one message shown beside its filter (`from`, `createdTo`, …); "" is about the query as a whole. */
export type QueryProblems = Record<string, string>;

/**
 * What the contract's own query schema says about a list's filters before anything is sent (a range the server
 * would refuse is not asked for): the same messages, on the same fields, as the server's 400 would have.
 */
export function queryProblems(schema: z.ZodType, params: unknown): QueryProblems {
  const parsed = schema.safeParse(params);
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

/** A message as it reads under its filter: the contract's fragments ("must…") start with a capital there. */
export function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}
