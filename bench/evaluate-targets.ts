import os from "node:os";
import path from "node:path";
import type { PlanCheck } from "./check-plans.js";
import { runSettings, targets } from "./config.js";
import { type Endpoint, type EndpointRun, endpoints, type ServerRun } from "./endpoints.js";
import { describeRatio, type Growth } from "./growth.js";
import { round } from "./load.js";
import type { WebSizes } from "./web-size.js";

/** The bench's targets (config.ts) judged against the runs: PASS or MISS, and for a miss its likely cause. */

export type TargetCheck = {
  target: string;
  subject: string;
  value: string;
  limit: string;
  pass: boolean;
  cause?: string;
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

export function evaluate(
  vigil: ServerRun,
  baseline: ServerRun,
  tenth: ServerRun,
  pglite: ServerRun | undefined,
  web: WebSizes,
  plans: PlanCheck[],
  growth: { growth: Growth[]; fullCases: number; tenthCases: number },
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const measured = (run: EndpointRun | undefined) => run?.throughput ?? run?.single;
  for (const endpoint of endpoints) {
    const run = vigil.runs[endpoint.id];
    const bare = baseline.runs[endpoint.id];
    if (endpoint.group !== "heavy" && run?.throughput && bare?.throughput) {
      const share = run.throughput.requestsPerSecond / bare.throughput.requestsPerSecond;
      const limit = throughputShareOf(endpoint);
      const pass = share >= limit;
      checks.push({
        target: `throughput ≥ ${percent(limit)} of the baseline`,
        subject: endpoint.label,
        value: `${(share * 100).toFixed(0)}% (${run.throughput.requestsPerSecond} of ${bare.throughput.requestsPerSecond} req/s)`,
        limit: `≥ ${percent(limit)}`,
        pass,
        ...(pass
          ? {}
          : {
              cause: causeOf(endpoint, plans, {
                pipelineMs: round(run.throughput.latencyMs.p50 - bare.throughput.latencyMs.p50),
              }),
            }),
      });
    }
    if ((endpoint.group === "list" || endpoint.group === "detail") && run?.fixedRate) {
      const rate = endpoint.fixedRate ?? runSettings.fixedRate;
      const kept = run.fixedRate.requestsPerSecond >= rate * 0.95;
      const pass = run.fixedRate.latencyMs.p99 <= targets.fixedRateP99Ms && run.fixedRate.non2xx === 0 && kept;
      checks.push({
        target: `p99 at ${rate} req/s (PostgreSQL)`,
        subject: endpoint.label,
        value: `${run.fixedRate.latencyMs.p99} ms${kept ? "" : ` (only ${run.fixedRate.requestsPerSecond} req/s served)`}`,
        limit: `≤ ${targets.fixedRateP99Ms} ms`,
        pass,
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
    if (endpoint.group === "heavy" && run?.single && endpoint.p50TargetMs !== undefined) {
      const pass = run.single.latencyMs.p50 <= endpoint.p50TargetMs;
      checks.push({
        target: `heavy read p50 ≤ ${endpoint.p50TargetMs} ms (${count(growth.fullCases)} cases, one request at a time)`,
        subject: endpoint.label,
        value: `${run.single.latencyMs.p50} ms`,
        limit: `≤ ${endpoint.p50TargetMs} ms`,
        pass,
        ...(pass ? {} : { cause: causeOf(endpoint, plans, { p50Ms: run.single.latencyMs.p50 }) }),
      });
    }
    const grown = growth.growth.find((candidate) => candidate.endpoint === endpoint.id);
    if (grown && (endpoint.group === "list" || endpoint.group === "detail")) {
      const pass = grown.ratio === null || grown.ratio <= targets.growthRatio;
      checks.push({
        target: `growth ${count(growth.tenthCases)} → ${count(growth.fullCases)} cases ≤ ${targets.growthRatio}×`,
        subject: endpoint.label,
        value:
          grown.ratio === null
            ? `n/a (p50 ${grown.tenthMs} → ${grown.fullMs} ms, no mean to compare)`
            : `${describeRatio(grown.ratio)} (${grown.basis} ${grown.tenthMs} → ${grown.fullMs} ms)`,
        limit: `≤ ${targets.growthRatio}×`,
        pass,
        ...(pass
          ? {}
          : {
              cause:
                `ten times the rows make it ${describeRatio(grown.ratio)} slower: a part of its work grows with the ` +
                `data (a scan, a sort or rows read and computed over in the process); ${causeOf(endpoint, plans)}`,
            }),
      });
    }
    const onPostgres = measured(tenth.runs[endpoint.id]);
    const onPglite = measured(pglite?.runs[endpoint.id]);
    if (onPostgres && onPglite) {
      const ratio = onPostgres.requestsPerSecond / onPglite.requestsPerSecond;
      const pass = ratio <= targets.pgliteRatio;
      checks.push({
        target: `PGlite within ${targets.pgliteRatio}× of PostgreSQL (same rows)`,
        subject: endpoint.label,
        value: `${ratio.toFixed(2)}×`,
        limit: `≤ ${targets.pgliteRatio}×`,
        pass,
        ...(pass
          ? {}
          : {
              cause:
                "PGlite is one connection inside the server's process: concurrent requests queue for it, its " +
                `single-threaded WASM executor shares the app's CPU (p50 ${onPglite.latencyMs.p50} ms vs ` +
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
      value: `${run.rssMaxMb} MB`,
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
