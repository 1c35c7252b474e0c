import type { SlowRequests } from "./endpoints.js";

/**
 * The server's own clock beside the load generator's: its request-time histogram (`vigil_http_request_duration_seconds`
 * from GET /metrics, apps/server/src/http/metrics.ts) read before and after a paced run, so a round's slow requests
 * can be told apart — slow in the server, or slow outside it (the generator late, the answer waiting for a core).
 */

/** GET answers counted by the server, and how many took longer than each of its bucket bounds (seconds). */
export type ServerLatencies = { requests: number; over: Record<string, number> };

const bucketLine = /^vigil_http_request_duration_seconds_bucket\{([^}]*)\}\s+(\S+)/;

/** The histogram's GET answers of every route but the metrics' own, summed over routes and status classes. */
export function serverLatencies(exposition: string): ServerLatencies {
  const atMost = new Map<string, number>();
  for (const line of exposition.split("\n")) {
    const match = bucketLine.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries(
      [...(match[1] as string).matchAll(/(\w+)="([^"]*)"/g)].map((label) => [label[1], label[2]]),
    );
    if (labels.method !== "GET" || labels.route === "metrics" || labels.le === undefined) continue;
    atMost.set(labels.le, (atMost.get(labels.le) ?? 0) + Number(match[2]));
  }
  const requests = atMost.get("+Inf") ?? 0;
  const over: Record<string, number> = {};
  for (const [bound, count] of atMost) if (bound !== "+Inf") over[bound] = requests - count;
  return { requests, over };
}

/** What the server counted between two readings. */
export function latenciesBetween(before: ServerLatencies, after: ServerLatencies): ServerLatencies {
  const over: Record<string, number> = {};
  for (const [bound, count] of Object.entries(after.over)) over[bound] = count - (before.over[bound] ?? 0);
  return { requests: after.requests - before.requests, over };
}

export async function readServerLatencies(baseURL: string, token: string): Promise<ServerLatencies> {
  const response = await fetch(`${baseURL}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`);
  return serverLatencies(await response.text());
}

/** Bounds (ms) at which a paced run's slow requests are counted by both clocks; the server's histogram has both. */
const slowBoundsMs = [10, 25] as const;
/** The requests over each bound by the generator's clock and, where the server's histogram was read, by the server's. */
export function slowRequests(latencies: readonly number[], server: ServerLatencies | undefined): SlowRequests[] {
  return slowBoundsMs.map((overMs) => {
    const slow: SlowRequests = { overMs, generator: latencies.filter((latency) => latency > overMs).length };
    const counted = server?.over[String(overMs / 1000)];
    if (counted !== undefined) slow.server = counted;
    return slow;
  });
}
