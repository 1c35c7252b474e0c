import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { PoolUse } from "../db/client.js";

/**
 * The operators' metrics of one app instance (docs/operations.md, "Metrics"): one prom-client registry per app, so
 * two apps in one process (tests) never share a count. Every label value is chosen here from a closed vocabulary —
 * a route's name or path template, an HTTP method, a status class, a job kind — never taken from a request's path,
 * query or body, so no case id, MRN or name can reach a series.
 */

/** One kind of background job, as its queue reads now (the job room supplies these; see `watchJobQueue`). */
export type JobQueueReading = {
  /** The job's kind, a name from code (`finding-delivery`); anything else is reported as `other`. */
  kind: string;
  /** Jobs waiting to run (due or not). */
  depth: number;
  /** How long the oldest due job has waited, in seconds (0 when none is due). */
  oldestAgeSeconds: number;
};

export type MetricSources = {
  /** Live event streams (`GET /api/events`) this instance holds open now. */
  eventStreams: () => number;
  /** The database pool's use; undefined for PGlite, which has no pool. */
  poolUse?: () => PoolUse;
};

export type Metrics = {
  readonly registry: Registry;
  /** Counts one answered request: `route` is the contract's route name or the router's path template. */
  observeRequest: (answer: { route: string; method: string; statusCode: number; seconds?: number }) => void;
  /**
   * The extension point for the job room: hands the metrics a reader of its queues, called at each scrape. Until one
   * is given, the job-queue series are simply absent.
   */
  watchJobQueue: (read: () => Promise<JobQueueReading[]>) => void;
  /** Counts one job that failed (an attempt that threw, or a job given up on), by kind. */
  countJobFailure: (kind: string) => void;
  /** The exposition text (Prometheus text format 0.0.4). */
  scrape: () => Promise<string>;
  readonly contentType: string;
};

/** The label a request outside every route gets (404s): its path would be whatever the caller typed. */
export const unmatchedRoute = "unmatched";

const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A route label must look like a name or a path template: letters, digits, `/`, `:`, `*`, `-`, `_`, `.`. */
const routeLabelPattern = /^[A-Za-z0-9/:*._-]{1,200}$/;
const jobKindPattern = /^[a-z][a-z0-9._-]{0,63}$/;

/** prom-client's default buckets, from 5 ms to 10 s: the API's reads take a few ms, reports and PDFs up to seconds. */
const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(sources: MetricSources, log: { warn: (details: object, message: string) => void }) {
  const registry = new Registry();
  // Process memory, CPU, event-loop lag (nodejs_eventloop_lag_*), GC, handles: prom-client's standard names, so the
  // usual Node.js dashboards work unchanged.
  collectDefaultMetrics({ register: registry });
  // prom-client also exports these three gauges under a `_total` name, which Prometheus keeps for counters
  // (`promtool check metrics` flags them); their per-type twins (`nodejs_active_handles{type}`…) stay.
  for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"]) {
    registry.removeSingleMetric(name);
  }

  const requests = new Counter({
    name: "vigil_http_requests_total",
    help: "HTTP requests answered, by route (contract route name or path template), method and status class.",
    labelNames: ["route", "method", "status_class"] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: "vigil_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer's end, by route, method and status class (event streams excluded: they stay open).",
    labelNames: ["route", "method", "status_class"] as const,
    buckets: durationBuckets,
    registers: [registry],
  });
  new Gauge({
    name: "vigil_event_stream_connections",
    help: "Live event streams (GET /api/events) open on this instance.",
    registers: [registry],
    collect() {
      this.set(sources.eventStreams());
    },
  });
  const { poolUse } = sources;
  if (poolUse) {
    new Gauge({
      name: "vigil_db_pool_connections",
      help: "PostgreSQL pool connections by state: idle, or in use by a query or transaction.",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        const use = poolUse();
        this.set({ state: "idle" }, use.idle);
        this.set({ state: "in_use" }, use.total - use.idle);
      },
    });
    new Gauge({
      name: "vigil_db_pool_max_connections",
      help: "The most connections the PostgreSQL pool opens.",
      registers: [registry],
      collect() {
        this.set(poolUse().max);
      },
    });
    new Gauge({
      name: "vigil_db_pool_waiting_requests",
      help: "Queries waiting for a free PostgreSQL pool connection.",
      registers: [registry],
      collect() {
        this.set(poolUse().waiting);
      },
    });
  }

  let readJobQueue: (() => Promise<JobQueueReading[]>) | undefined;
  // Read once per scrape and shared by both gauges (prom-client collects them one after the other).
  let pendingReading: Promise<JobQueueReading[]> | undefined;
  const readJobsOnce = (): Promise<JobQueueReading[]> => {
    if (!readJobQueue) return Promise.resolve([]);
    pendingReading ??= readJobQueue()
      .catch((error: unknown) => {
        log.warn({ err: error }, "the job queue could not be read for the metrics");
        return [];
      })
      .finally(() => {
        pendingReading = undefined;
      });
    return pendingReading;
  };
  new Gauge({
    name: "vigil_job_queue_depth",
    help: "Background jobs waiting to run, by kind.",
    labelNames: ["kind"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const reading of await readJobsOnce()) this.set({ kind: jobKindLabel(reading.kind) }, reading.depth);
    },
  });
  new Gauge({
    name: "vigil_job_queue_oldest_age_seconds",
    help: "How long the oldest due background job of each kind has waited.",
    labelNames: ["kind"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const reading of await readJobsOnce()) {
        this.set({ kind: jobKindLabel(reading.kind) }, reading.oldestAgeSeconds);
      }
    },
  });
  const jobFailures = new Counter({
    name: "vigil_job_failures_total",
    help: "Background job attempts that failed, by kind.",
    labelNames: ["kind"] as const,
    registers: [registry],
  });

  const metrics: Metrics = {
    registry,
    contentType: registry.contentType,
    observeRequest: ({ route, method, statusCode, seconds }) => {
      const labels = {
        route: routeLabelPattern.test(route) ? route : unmatchedRoute,
        method: knownMethods.has(method) ? method : "other",
        status_class: `${Math.min(Math.max(Math.floor(statusCode / 100), 1), 5)}xx`,
      };
      requests.inc(labels);
      if (seconds !== undefined) durations.observe(labels, seconds);
    },
    watchJobQueue: (read) => {
      readJobQueue = read;
    },
    countJobFailure: (kind) => jobFailures.inc({ kind: jobKindLabel(kind) }),
    scrape: () => registry.metrics(),
  };
  return metrics;
}

function jobKindLabel(kind: string): string {
  return jobKindPattern.test(kind) ? kind : "other";
}
