import pg from "pg";
import { targets } from "./config.js";
import {
  type EndpointRun,
  type Fixtures,
  type Group,
  type LogWindow,
  measuredEndpoints,
  type ServerRun,
} from "./endpoints.js";
import { type LoadResult, round } from "./load.js";
import { median, type Spread, spreadOf } from "./rounds.js";

/**
 * How each read grows with the data: its p50 on the full data set ÷ its p50 on the tenth, both on PostgreSQL (the
 * throughput run's p50, the single run's for the heavy reads). A p50 of a millisecond or less says nothing (it is
 * autocannon's resolution): then the means are compared, and with no mean either the growth is "n/a".
 *
 * A growth says how a read copes with ten times the history only when both answers carry the same rows: a page of
 * one client's board holds 3 rows on the tenth and 28 on the full data (its open cases are a tenth too), and such a
 * read is slower for answering more, not for the data behind it. A list whose answers differ by more than a tenth in
 * rows keeps its figures but is not judged (`comparable`).
 */

export type Growth = {
  endpoint: string;
  label: string;
  group: Group;
  /** Which figure was compared. */
  basis: "p50" | "mean" | "n/a";
  tenthMs: number;
  fullMs: number;
  /** fullMs ÷ tenthMs, null for "n/a"; over several rounds, the median of the rounds' ratios. */
  ratio: number | null;
  /** Over several rounds: the ratio's median and spread (rounds with no ratio left out). */
  spread?: Spread;
  /** Heavy reads: the time logs one request covers on each data set, and their ratio. */
  coveredTimeLogs?: { tenth: number; full: number; ratio: number | null };
  /** List reads: the rows an answer carries on each data set (the mean over the endpoint's paths). */
  rowsPerAnswer?: { tenth: number; full: number };
  /** False when the two data sets' answers differ by more than a tenth in rows: the growth is not judged. */
  comparable: boolean;
};

/** The largest difference in rows per answer at which two reads are still the same read. */
const comparableRowsShare = 0.1;

function rowsCompared(fullRun: EndpointRun | undefined, tenthRun: EndpointRun | undefined) {
  const full = fullRun?.rowsPerAnswer;
  const tenth = tenthRun?.rowsPerAnswer;
  if (full === undefined || tenth === undefined) return { comparable: true };
  const larger = Math.max(full, tenth);
  const comparable = larger === 0 || Math.abs(full - tenth) / larger <= comparableRowsShare;
  return { rowsPerAnswer: { tenth, full }, comparable };
}

function latencyOf(group: Group, run: ServerRun["runs"][string] | undefined): LoadResult | undefined {
  return group === "heavy" ? run?.single : run?.throughput;
}

export function growthOf(full: ServerRun, tenth: ServerRun): Growth[] {
  return measuredEndpoints.flatMap((endpoint): Growth[] => {
    const onFull = latencyOf(endpoint.group, full.runs[endpoint.id]);
    const onTenth = latencyOf(endpoint.group, tenth.runs[endpoint.id]);
    if (!onFull || !onTenth) return [];
    const minimum = targets.growthMinP50Ms;
    const [basis, fullMs, tenthMs]: [Growth["basis"], number, number] =
      onFull.latencyMs.p50 > minimum && onTenth.latencyMs.p50 > minimum
        ? ["p50", onFull.latencyMs.p50, onTenth.latencyMs.p50]
        : onFull.latencyMs.mean > 0 && onTenth.latencyMs.mean > 0
          ? ["mean", onFull.latencyMs.mean, onTenth.latencyMs.mean]
          : ["n/a", onFull.latencyMs.p50, onTenth.latencyMs.p50];
    const fullLogs = full.runs[endpoint.id]?.coveredTimeLogs;
    const tenthLogs = tenth.runs[endpoint.id]?.coveredTimeLogs;
    return [
      {
        endpoint: endpoint.id,
        label: endpoint.label,
        group: endpoint.group,
        basis,
        tenthMs,
        fullMs,
        ratio: basis === "n/a" ? null : round(fullMs / tenthMs, 2),
        ...rowsCompared(full.runs[endpoint.id], tenth.runs[endpoint.id]),
        ...(fullLogs !== undefined && tenthLogs !== undefined
          ? {
              coveredTimeLogs: {
                tenth: tenthLogs,
                full: fullLogs,
                ratio: tenthLogs > 0 ? round(fullLogs / tenthLogs, 2) : null,
              },
            }
          : {}),
      },
    ];
  });
}

/**
 * The growth over interleaved rounds: each round's ratio of the full data's server to the tenth's, measured in the
 * same round, then their median and spread; the compared figures are the rounds' medians, the basis the one most
 * rounds used, the time logs covered those counted on the first round.
 */
export function growthAcrossRounds(full: readonly ServerRun[], tenth: readonly ServerRun[]): Growth[] {
  const perRound = full.map((run, index) => (tenth[index] ? growthOf(run, tenth[index] as ServerRun) : []));
  const first = perRound[0] ?? [];
  return first.map((grown) => {
    const rounds = perRound.flatMap((growths) => growths.filter((candidate) => candidate.endpoint === grown.endpoint));
    const spread = spreadOf(rounds.map((candidate) => candidate.ratio));
    const bases = rounds.filter((candidate) => candidate.ratio !== null).map((candidate) => candidate.basis);
    const basis = [...bases].sort(
      (left, right) => bases.filter((b) => b === right).length - bases.filter((b) => b === left).length,
    )[0] as Growth["basis"];
    return {
      ...grown,
      basis: spread && basis ? basis : "n/a",
      tenthMs: round(median(rounds.map((candidate) => candidate.tenthMs)), 2),
      fullMs: round(median(rounds.map((candidate) => candidate.fullMs)), 2),
      ratio: spread ? round(spread.median, 2) : null,
      ...(spread ? { spread } : {}),
    };
  });
}

/** `1.23×`, or "n/a". */
export function describeRatio(ratio: number | null): string {
  return ratio === null ? "n/a" : `${ratio.toFixed(2)}×`;
}

/**
 * The time logs (not deleted) each measured heavy read covers on one PostgreSQL database, with the fixtures its
 * requests used, kept on its run (`coveredTimeLogs`, the mean over the windows the requests take in turn).
 */
export async function countCoveredTimeLogs(url: string, run: ServerRun, fixtures: Fixtures): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const count = async (window: LogWindow) => {
      const { rows } = await client.query(
        `select count(*)::int as logs
           from case_time_logs l
           join cases c on c.id = l.case_id
          where not l.deleted
            and l.started_at < $2::timestamptz
            and coalesce(l.ended_at, now()) > $1::timestamptz
            and ($3::uuid is null or c.client_id = $3::uuid)`,
        [`${window.from}T00:00:00Z`, `${window.to}T00:00:00Z`, window.clientId ?? null],
      );
      return (rows[0] as { logs: number }).logs;
    };
    for (const endpoint of measuredEndpoints) {
      const measured = run.runs[endpoint.id];
      if (!endpoint.covers || !measured?.single) continue;
      const windows = endpoint.covers(fixtures);
      if (windows.length === 0) continue;
      let total = 0;
      for (const window of windows) total += await count(window);
      measured.coveredTimeLogs = Math.round(total / windows.length);
    }
  } finally {
    await client.end();
  }
}
