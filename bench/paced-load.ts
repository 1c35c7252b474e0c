import http from "node:http";
import { type LoadResult, round } from "./load.js";

/**
 * A fixed request rate, paced: request i leaves at start + i / rate whatever the answers before it did (open loop,
 * as users arrive), on as many keep-alive sockets as are busy at once, and its latency counts from the moment it
 * was due, so a server that falls behind shows it (no coordinated omission). autocannon's own `overallRate` gives
 * each of its connections a tenth of the rate on its own timer: the ten fire together, so "50 requests/s" arrived
 * as ten at once five times a second, and the p99 measured that burst's queue (the board: 42 ms against 9 ms
 * paced, same server, same minute).
 */
export async function drivePaced(options: {
  baseURL: string;
  paths: readonly string[];
  headers: Record<string, string>;
  rate: number;
  seconds: number;
  timeoutSeconds: number;
  /** Each answer as it arrives: when it was due (performance.now()) and its latency, for a timeline (gc-stalls.ts). */
  onAnswer?: (dueAt: number, latencyMs: number) => void;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.max(1, Math.round(options.rate * options.seconds));
  const latencies: number[] = [];
  // How late each request left its due time: the load generator's own stalls (its collections, a busy core), which
  // count in the latency too, since it is taken from the due time.
  const lateness: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  const start = performance.now();
  const send = (index: number, dueAt: number) =>
    new Promise<void>((resolve) => {
      lateness.push(performance.now() - dueAt);
      const path = options.paths[index % options.paths.length] as string;
      const request = http.get(new URL(path, options.baseURL), { agent, headers: options.headers }, (response) => {
        response.resume();
        response.on("end", () => {
          const latency = performance.now() - dueAt;
          latencies.push(latency);
          options.onAnswer?.(dueAt, latency);
          if ((response.statusCode ?? 0) < 200 || (response.statusCode ?? 0) >= 300) non2xx++;
          resolve();
        });
        response.on("error", () => {
          errors++;
          resolve();
        });
      });
      request.setTimeout(options.timeoutSeconds * 1000, () => {
        timeouts++;
        request.destroy();
      });
      request.on("error", () => {
        errors++;
        resolve();
      });
    });
  const pending: Promise<void>[] = [];
  for (let index = 0; index < total; index++) {
    const dueAt = start + (index * 1000) / options.rate;
    const wait = dueAt - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(send(index, dueAt));
  }
  await Promise.all(pending);
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  const sorted = [...latencies].sort((left, right) => left - right);
  const at = (share: number) => rankOf(sorted, share);
  const late = lateness.sort((left, right) => left - right);
  return {
    requests: latencies.length,
    requestsPerSecond: round(latencies.length / seconds),
    latencyMs: {
      mean: round(sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length)),
      p50: at(0.5),
      p90: at(0.9),
      p99: at(0.99),
      max: round(sorted[sorted.length - 1] ?? 0),
    },
    non2xx,
    errors,
    timeouts,
    durationSeconds: round(seconds),
    sentLateMs: { p99: rankOf(late, 0.99), max: round(late[late.length - 1] ?? 0) },
  };
}

/** The value at `share` of sorted values (the p99 is the value below which 99% of the requests lie), rounded. */
export function rankOf(sorted: readonly number[], share: number): number {
  return round(sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0);
}
