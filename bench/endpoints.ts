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
};

/** The continuous-monitoring part of the API, where most of the measured reads live. */
export const apiBase = "/api/continuous-monitoring";
export const endpoints: Endpoint[] = [
  { id: "chrome", label: "GET /api/chrome", group: "chrome", scenarios: [], paths: () => ["/api/chrome"] },
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
    // re-reads it on every case event, so its target is its own rate (50 req/s), not the queues'.
    id: "watch-board",
    label: "watch board",
    group: "list",
    scenarios: ["watch board", "watch board, client filter"],
    paths: (f) => [`${apiBase}/board?limit=50`, ...f.clients.map((id) => `${apiBase}/board?limit=50&clientId=${id}`)],
    fixedRate: 50,
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
  },
  {
    id: "report",
    label: "billable-hours report (by day)",
    group: "heavy",
    scenarios: ["billable-hours report by day"],
    paths: (f) => [
      `/api/reporting/continuous-monitoring/billable-hours?from=${f.today.slice(0, 8)}01&to=${f.today}&groupBy=day`,
    ],
  },
];

export type EndpointRun = {
  endpoint: string;
  status: number;
  bytes: number;
  throughput?: LoadResult;
  /** One connection: the request's own latency (statement and report). */
  single?: LoadResult;
  /** Fixed 200 requests/s (PostgreSQL server only). */
  fixedRate?: LoadResult;
  rssMaxMb: number;
};
export type ServerRun = {
  label: string;
  database: string;
  runs: Record<string, EndpointRun>;
  /** Before any load (after start and sign-in), then the most seen under load. */
  rssIdleMb: number;
  rssMaxMb: number;
};
