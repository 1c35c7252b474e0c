import autocannon from "autocannon";
import { runSettings } from "./config.js";

/** One measured run of one endpoint. */
export type LoadResult = {
  requests: number;
  requestsPerSecond: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  durationSeconds: number;
  /** Paced runs: how late the requests left their due times (the load generator's own stalls). */
  sentLateMs?: { p99: number; max: number };
};

/**
 * autocannon against `paths` (taken in turn, so detail reads are spread over many rows), no pipelining, a fixed
 * number of connections; `overallRate` fixes the request rate instead of running flat out.
 */
export async function drive(options: {
  baseURL: string;
  paths: readonly string[];
  headers: Record<string, string>;
  /** Run for this long… */
  seconds?: number;
  /** …or send exactly this many requests. */
  amount?: number;
  connections?: number;
  overallRate?: number;
}): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: options.baseURL,
    connections: options.connections ?? runSettings.connections,
    pipelining: 1,
    ...(options.amount ? { amount: options.amount } : { duration: options.seconds ?? runSettings.durationSeconds }),
    timeout: runSettings.requestTimeoutSeconds,
    headers: options.headers,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    requests: [
      {
        method: "GET",
        setupRequest: (request) => {
          const path = options.paths[next % options.paths.length] as string;
          next++;
          return { ...request, path };
        },
      },
    ],
  });
  const seconds = result.duration || options.seconds || 1;
  return {
    requests: result.requests.total,
    // A fixed number of requests on one connection: one after the other, so the rate is what their latency allows.
    requestsPerSecond:
      options.amount && (options.connections ?? 1) === 1 && result.latency.mean > 0
        ? round(1000 / result.latency.mean, 2)
        : round(result.requests.total / seconds),
    latencyMs: {
      mean: round(result.latency.mean),
      p50: round(result.latency.p50),
      p90: round(result.latency.p90),
      p99: round(result.latency.p99),
      max: round(result.latency.max),
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSeconds: round(seconds),
  };
}

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
