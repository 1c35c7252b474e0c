import { onlyEndpointIds, runSettings, targets } from "./config.js";
import type { LoadResult } from "./load.js";

/** The reads the bench measures, what each run of them records, and the ids they are spread over. */

export type Group = "chrome" | "list" | "detail" | "heavy";
export type Fixtures = {
  clients: string[];
  largestClients: string[];
  monitoringCases: string[];
  month: string;
  today: string;
};
export type Endpoint = {
  id: string;
  label: string;
  group: Group;
  /** The check-plans scenarios behind it, to name the likely cause of a miss. */
  scenarios: string[];
  paths: (fixtures: Fixtures) => string[];
  /** The fixed-rate run's requests per second when its target names its own (else `runSettings.fixedRate`). */
  fixedRate?: number;
  /** Chrome, list and detail reads: the share of the baseline's throughput to reach when it is not the common one. */
  throughputShare?: number;
  /** Heavy reads: the p50 target on the full data, one request at a time. */
  p50TargetMs?: number;
  /**
   * Heavy reads: the time logs one request covers, for the growth's context (a read over ten times the logs may take
   * ten times as long). Windows in UTC, `to` excluded; a request covering several is their mean.
   */
  covers?: (fixtures: Fixtures) => LogWindow[];
};
/** Time logs (not deleted) overlapping [from, to), of one client's cases or of all. */
export type LogWindow = { clientId?: string; from: string; to: string };

/** `YYYY-MM` plus whole months, as `YYYY-MM-01`. */
function monthStart(month: string, plus = 0): string {
  const [year, monthIndex] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, monthIndex - 1 + plus, 1)).toISOString().slice(0, 10);
}
function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The continuous-monitoring part of the API, where most of the measured reads live. */
export const apiBase = "/api/continuous-monitoring";
export const endpoints: Endpoint[] = [
  {
    id: "chrome",
    label: "GET /api/chrome",
    group: "chrome",
    scenarios: [],
    paths: () => ["/api/chrome"],
    throughputShare: targets.chromeThroughputShareOfBaseline,
  },
  {
    id: "clients",
    label: "clients list",
    group: "list",
    scenarios: ["clients list"],
    paths: () => [`${apiBase}/clients?limit=50`],
  },
  {
    id: "monitoring-queue",
    label: "monitoring queue",
    group: "list",
    scenarios: ["monitoring queue"],
    paths: () => [`${apiBase}/cases/monitoring?limit=50`],
  },
  {
    id: "monitoring-queue-client",
    label: "monitoring queue ?clientId",
    group: "list",
    scenarios: ["monitoring queue, client filter"],
    paths: (f) => f.clients.map((id) => `${apiBase}/cases/monitoring?limit=50&clientId=${id}`),
  },
  {
    id: "closed-queue-client",
    label: "closed queue ?clientId",
    group: "list",
    scenarios: ["closed queue, client filter"],
    paths: (f) => f.clients.map((id) => `${apiBase}/cases/closed?limit=50&clientId=${id}`),
  },
  {
    // The watch's board (PRODUCT.md §10): every open case's next clock by time to breach; a coordinator's screen
    // re-reads it on every case event, so its targets are its own (issue 17): 50 req/s, not the queues' rate, and
    // its own share of the baseline's throughput.
    id: "watch-board",
    label: "watch board",
    group: "list",
    scenarios: ["watch board"],
    paths: () => [`${apiBase}/board?limit=50`],
    fixedRate: 50,
    throughputShare: targets.boardThroughputShareOfBaseline,
  },
  {
    // The same board for one hospital: a page of each client's open cases, so on the tenth a page holds a tenth of
    // the rows (growth compares pages of equal rows only, growth.ts).
    id: "watch-board-client",
    label: "watch board ?clientId",
    group: "list",
    scenarios: ["watch board, client filter"],
    paths: (f) => f.clients.map((id) => `${apiBase}/board?limit=50&clientId=${id}`),
    fixedRate: 50,
    throughputShare: targets.boardThroughputShareOfBaseline,
  },
  {
    id: "case-detail",
    label: "case detail",
    group: "detail",
    scenarios: ["case detail"],
    paths: (f) => f.monitoringCases.map((id) => `${apiBase}/cases/${id}`),
  },
  {
    id: "time-logs-tab",
    label: "time-logs tab",
    group: "detail",
    scenarios: ["time-log tab (monitoring case)"],
    paths: (f) => f.monitoringCases.map((id) => `${apiBase}/cases/monitoring/${id}/time-logs`),
  },
  {
    id: "statement",
    label: "billing statement (month)",
    group: "heavy",
    scenarios: ["billing statement"],
    paths: (f) => f.largestClients.map((id) => `/api/billing/continuous-monitoring/${id}/${f.month}`),
    p50TargetMs: targets.heavyReadP50Ms.statement,
    covers: (f) =>
      f.largestClients.map((clientId) => ({ clientId, from: monthStart(f.month), to: monthStart(f.month, 1) })),
  },
  {
    id: "report",
    label: "billable-hours report (by day)",
    group: "heavy",
    scenarios: ["billable-hours report by day"],
    paths: (f) => [
      `/api/reporting/continuous-monitoring/billable-hours?from=${f.today.slice(0, 8)}01&to=${f.today}&groupBy=day`,
    ],
    p50TargetMs: targets.heavyReadP50Ms.report,
    covers: (f) => [{ from: `${f.today.slice(0, 8)}01`, to: nextDay(f.today) }],
  },
  {
    // The billing overview's default range: the 12 months ending with the current one, every client × month (the
    // totals cover every row, so the page size does not bound the work).
    id: "billing-overview",
    label: "billing overview (12 months × every client)",
    group: "heavy",
    scenarios: [],
    paths: () => ["/api/billing/continuous-monitoring?limit=200"],
    p50TargetMs: targets.heavyReadP50Ms.billingOverview,
    covers: (f) => [{ from: monthStart(f.today.slice(0, 7), -11), to: monthStart(f.today.slice(0, 7), 1) }],
  },
  {
    // Receivables (issue 31): every client's open amounts by days past due today, over three years of monthly
    // invoices and payments (generate-receivables.ts); the first page, with the totals over every client.
    id: "aging",
    label: "receivables aging (every client, today)",
    group: "heavy",
    scenarios: ["receivables aging"],
    paths: (f) => [`/api/billing/receivables/aging?asOf=${f.today}&limit=50`],
    p50TargetMs: targets.heavyReadP50Ms.aging,
  },
  {
    // A year of one client's ledger with the balance brought forward over the two years before it.
    id: "statement-of-account",
    label: "statement of account (a client's year)",
    group: "heavy",
    scenarios: ["statement of account"],
    paths: (f) =>
      f.largestClients.map(
        (id) =>
          `/api/billing/clients/${id}/statement-of-account?from=${monthStart(f.today.slice(0, 7), -12)}&to=${f.today}`,
      ),
    p50TargetMs: targets.heavyReadP50Ms.statementOfAccount,
  },
];

/** The endpoints measured in this run: all of them, or BENCH_ONLY's (config.ts). */
export const measuredEndpoints: Endpoint[] = (() => {
  const only = onlyEndpointIds;
  if (!only) return endpoints;
  const unknown = only.filter((id) => !endpoints.some((endpoint) => endpoint.id === id));
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_ONLY names unknown endpoints (${unknown.join(", ")}); the ids are ${endpoints.map((endpoint) => endpoint.id).join(", ")}`,
    );
  }
  return endpoints.filter((endpoint) => only.includes(endpoint.id));
})();

export type EndpointRun = {
  endpoint: string;
  status: number;
  bytes: number;
  /** List reads: the rows an answer carries, the mean over the endpoint's paths (`data.items`). */
  rowsPerAnswer?: number;
  throughput?: LoadResult;
  /** One connection: the request's own latency (the heavy reads). */
  single?: LoadResult;
  /** A fixed request rate (PostgreSQL server on the full data only). */
  fixedRate?: LoadResult;
  /**
   * The fixed-rate run's slow requests: how many took longer than `overMs` by the generator's clock (from their due
   * time) and by the server's own histogram (arrival to answer); the difference was spent outside the server.
   */
  fixedRateSlow?: SlowRequests[];
  rssMaxMb: number;
  /** Heavy reads on PostgreSQL: the time logs one request covers (`Endpoint.covers`), counted after the run. */
  coveredTimeLogs?: number;
};
export type SlowRequests = { overMs: number; generator: number; server?: number };
export type ServerRun = {
  label: string;
  database: string;
  runs: Record<string, EndpointRun>;
  /** Before any load (after start and sign-in), then the most seen under load. */
  rssIdleMb: number;
  rssMaxMb: number;
};

/**
 * The list or detail read a diagnostic script drives at its fixed rate: its id from the command line (argv[2]) and
 * the seconds to drive it (argv[3]), each with the script's default.
 */
export function pacedReadFromArguments(defaultId: string, defaultSeconds: number) {
  const id = process.argv[2] ?? defaultId;
  const seconds = Number(process.argv[3] ?? defaultSeconds);
  const endpoint = endpoints.find((candidate) => candidate.id === id);
  if (!endpoint || endpoint.group === "heavy") throw new Error(`No list or detail endpoint "${id}" in endpoints.ts.`);
  return { id, endpoint, seconds, rate: endpoint.fixedRate ?? runSettings.fixedRate };
}
