import type { EndpointRun, ServerRun } from "./endpoints.js";
import { type LoadResult, round } from "./load.js";
import { median, type Spread, spreadOf } from "./rounds.js";

/**
 * The figures the targets judge, taken round by round from the interleaved runs (interleave.ts): a ratio is formed
 * within each round, from two servers measured seconds apart, and only then reduced to its median and spread — never
 * a ratio of two medians taken minutes apart.
 */

/** What an endpoint run measured: the throughput run, or the single-connection run of a heavy read. */
export const measuredOf = (run: EndpointRun | undefined): LoadResult | undefined => run?.throughput ?? run?.single;

/** One value per round from a pair of servers measured in the same rounds (undefined where either lacks it). */
function perRound(
  left: readonly ServerRun[],
  right: readonly ServerRun[],
  value: (left: ServerRun, right: ServerRun) => number | undefined,
): Spread | undefined {
  return spreadOf(left.map((run, index) => (right[index] ? value(run, right[index] as ServerRun) : undefined)));
}

/** Vigil's throughput ÷ the baseline's, round by round (chrome, list and detail reads). */
export function shareRounds(vigil: readonly ServerRun[], baseline: readonly ServerRun[], endpoint: string) {
  return perRound(vigil, baseline, (mine, bare) => {
    const ours = mine.runs[endpoint]?.throughput;
    const theirs = bare.runs[endpoint]?.throughput;
    return ours && theirs && theirs.requestsPerSecond > 0
      ? ours.requestsPerSecond / theirs.requestsPerSecond
      : undefined;
  });
}

/** PostgreSQL's throughput ÷ PGlite's on the same tenth, round by round. */
export function pgliteRatioRounds(tenth: readonly ServerRun[], pglite: readonly ServerRun[], endpoint: string) {
  return perRound(tenth, pglite, (onPostgres, onPglite) => {
    const postgres = measuredOf(onPostgres.runs[endpoint]);
    const embedded = measuredOf(onPglite.runs[endpoint]);
    return postgres && embedded && embedded.requestsPerSecond > 0
      ? postgres.requestsPerSecond / embedded.requestsPerSecond
      : undefined;
  });
}

/** A load figure of one server's endpoint, round by round (e.g. the fixed-rate p99, a heavy read's p50). */
export function figureRounds(
  runs: readonly ServerRun[],
  endpoint: string,
  figure: (run: EndpointRun) => number | undefined,
): Spread | undefined {
  return spreadOf(runs.map((run) => (run.runs[endpoint] ? figure(run.runs[endpoint] as EndpointRun) : undefined)));
}

function medianLoad(results: LoadResult[]): LoadResult | undefined {
  if (results.length === 0) return undefined;
  const of = (figure: (result: LoadResult) => number) => round(median(results.map(figure)), 2);
  return {
    requests: results.reduce((sum, result) => sum + result.requests, 0),
    requestsPerSecond: of((result) => result.requestsPerSecond),
    latencyMs: {
      mean: of((result) => result.latencyMs.mean),
      p50: of((result) => result.latencyMs.p50),
      p90: of((result) => result.latencyMs.p90),
      p99: of((result) => result.latencyMs.p99),
      max: Math.max(...results.map((result) => result.latencyMs.max)),
    },
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    timeouts: results.reduce((sum, result) => sum + result.timeouts, 0),
    durationSeconds: round(
      results.reduce((sum, result) => sum + result.durationSeconds, 0),
      1,
    ),
  };
}

/**
 * One server's rounds folded into one run for the tables: each figure the median of its rounds, the requests,
 * errors and seconds summed, the latency max and RSS the highest seen in any round.
 */
export function medianRun(runs: readonly ServerRun[]): ServerRun {
  const first = runs[0];
  if (!first) throw new Error("medianRun needs at least one round");
  const ids = [...new Set(runs.flatMap((run) => Object.keys(run.runs)))];
  const folded: Record<string, EndpointRun> = {};
  for (const id of ids) {
    const rounds = runs.map((run) => run.runs[id]).filter((run): run is EndpointRun => run !== undefined);
    const sample = rounds[0] as EndpointRun;
    const load = (pick: (run: EndpointRun) => LoadResult | undefined) =>
      medianLoad(rounds.map(pick).filter((result): result is LoadResult => result !== undefined));
    const throughput = load((run) => run.throughput);
    const single = load((run) => run.single);
    const fixedRate = load((run) => run.fixedRate);
    folded[id] = {
      endpoint: id,
      status: sample.status,
      bytes: sample.bytes,
      ...(sample.rowsPerAnswer !== undefined ? { rowsPerAnswer: sample.rowsPerAnswer } : {}),
      ...(throughput ? { throughput } : {}),
      ...(single ? { single } : {}),
      ...(fixedRate ? { fixedRate } : {}),
      rssMaxMb: Math.max(...rounds.map((run) => run.rssMaxMb)),
      ...(sample.coveredTimeLogs !== undefined ? { coveredTimeLogs: sample.coveredTimeLogs } : {}),
    };
  }
  return {
    label: first.label,
    database: first.database,
    runs: folded,
    rssIdleMb: first.rssIdleMb,
    rssMaxMb: Math.max(...runs.map((run) => run.rssMaxMb)),
  };
}
