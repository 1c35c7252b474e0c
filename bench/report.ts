import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { pgliteDataDir, repoRoot, runSettings, smallDatabase } from "./config.js";
import { endpoints, measuredEndpoints, type ServerRun } from "./endpoints.js";
import type { Rounds, TargetCheck } from "./evaluate-targets.js";
import { describeFanOut, type FanOutRun } from "./event-fan-out.js";
import { describeRatio, type Growth } from "./growth.js";
import type { PooledFixedRate } from "./interleave.js";
import { round } from "./load.js";
import { figureRounds, measuredOf, medianRun, pgliteRatioRounds, shareRounds } from "./round-figures.js";
import { describeRange, type Spread } from "./rounds.js";
import type { WebSizes } from "./web-size.js";

function table(header: string[], rows: (string | number)[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => String(row[column] ?? "").length)),
  );
  const line = (cells: (string | number)[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? String(cell).padEnd(widths[column] as number) : String(cell).padStart(widths[column] as number),
      )
      .join("  ");
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

/** Where the bench ran: the revision (and whether it had uncommitted changes), the CPUs, memory and Node. */
export function machineInfo() {
  const cpus = os.cpus();
  const git = (args: string[]) => {
    try {
      return execFileSync("git", args, { cwd: repoRoot, encoding: "utf8" }).trim();
    } catch {
      return "unknown";
    }
  };
  return {
    git: { revision: git(["rev-parse", "HEAD"]), dirty: git(["status", "--porcelain"]).length > 0 },
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? "unknown",
    memoryGiB: round(os.totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

export type Machine = ReturnType<typeof machineInfo>;
const cell = (value: number | undefined, suffix = "") => (value === undefined ? "–" : `${value}${suffix}`);
const percentOf = (share: number) => `${(share * 100).toFixed(0)}%`;
const times = (value: number) => `${value.toFixed(2)}×`;
const ms = (value: number) => `${round(value)}`;
/** A median with its spread in one cell: `79% (73–85)`; one round is its figure alone. */
const withRange = (spread: Spread | undefined, format: (value: number) => string) =>
  spread ? `${format(spread.median)}${spread.rounds.length > 1 ? ` (${describeRange(spread, format)})` : ""}` : "–";

export type Dataset = { cases: number; logs: number; version: string };

/**
 * The printed report: the server against the baseline, PGlite against PostgreSQL, the growth from the tenth to the
 * full data, the web build, the targets. Every figure is the median of the interleaved rounds; a ratio is the
 * median of the rounds' own ratios, with the lowest and highest round in brackets.
 */
export function printReport(report: {
  started: Date;
  machine: Machine;
  dataset: Dataset;
  rounds: Rounds;
  pooledFixedRate: Record<string, PooledFixedRate>;
  growth: Growth[];
  tenthCases: number;
  web: WebSizes;
  checks: TargetCheck[];
  fanOut?: FanOutRun;
}): void {
  const { started, machine, dataset, rounds, growth, web, checks } = report;
  const vigil = medianRun(rounds.vigil);
  const baseline = medianRun(rounds.baseline);
  const pglite = rounds.pglite ? medianRun(rounds.pglite) : undefined;
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log(
    `\n=== Vigil benchmark ${started.toISOString()} — ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, ` +
      `git ${machine.git.revision.slice(0, 10)}${machine.git.dirty ? " (uncommitted changes)" : ""}`,
  );
  console.log(
    `Data: ${dataset.cases.toLocaleString("en-US")} cases, ${dataset.logs.toLocaleString("en-US")} time logs on ${dataset.version.split(" on ")[0]}; ` +
      `${runSettings.connections} connections, no pipelining; ${runSettings.rounds} interleaved round(s) of ` +
      `${round(runSettings.roundSeconds, 2)} s per endpoint and server (${runSettings.warmupSeconds} s warm-up in the first, ` +
      `${runSettings.roundWarmupSeconds} s in the others and before each fixed-rate run)`,
  );
  console.log(
    "Figures: the median of the rounds; (a–b) the lowest and highest round. A ratio is formed within each round " +
      "(servers measured seconds apart), then its median taken; a target is met when the median meets it.\n",
  );
  if (measuredEndpoints.length < endpoints.length) {
    console.log(
      `BENCH_ONLY: ${measuredEndpoints.map((endpoint) => endpoint.id).join(", ")} measured, no other endpoint\n`,
    );
  }
  console.log(`PostgreSQL, ${dataset.cases.toLocaleString("en-US")} cases: the real server against the bare baseline`);
  console.log(
    table(
      [
        "endpoint",
        "load",
        "req/s",
        "p50 ms",
        "p99 ms",
        "baseline req/s",
        "base p50",
        "share (min–max)",
        `p99 @${runSettings.fixedRate}/s (min–max)`,
        "all rounds' p99",
        "over 25 ms: sent / in server",
        "RSS max MB",
      ],
      measuredEndpoints.map((endpoint) => {
        const run = vigil.runs[endpoint.id];
        const mine = measuredOf(run);
        const bare = measuredOf(baseline.runs[endpoint.id]);
        const rate = endpoint.fixedRate ?? runSettings.fixedRate;
        const p99 = figureRounds(rounds.vigil, endpoint.id, (candidate) => candidate.fixedRate?.latencyMs.p99);
        const pooled = report.pooledFixedRate[endpoint.id];
        return [
          endpoint.label,
          run?.single ? `1 conn × ${runSettings.heavyRequestsPerRound}/round` : `${runSettings.connections} conn`,
          cell(mine?.requestsPerSecond),
          cell(mine?.latencyMs.p50),
          cell(mine?.latencyMs.p99),
          cell(bare?.requestsPerSecond),
          cell(bare?.latencyMs.p50),
          endpoint.group === "heavy"
            ? "–"
            : withRange(shareRounds(rounds.vigil, rounds.baseline, endpoint.id), percentOf),
          run?.fixedRate
            ? `${withRange(p99, ms)}${endpoint.fixedRate ? ` @${endpoint.fixedRate}/s` : ""}${run.fixedRate.requestsPerSecond < rate * 0.95 ? ` (${run.fixedRate.requestsPerSecond}/s)` : ""}`
            : "–",
          pooled ? `${pooled.p99Ms} (${pooled.requests} req)` : "–",
          slowOverRounds(rounds.vigil, endpoint.id, 25),
          cell(run?.rssMaxMb),
        ];
      }),
    ),
  );
  console.log(
    `App process RSS before load / max under load (any round): Vigil on PostgreSQL ${vigil.rssIdleMb} / ${vigil.rssMaxMb} MB, ` +
      `baseline ${baseline.rssIdleMb} / ${baseline.rssMaxMb} MB` +
      (pglite ? `, Vigil on PGlite ${pglite.rssIdleMb} / ${pglite.rssMaxMb} MB` : ""),
  );
  if (report.fanOut) console.log(describeFanOut(report.fanOut));
  if (rounds.pglite) printPgliteAgainstPostgres(rounds.tenth, rounds.pglite);
  else console.log("\nPGlite was not measured (BENCH_PGLITE=0).");
  const count = (value: number) => value.toLocaleString("en-US");
  console.log(
    `\nGrowth: ${count(report.tenthCases)} → ${count(dataset.cases)} cases (PostgreSQL both, interleaved; the throughput ` +
      "run's p50, the single run's for the heavy reads; the means where a p50 is 1 ms or less; median of the rounds' ratios)",
  );
  console.log(
    table(
      [
        "endpoint",
        "compared",
        "tenth ms",
        "full ms",
        "growth (min–max)",
        "rows per answer: tenth",
        "full",
        "time logs covered: tenth",
        "full",
        "ratio",
      ],
      growth.map((grown) => [
        grown.label,
        grown.basis,
        grown.tenthMs,
        grown.fullMs,
        `${grown.spread ? withRange(grown.spread, times) : describeRatio(grown.ratio)}${grown.comparable ? "" : " (not judged: the answers differ in rows)"}`,
        grown.rowsPerAnswer ? grown.rowsPerAnswer.tenth : "–",
        grown.rowsPerAnswer ? grown.rowsPerAnswer.full : "–",
        grown.coveredTimeLogs ? count(grown.coveredTimeLogs.tenth) : "–",
        grown.coveredTimeLogs ? count(grown.coveredTimeLogs.full) : "–",
        grown.coveredTimeLogs ? describeRatio(grown.coveredTimeLogs.ratio) : "–",
      ]),
    ),
  );
  console.log(`\nWeb build (${web.buildDir}): JavaScript per route, gzip`);
  console.log(
    `signed-in shell (entry + static imports): ${kb(web.shell.gzipBytes)} KB gzip, ${kb(web.shell.rawBytes)} KB raw, ${web.shell.files.length} files`,
  );
  console.log(
    table(
      ["route", "route KB gzip", "with shell KB"],
      web.routes.map((route) => [route.page, kb(route.gzipBytes), kb(route.withShellGzipBytes)]),
    ),
  );
  console.log(`\nTargets (median of ${runSettings.rounds} round(s); in brackets the lowest–highest round)`);
  for (const check of checks) {
    console.log(`${check.pass ? "PASS" : "MISS"}  ${check.target} — ${check.subject}: ${check.value} (${check.limit})`);
    if (check.cause) console.log(`      likely cause: ${check.cause}`);
  }
}

function printPgliteAgainstPostgres(tenth: ServerRun[], pglite: ServerRun[]): void {
  const onPostgresRuns = medianRun(tenth);
  const onPgliteRuns = medianRun(pglite);
  console.log(
    `\nPGlite against PostgreSQL on the same tenth (${smallDatabase} and ${path.relative(repoRoot, pgliteDataDir)}), interleaved`,
  );
  console.log(
    table(
      [
        "endpoint",
        "PostgreSQL req/s",
        "PGlite req/s",
        "ratio (min–max)",
        "PG p50",
        "PGlite p50",
        "PG RSS MB",
        "PGlite RSS MB",
      ],
      measuredEndpoints.map((endpoint) => {
        const onPostgres = measuredOf(onPostgresRuns.runs[endpoint.id]);
        const onPglite = measuredOf(onPgliteRuns.runs[endpoint.id]);
        return [
          endpoint.label,
          cell(onPostgres?.requestsPerSecond),
          cell(onPglite?.requestsPerSecond),
          withRange(pgliteRatioRounds(tenth, pglite, endpoint.id), times),
          cell(onPostgres?.latencyMs.p50),
          cell(onPglite?.latencyMs.p50),
          cell(onPostgresRuns.runs[endpoint.id]?.rssMaxMb),
          cell(onPgliteRuns.runs[endpoint.id]?.rssMaxMb),
        ];
      }),
    ),
  );
}

/**
 * The targets as a markdown table (bench-results/bench-<timestamp>.md), to paste beside earlier runs: each figure
 * is the median of the rounds, with the lowest and highest round in its own column.
 */
export function markdownReport(report: {
  started: Date;
  machine: Machine;
  dataset: Dataset;
  checks: TargetCheck[];
}): string {
  const { started, machine, dataset, checks } = report;
  const cellText = (text: string) => text.replace(/\|/g, "\\|");
  const lines = [
    `# Vigil benchmark ${started.toISOString()}`,
    "",
    `${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, git ` +
      `${machine.git.revision.slice(0, 10)}${machine.git.dirty ? " (uncommitted changes)" : ""}; ` +
      `${dataset.cases.toLocaleString("en-US")} cases on ${dataset.version.split(" on ")[0]}; ` +
      `${runSettings.rounds} interleaved round(s) of ${round(runSettings.roundSeconds, 2)} s per endpoint and server.`,
    "",
    "Each figure is the median of the rounds (a ratio: of the ratios formed within each round); the spread is the " +
      "lowest and highest round. A target is met when the median meets it.",
    "",
    "| result | target | subject | median (spread, rounds) | limit |",
    "| --- | --- | --- | --- | --- |",
    ...checks.map(
      (check) =>
        `| ${check.pass ? "PASS" : "MISS"} | ${cellText(check.target)} | ${cellText(check.subject)} | ${cellText(check.value)} | ${cellText(check.limit)} |`,
    ),
    "",
  ];
  return lines.join("\n");
}

/**
 * A paced read's requests over `overMs` in all rounds: as the generator timed them (from their due time) and as the
 * server's histogram did (arrival to answer). The gap is time spent outside the server.
 */
function slowOverRounds(runs: readonly ServerRun[], endpoint: string, overMs: number): string {
  const counts = runs.flatMap(
    (run) => run.runs[endpoint]?.fixedRateSlow?.filter((slow) => slow.overMs === overMs) ?? [],
  );
  if (counts.length === 0) return "–";
  const generator = counts.reduce((sum, slow) => sum + slow.generator, 0);
  const server = counts.every((slow) => slow.server !== undefined)
    ? String(counts.reduce((sum, slow) => sum + (slow.server ?? 0), 0))
    : "?";
  return `${generator} / ${server}`;
}
