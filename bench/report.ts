import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { pgliteDataDir, repoRoot, runSettings, smallDatabase } from "./config.js";
import { type EndpointRun, endpoints, measuredEndpoints, type ServerRun } from "./endpoints.js";
import type { TargetCheck } from "./evaluate-targets.js";
import { describeFanOut, type FanOutRun } from "./event-fan-out.js";
import { describeRatio, type Growth } from "./growth.js";
import { round } from "./load.js";
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
/** What an endpoint run measured: the throughput run, or the single-connection run of a heavy read. */
const measured = (run: EndpointRun | undefined) => run?.throughput ?? run?.single;
const cell = (value: number | undefined, suffix = "") => (value === undefined ? "–" : `${value}${suffix}`);

export type Dataset = { cases: number; logs: number; version: string };

/**
 * The printed report: the server against the baseline, PGlite against PostgreSQL, the growth from the tenth to the
 * full data, the web build, the targets.
 */
export function printReport(report: {
  started: Date;
  machine: Machine;
  dataset: Dataset;
  vigil: ServerRun;
  baseline: ServerRun;
  tenth: ServerRun;
  pglite: ServerRun | undefined;
  growth: Growth[];
  tenthCases: number;
  web: WebSizes;
  checks: TargetCheck[];
  fanOut?: FanOutRun;
}): void {
  const { started, machine, dataset, vigil, baseline, tenth, pglite, growth, web, checks } = report;
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log(
    `\n=== Vigil benchmark ${started.toISOString()} — ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, ` +
      `git ${machine.git.revision.slice(0, 10)}${machine.git.dirty ? " (uncommitted changes)" : ""}`,
  );
  console.log(
    `Data: ${dataset.cases.toLocaleString("en-US")} cases, ${dataset.logs.toLocaleString("en-US")} time logs on ${dataset.version.split(" on ")[0]}; ` +
      `${runSettings.connections} connections, no pipelining, ${runSettings.warmupSeconds} s warm-up + ${runSettings.durationSeconds} s per run\n`,
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
        "share",
        `p99 @${runSettings.fixedRate}/s`,
        "RSS max MB",
      ],
      measuredEndpoints.map((endpoint) => {
        const run = vigil.runs[endpoint.id];
        const mine = measured(run);
        const bare = measured(baseline.runs[endpoint.id]);
        return [
          endpoint.label,
          run?.single ? `1 conn × ${run.single.requests}` : `${runSettings.connections} conn`,
          cell(mine?.requestsPerSecond),
          cell(mine?.latencyMs.p50),
          cell(mine?.latencyMs.p99),
          cell(bare?.requestsPerSecond),
          cell(bare?.latencyMs.p50),
          mine && bare ? `${((mine.requestsPerSecond / bare.requestsPerSecond) * 100).toFixed(0)}%` : "–",
          run?.fixedRate
            ? `${run.fixedRate.latencyMs.p99}${endpoint.fixedRate ? ` @${endpoint.fixedRate}/s` : ""}${run.fixedRate.requestsPerSecond < (endpoint.fixedRate ?? runSettings.fixedRate) * 0.95 ? ` (${run.fixedRate.requestsPerSecond}/s)` : ""}`
            : "–",
          cell(run?.rssMaxMb),
        ];
      }),
    ),
  );
  console.log(
    `App process RSS before load / max under load: Vigil on PostgreSQL ${vigil.rssIdleMb} / ${vigil.rssMaxMb} MB, ` +
      `baseline ${baseline.rssIdleMb} / ${baseline.rssMaxMb} MB` +
      (pglite ? `, Vigil on PGlite ${pglite.rssIdleMb} / ${pglite.rssMaxMb} MB` : ""),
  );
  if (report.fanOut) console.log(describeFanOut(report.fanOut));
  if (pglite) printPgliteAgainstPostgres(tenth, pglite);
  else console.log("\nPGlite was not measured (BENCH_PGLITE=0).");
  const count = (value: number) => value.toLocaleString("en-US");
  console.log(
    `\nGrowth: ${count(report.tenthCases)} → ${count(dataset.cases)} cases (PostgreSQL both; the throughput run's ` +
      "p50, the single run's for the heavy reads; the means where a p50 is 1 ms or less)",
  );
  console.log(
    table(
      ["endpoint", "compared", "tenth ms", "full ms", "growth", "time logs covered: tenth", "full", "ratio"],
      growth.map((grown) => [
        grown.label,
        grown.basis,
        grown.tenthMs,
        grown.fullMs,
        describeRatio(grown.ratio),
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
  console.log("\nTargets");
  for (const check of checks) {
    console.log(`${check.pass ? "PASS" : "MISS"}  ${check.target} — ${check.subject}: ${check.value} (${check.limit})`);
    if (check.cause) console.log(`      likely cause: ${check.cause}`);
  }
}

function printPgliteAgainstPostgres(tenth: ServerRun, pglite: ServerRun): void {
  console.log(
    `\nPGlite against PostgreSQL on the same tenth (${smallDatabase} and ${path.relative(repoRoot, pgliteDataDir)})`,
  );
  console.log(
    table(
      ["endpoint", "PostgreSQL req/s", "PGlite req/s", "ratio", "PG p50", "PGlite p50", "PG RSS MB", "PGlite RSS MB"],
      measuredEndpoints.map((endpoint) => {
        const onPostgres = measured(tenth.runs[endpoint.id]);
        const onPglite = measured(pglite.runs[endpoint.id]);
        return [
          endpoint.label,
          cell(onPostgres?.requestsPerSecond),
          cell(onPglite?.requestsPerSecond),
          onPostgres && onPglite ? `${(onPostgres.requestsPerSecond / onPglite.requestsPerSecond).toFixed(2)}×` : "–",
          cell(onPostgres?.latencyMs.p50),
          cell(onPglite?.latencyMs.p50),
          cell(tenth.runs[endpoint.id]?.rssMaxMb),
          cell(pglite.runs[endpoint.id]?.rssMaxMb),
        ];
      }),
    ),
  );
}
