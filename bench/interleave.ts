import { runSettings } from "./config.js";
import { type EndpointRun, type Fixtures, measuredEndpoints, type ServerRun } from "./endpoints.js";
import { drive, type LoadResult, round } from "./load.js";
import { type PacedGenerator, startPacedGenerator } from "./paced-generator.js";
import { rankOf } from "./paced-load.js";
import { type BenchProcess, log, rssMb, rssSampler, waitForQuiet } from "./processes.js";
import { interleavingOrder, interleavingSchedule } from "./rounds.js";
import { latenciesBetween, readServerLatencies, slowRequests } from "./server-latency.js";

/**
 * The load runs, interleaved: every server under comparison (Vigil on the full data, the bare baseline, Vigil on the
 * tenth in PostgreSQL and in PGlite) is started once and kept running, and each round takes every endpoint in turn
 * on each of them, in an order that changes each round (rounds.ts). A ratio is then formed within one round, from
 * runs seconds apart, so a drift of the machine over the minutes of a bench moves both sides of it. Per endpoint and
 * server: flat out (a warm-up, then a measured run of runSettings.roundSeconds), or for the heavy reads a few requests
 * on one connection (the same ones once before, unmeasured); then, on the servers that ask for it, every chrome,
 * list and detail read at its fixed rate (the round warm-up's seconds at that rate, then as many seconds measured).
 * The app process's RSS is sampled during each run.
 */

export type Side = {
  label: string;
  database: string;
  server: BenchProcess;
  token?: string;
  fixtures: Fixtures;
  /** Also measure the chrome, list and detail reads at their fixed request rate (the full data on PostgreSQL). */
  fixedRate: boolean;
  /** Active statements on the server's PostgreSQL database (none for PGlite: the app's CPU says it all). */
  activeStatements?: () => Promise<number>;
};

/** The fixed-rate runs of every round taken together: one p99 over all their requests, beside the per-round ones. */
export type PooledFixedRate = { requests: number; p99Ms: number };

export type InterleavedRuns = {
  /** Per side, in the order given: one ServerRun per round. */
  rounds: ServerRun[][];
  /** Per side, per endpoint measured at a fixed rate. */
  pooledFixedRate: Record<string, PooledFixedRate>[];
};

type SideState = {
  side: Side;
  headers: Record<string, string>;
  rss: ReturnType<typeof rssSampler>;
  rssIdleMb: number;
  /**
   * The first answer of each endpoint: its status and size (an endpoint that does not answer 200 is skipped), and
   * for a list the rows its answers carry.
   */
  first: Record<string, { status: number; bytes: number; rowsPerAnswer?: number }>;
  rounds: ServerRun[];
  fixedRateLatencies: Record<string, number[]>;
};

const quiet = (state: SideState) => waitForQuiet(state.side.server.appPid, state.side.activeStatements);

async function firstAnswers(state: SideState): Promise<void> {
  for (const endpoint of measuredEndpoints) {
    const path = endpoint.paths(state.side.fixtures)[0] as string;
    const response = await fetch(`${state.side.server.baseURL}${path}`, { headers: state.headers });
    const body = await response.text();
    const first: SideState["first"][string] = { status: response.status, bytes: body.length };
    if (response.status !== 200) {
      log(`${state.side.label}: ${endpoint.label} answered ${response.status}, skipped: ${body.slice(0, 200)}`);
    } else if (endpoint.group === "list") {
      const rowsPerAnswer = await meanRowsPerAnswer(state, endpoint.paths(state.side.fixtures));
      if (rowsPerAnswer !== undefined) first.rowsPerAnswer = rowsPerAnswer;
    }
    state.first[endpoint.id] = first;
  }
}

/** The mean of `data.items.length` over a list's paths, each read once; undefined for an answer without items. */
async function meanRowsPerAnswer(state: SideState, paths: readonly string[]): Promise<number | undefined> {
  let rows = 0;
  for (const path of paths) {
    const response = await fetch(`${state.side.server.baseURL}${path}`, { headers: state.headers });
    const answer = (await response.json()) as { data?: { items?: unknown[] } };
    if (!Array.isArray(answer.data?.items)) return undefined;
    rows += answer.data.items.length;
  }
  return round(rows / paths.length);
}

async function measureTurn(
  state: SideState,
  endpoint: (typeof measuredEndpoints)[number],
  roundIndex: number,
): Promise<EndpointRun | undefined> {
  const answer = state.first[endpoint.id];
  if (!answer || answer.status !== 200) return answer ? { endpoint: endpoint.id, ...answer, rssMaxMb: 0 } : undefined;
  const { baseURL } = state.side.server;
  const paths = endpoint.paths(state.side.fixtures);
  const headers = state.headers;
  const run: EndpointRun = { endpoint: endpoint.id, ...answer, rssMaxMb: 0 };
  await quiet(state);
  if (endpoint.group === "heavy") {
    // Seconds per request on the full data: a few requests on one connection, each after the last. The same
    // requests once first, unmeasured, as the list reads have their warm-up: the rounds' other reads leave these
    // pages outside PostgreSQL's buffers, and whichever server read them first would pay for both.
    const requests = { baseURL, paths, headers, amount: runSettings.heavyRequestsPerRound, connections: 1 };
    if (runSettings.roundWarmupSeconds > 0) {
      await drive(requests);
      await quiet(state);
    }
    state.rss.start();
    run.single = await drive(requests);
  } else {
    const warmup = roundIndex === 0 ? runSettings.warmupSeconds : runSettings.roundWarmupSeconds;
    if (warmup > 0) {
      await drive({ baseURL, paths, headers, seconds: warmup });
      await quiet(state);
    }
    state.rss.start();
    run.throughput = await drive({ baseURL, paths, headers, seconds: runSettings.roundSeconds });
  }
  run.rssMaxMb = state.rss.stop();
  const t = (run.throughput ?? run.single) as LoadResult;
  log(
    `round ${roundIndex + 1} ${state.side.label}: ${endpoint.label} ${t.requestsPerSecond} req/s  p50 ${t.latencyMs.p50} ms  ` +
      `p99 ${t.latencyMs.p99} ms${run.single ? ` (1 connection, ${t.requests} requests)` : ""}  RSS ${run.rssMaxMb} MB` +
      `${t.non2xx + t.errors > 0 ? `  non-2xx ${t.non2xx}, errors ${t.errors}` : ""}`,
  );
  return run;
}

/** A round whose requests left later than this (p99) measured the generator's stalls as much as the server. */
const lateGeneratorMs = 3;

async function measureFixedRate(
  state: SideState,
  run: EndpointRun,
  roundIndex: number,
  generator: PacedGenerator,
): Promise<void> {
  const endpoint = measuredEndpoints.find((candidate) => candidate.id === run.endpoint);
  if (!endpoint || endpoint.group === "heavy" || run.status !== 200) return;
  const rate = endpoint.fixedRate ?? runSettings.fixedRate;
  const latencies = state.fixedRateLatencies[endpoint.id] ?? [];
  state.fixedRateLatencies[endpoint.id] = latencies;
  const { baseURL, metricsToken } = state.side.server;
  const paced = {
    baseURL,
    paths: endpoint.paths(state.side.fixtures),
    headers: state.headers,
    rate,
    timeoutSeconds: runSettings.requestTimeoutSeconds,
  };
  await quiet(state);
  // The server sat idle while the other servers took their turns, long enough for V8 to give back the young
  // generation and the pages behind it; its first half-second at the rate pays that back (docs/operations.md, "The
  // paced run after a quiet spell"). Like the flat-out runs' round warm-up, it is sent and not counted, so the
  // measured seconds are the rate's steady state.
  if (runSettings.roundWarmupSeconds > 0) await generator.drive({ seconds: runSettings.roundWarmupSeconds, ...paced });
  const before = metricsToken ? await readServerLatencies(baseURL, metricsToken) : undefined;
  state.rss.start();
  const answer = await generator.drive({ seconds: runSettings.roundSeconds, ...paced });
  run.rssMaxMb = Math.max(run.rssMaxMb, state.rss.stop());
  const server =
    before && metricsToken ? latenciesBetween(before, await readServerLatencies(baseURL, metricsToken)) : undefined;
  run.fixedRate = answer.result;
  latencies.push(...answer.latencies);
  run.fixedRateSlow = slowRequests(answer.latencies, server);
  const late = run.fixedRate.sentLateMs;
  log(
    `round ${roundIndex + 1} ${state.side.label}: ${endpoint.label} at ${rate} req/s: ${run.fixedRate.requestsPerSecond} ` +
      `req/s served, p50 ${run.fixedRate.latencyMs.p50} ms  p99 ${run.fixedRate.latencyMs.p99} ms  ` +
      `sent late: p99 ${late?.p99} ms, max ${late?.max} ms${(late?.p99 ?? 0) > lateGeneratorMs ? " (generator late)" : ""}  ` +
      run.fixedRateSlow
        .map(
          (slow) =>
            `over ${slow.overMs} ms: ${slow.generator}${slow.server === undefined ? "" : ` / server ${slow.server}`}`,
        )
        .join(", "),
  );
}

/** p99 of every request of every round, taken together (the same rank rule as paced-load.ts). */
export function pooledP99(latencies: readonly number[]): number {
  return rankOf(
    [...latencies].sort((left, right) => left - right),
    0.99,
  );
}

export async function runInterleaved(sides: readonly Side[]): Promise<InterleavedRuns> {
  const states: SideState[] = sides.map((side) => ({
    side,
    headers: side.token ? { authorization: `Bearer ${side.token}` } : ({} as Record<string, string>),
    rss: rssSampler(side.server.appPid),
    rssIdleMb: round(rssMb(side.server.appPid) ?? 0),
    first: {},
    rounds: [],
    fixedRateLatencies: {},
  }));
  for (const state of states) await firstAnswers(state);
  const generator = await startPacedGenerator();
  try {
    return await measureRounds(states, generator);
  } finally {
    generator.stop();
  }
}

async function measureRounds(states: SideState[], generator: PacedGenerator): Promise<InterleavedRuns> {
  const schedule = interleavingSchedule(
    states.map((state) => state.side.label),
    runSettings.rounds,
  );
  log(
    `${runSettings.rounds} round(s) of ${round(runSettings.roundSeconds, 2)} s per endpoint and server, in turn: ` +
      schedule.map((order, index) => `round ${index + 1} ${order.join(" → ")}`).join("; "),
  );
  for (let roundIndex = 0; roundIndex < runSettings.rounds; roundIndex++) {
    const runs = states.map(() => ({}) as Record<string, EndpointRun>);
    for (const endpoint of measuredEndpoints) {
      for (const state of interleavingOrder(states, roundIndex)) {
        const run = await measureTurn(state, endpoint, roundIndex);
        if (run) (runs[states.indexOf(state)] as Record<string, EndpointRun>)[endpoint.id] = run;
      }
    }
    for (const [index, state] of states.entries()) {
      if (!state.side.fixedRate) continue;
      for (const run of Object.values(runs[index] as Record<string, EndpointRun>)) {
        await measureFixedRate(state, run, roundIndex, generator);
      }
    }
    for (const [index, state] of states.entries()) {
      const roundRuns = runs[index] as Record<string, EndpointRun>;
      state.rounds.push({
        label: state.side.label,
        database: state.side.database,
        runs: roundRuns,
        rssIdleMb: state.rssIdleMb,
        rssMaxMb: Math.max(0, ...Object.values(roundRuns).map((run) => run.rssMaxMb)),
      });
    }
  }
  for (const state of states) await quiet(state);
  return {
    rounds: states.map((state) => state.rounds),
    pooledFixedRate: states.map((state) =>
      Object.fromEntries(
        Object.entries(state.fixedRateLatencies).map(([id, latencies]) => [
          id,
          { requests: latencies.length, p99Ms: pooledP99(latencies) },
        ]),
      ),
    ),
  };
}
