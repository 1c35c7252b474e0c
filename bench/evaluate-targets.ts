import os from "node:os";
import path from "node:path";
import type { PlanCheck } from "./check-plans.js";
import { runSettings, targets } from "./config.js";
import { type Endpoint, endpoints, type ServerRun } from "./endpoints.js";
import { describeRatio, type Growth } from "./growth.js";
import { round } from "./load.js";
import { figureRounds, measuredOf, medianRun, pgliteRatioRounds, shareRounds } from "./round-figures.js";
import { describeSpread, meetsByMedian, type Spread } from "./rounds.js";
import type { WebSizes } from "./web-size.js";

/**
 * The bench's targets (config.ts) judged against the interleaved rounds: PASS or MISS by the median of the rounds'
 * figures (a ratio formed within each round), with the spread beside it, and for a miss its likely cause. Server RSS
 * is the highest of any round, not a median: its target is a ceiling.
 */

export type TargetCheck = {
  target: string;
  subject: string;
  value: string;
  limit: string;
  pass: boolean;
  cause?: string;
  /** A figure measured once per round: its median (what `pass` judges), the lowest and highest round. */
  spread?: Spread;
};

function causeOf(
  endpoint: Endpoint,
  plans: PlanCheck[],
  options: { pipelineMs?: number; p50Ms?: number } = {},
): string {
  const related = plans.filter((check) => endpoint.scenarios.includes(check.scenario));
  const scans = related.flatMap((check) => check.seqScans.map((scan) => ({ check, scan })));
  const slowest = [...related].sort((left, right) => right.ms - left.ms)[0];
  const parts: string[] = [];
  if (scans.length > 0) {
    const described = scans
      .slice(0, 3)
      .map(
        ({ scan }) =>
          `Seq Scan on ${scan.relation}${scan.filter ? ` (${scan.filter.slice(0, 100)}…)` : ""}: ${scan.why}`,
      );
    parts.push(`plan: ${described.join(" | ")}`);
  }
  if (slowest && slowest.ms >= 5) parts.push(`slowest statement ${slowest.ms} ms: ${slowest.sql.slice(0, 140)}…`);
  if (options.p50Ms !== undefined && related.length > 0) {
    const sqlMs = Math.round(related.reduce((sum, check) => sum + check.ms, 0));
    if (sqlMs < options.p50Ms * 0.6) {
      parts.push(
        `its ${related.length} statements took ${sqlMs} ms in all when the plans were captured, of a ${options.p50Ms} ms ` +
          "request: most of the time is computed in the server process, not in PostgreSQL",
      );
    }
  }
  if (options.pipelineMs !== undefined) {
    parts.push(
      `the request pipeline adds ~${options.pipelineMs} ms at p50 (ES256 token check and session lookup, zod validation and response schema${
        endpoint.group === "chrome" ? "" : ", the patient-data audit insert"
      })`,
    );
  }
  return parts.join("; ") || "no plan problem found; see the per-endpoint figures";
}

const percent = (share: number) => `${Math.round(share * 100)}%`;
const count = (value: number) => value.toLocaleString("en-US");

/** The share of the baseline's throughput an endpoint must reach: its own, else the list and detail reads'. */
export function throughputShareOf(endpoint: Endpoint): number {
  return endpoint.throughputShare ?? targets.throughputShareOfBaseline;
}

/** The servers' rounds, interleaved (interleave.ts): the same count each, round i of one beside round i of another. */
export type Rounds = {
  vigil: ServerRun[];
  baseline: ServerRun[];
  tenth: ServerRun[];
  pglite?: ServerRun[];
};

const ms = (value: number) => `${round(value)} ms`;
const times = (value: number) => `${value.toFixed(2)}×`;
const percentOf = (share: number) => `${(share * 100).toFixed(0)}%`;

export function evaluate(
  rounds: Rounds,
  web: WebSizes,
  plans: PlanCheck[],
  growth: { growth: Growth[]; fullCases: number; tenthCases: number },
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const vigil = medianRun(rounds.vigil);
  const baseline = medianRun(rounds.baseline);
  const pglite = rounds.pglite ? medianRun(rounds.pglite) : undefined;
  for (const endpoint of endpoints) {
    const run = vigil.runs[endpoint.id];
    const bare = baseline.runs[endpoint.id];
    const share = endpoint.group === "heavy" ? undefined : shareRounds(rounds.vigil, rounds.baseline, endpoint.id);
    if (share && run?.throughput && bare?.throughput) {
      const limit = throughputShareOf(endpoint);
      const pass = meetsByMedian(share, limit, "at-least");
      checks.push({
        target: `throughput ≥ ${percent(limit)} of the baseline`,
        subject: endpoint.label,
        value: `${describeSpread(share, percentOf)}; median ${run.throughput.requestsPerSecond} of ${bare.throughput.requestsPerSecond} req/s`,
        limit: `≥ ${percent(limit)}`,
        pass,
        spread: share,
        ...(pass
          ? {}
          : {
              cause: causeOf(endpoint, plans, {
                pipelineMs: round(run.throughput.latencyMs.p50 - bare.throughput.latencyMs.p50),
              }),
            }),
      });
    }
    const p99 = figureRounds(rounds.vigil, endpoint.id, (candidate) => candidate.fixedRate?.latencyMs.p99);
    if ((endpoint.group === "list" || endpoint.group === "detail") && run?.fixedRate && p99) {
      const rate = endpoint.fixedRate ?? runSettings.fixedRate;
      // The rate it kept up with, in the median round: below 95% of the rate asked, requests were left waiting.
      const kept = run.fixedRate.requestsPerSecond >= rate * 0.95;
      const pass = meetsByMedian(p99, targets.fixedRateP99Ms, "at-most") && run.fixedRate.non2xx === 0 && kept;
      checks.push({
        target: `p99 at ${rate} req/s (PostgreSQL)`,
        subject: endpoint.label,
        value: `${describeSpread(p99, ms)}${kept ? "" : ` (only ${run.fixedRate.requestsPerSecond} req/s served)`}`,
        limit: `≤ ${targets.fixedRateP99Ms} ms`,
        pass,
        spread: p99,
        ...(pass
          ? {}
          : {
              cause:
                (run.throughput
                  ? `${rate} req/s is ${Math.round((rate / run.throughput.requestsPerSecond) * 100)}% ` +
                    `of the ${run.throughput.requestsPerSecond} req/s it serves flat out here (the load generator, the app ` +
                    `and PostgreSQL share ${os.cpus().length} cores), so requests queue; `
                  : "") + causeOf(endpoint, plans),
            }),
      });
    }
    const p50 = figureRounds(rounds.vigil, endpoint.id, (candidate) => candidate.single?.latencyMs.p50);
    if (endpoint.group === "heavy" && p50 && endpoint.p50TargetMs !== undefined) {
      const pass = meetsByMedian(p50, endpoint.p50TargetMs, "at-most");
      checks.push({
        target: `heavy read p50 ≤ ${endpoint.p50TargetMs} ms (${count(growth.fullCases)} cases, one request at a time)`,
        subject: endpoint.label,
        value: describeSpread(p50, ms),
        limit: `≤ ${endpoint.p50TargetMs} ms`,
        pass,
        spread: p50,
        ...(pass ? {} : { cause: causeOf(endpoint, plans, { p50Ms: p50.median }) }),
      });
    }
    const grown = growth.growth.find((candidate) => candidate.endpoint === endpoint.id);
    if (grown?.comparable && (endpoint.group === "list" || endpoint.group === "detail")) {
      const pass = grown.ratio === null || grown.ratio <= targets.growthRatio;
      checks.push({
        target: `growth ${count(growth.tenthCases)} → ${count(growth.fullCases)} cases ≤ ${targets.growthRatio}×`,
        subject: endpoint.label,
        value:
          grown.ratio === null
            ? `n/a (p50 ${grown.tenthMs} → ${grown.fullMs} ms, no mean to compare)`
            : `${grown.spread ? describeSpread(grown.spread, times) : describeRatio(grown.ratio)} (median ${grown.basis} ${grown.tenthMs} → ${grown.fullMs} ms)`,
        limit: `≤ ${targets.growthRatio}×`,
        pass,
        ...(grown.spread ? { spread: grown.spread } : {}),
        ...(pass
          ? {}
          : {
              cause:
                `ten times the rows make it ${describeRatio(grown.ratio)} slower: a part of its work grows with the ` +
                `data (a scan, a sort or rows read and computed over in the process); ${causeOf(endpoint, plans)}`,
            }),
      });
    }
    const ratio = rounds.pglite ? pgliteRatioRounds(rounds.tenth, rounds.pglite, endpoint.id) : undefined;
    const onPostgres = measuredOf(medianRun(rounds.tenth).runs[endpoint.id]);
    const onPglite = measuredOf(pglite?.runs[endpoint.id]);
    if (ratio && onPostgres && onPglite) {
      const pass = meetsByMedian(ratio, targets.pgliteRatio, "at-most");
      checks.push({
        target: `PGlite within ${targets.pgliteRatio}× of PostgreSQL (same rows)`,
        subject: endpoint.label,
        value: describeSpread(ratio, times),
        limit: `≤ ${targets.pgliteRatio}×`,
        pass,
        spread: ratio,
        ...(pass
          ? {}
          : {
              cause:
                "PGlite is one connection inside the server's process: concurrent requests queue for it, its " +
                `single-threaded WASM executor shares the app's CPU (median p50 ${onPglite.latencyMs.p50} ms vs ` +
                `${onPostgres.latencyMs.p50} ms on PostgreSQL); ${causeOf(endpoint, plans)}`,
            }),
      });
    }
  }
  for (const run of pglite ? [vigil, pglite] : [vigil]) {
    const pass = run.rssMaxMb <= targets.rssMb;
    const peak = Object.values(run.runs).sort((left, right) => right.rssMaxMb - left.rssMaxMb)[0];
    const peakLabel = endpoints.find((endpoint) => endpoint.id === peak?.endpoint)?.label ?? "?";
    const peakIsHeavy = endpoints.find((endpoint) => endpoint.id === peak?.endpoint)?.group === "heavy";
    checks.push({
      target: "server RSS under load",
      subject: run.label,
      value: `${run.rssMaxMb} MB${rounds.vigil.length > 1 ? ` (highest of ${rounds.vigil.length} rounds)` : ""}`,
      limit: `≤ ${targets.rssMb} MB`,
      pass,
      ...(pass
        ? {}
        : {
            cause:
              `highest during ${peakLabel} (${peak?.rssMaxMb} MB); ${run.rssIdleMb} MB before any load ` +
              "(Node, Fastify, the zod schemas, the database driver)" +
              (run === pglite
                ? "; the embedded database (PGlite's WASM heap and its buffer cache) lives in the same process"
                : "") +
              (peakIsHeavy ? "; the peak comes from rows loaded and computed over in the process for that read" : ""),
          }),
    });
  }
  const shellKb = round(web.shell.gzipBytes / 1024);
  const largest = web.shell.files
    .map((file) => ({ file, bytes: web.shellSizes[file] ?? 0 }))
    .sort((left, right) => right.bytes - left.bytes)
    .slice(0, 4);
  checks.push({
    target: "signed-in shell initial JS (gzip)",
    subject: `${web.shell.files.length} files`,
    value: `${shellKb} KB`,
    limit: `≤ ${targets.shellInitialJsGzipKb} KB`,
    pass: shellKb <= targets.shellInitialJsGzipKb,
    ...(shellKb <= targets.shellInitialJsGzipKb
      ? {}
      : {
          cause: `largest shell files (gzip): ${largest.map(({ file, bytes }) => `${path.basename(file)} ${(bytes / 1024).toFixed(1)} KB`).join(", ")}`,
        }),
  });
  return checks;
}
