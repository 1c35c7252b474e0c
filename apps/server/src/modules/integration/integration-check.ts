import type { IntegrationCheckId, IntegrationResult } from "@vigil/contract";
import type { Config } from "../../config.js";
import type { Database } from "../../db/client.js";
import type { TokenService } from "../../identity/token-service.js";
import type { MessageService } from "../../messaging/message-service.js";

/**
 * The live self-checks of a deployment: each one talks to a real peer — the database, the server's own
 * public address, the SMTP server, the upstream OpenID provider — and says in one sentence what it found and, when
 * that is wrong, what to do. The service runs one at a time under a time limit; a check only has to stop waiting
 * when its `signal` aborts.
 */
export type CheckContext = {
  database: Database;
  config: Config;
  tokens: TokenService;
  messages: MessageService;
  /** The job kinds this app runs, with their limits (jobs/job-definition.ts). */
  jobKinds: readonly { kind: string; maxWaitMs?: number }[];
};

export type CheckOutcome = Pick<IntegrationResult, "status" | "summary" | "hint" | "details">;

export type CheckRun = {
  signal: AbortSignal;
  /** What the check has to finish in; peers with their own timeouts (SMTP) are given this. */
  budgetMs: number;
};

export type IntegrationCheck = {
  id: IntegrationCheckId;
  title: string;
  purpose: string;
  run: (context: CheckContext, run: CheckRun) => Promise<CheckOutcome>;
  /** What was being waited for, said when the time runs out or the check throws, and what to do about it. */
  stalled: (context: CheckContext) => { waitingFor: string; hint: string };
};

export type Details = CheckOutcome["details"];

export const pass = (summary: string, details: Details, hint: string | null = null): CheckOutcome => ({
  status: "pass",
  summary,
  hint,
  details,
});
/** It works, but something needs watching: said in the summary, with what to do in the hint. */
export const warn = (summary: string, hint: string, details: Details): CheckOutcome => ({
  status: "warning",
  summary,
  hint,
  details,
});
export const fail = (summary: string, hint: string, details: Details): CheckOutcome => ({
  status: "fail",
  summary,
  hint,
  details,
});
export const skipped = (summary: string, details: Details = {}): CheckOutcome => ({
  status: "skipped",
  summary,
  hint: null,
  details,
});

export const round = (value: number, decimals = 1) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** The error of a failed network call, with the system's reason (ECONNREFUSED…) that `fetch` hides in `cause`. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  if (!cause?.message) return cause?.code ?? error.message;
  return cause.code && !cause.message.includes(cause.code) ? `${cause.code}: ${cause.message}` : cause.message;
}

export async function fetchJson(url: string, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { signal, headers: { accept: "application/json" }, redirect: "follow" });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}

/** What to do when the database does not answer, for every check that reads it. */
export const databaseHint =
  "Check that the database is running and reachable (DATABASE_URL, or the DATA_DIR folder for the embedded one).";
