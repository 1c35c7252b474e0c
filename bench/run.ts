import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { checkPlans, printPlanChecks } from "./check-plans.js";
import {
  fullDatabase,
  fullDatabaseUrl,
  pgliteDataDir,
  pgliteMeasured,
  repoRoot,
  resultsDir,
  runSettings,
  smallDatabase,
  smallDatabaseUrl,
  targets,
} from "./config.js";
import { endpoints, measuredEndpoints, type ServerRun } from "./endpoints.js";
import { evaluate, type Rounds, throughputShareOf } from "./evaluate-targets.js";
import { fanOutChecks, measureEventFanOut } from "./event-fan-out.js";
import { countCoveredTimeLogs, growthAcrossRounds } from "./growth.js";
import { runInterleaved, type Side } from "./interleave.js";
import { log } from "./processes.js";
import { machineInfo, markdownReport, printReport } from "./report.js";
import { medianRun } from "./round-figures.js";
import { activeStatementsOn, buildServer, withBaseline, withVigil } from "./servers.js";
import { measureWebSizes } from "./web-size.js";

/**
 * `tsx bench/run.ts`: the load runs and the report (data from generate-data.ts must exist).
 *
 * Four servers run side by side, each started once: the real server as `npm start` runs it
 * (apps/server/dist/server.js, built first; SEED=none, LOG_LEVEL=warn) on the 100,000-case PostgreSQL database; the
 * bare baseline (baseline-server.ts: the same endpoints, same data code and pool size, nothing else) on the same
 * database; the real server on the tenth in PostgreSQL and on the same tenth in PGlite. interleave.ts then runs
 * BENCH_ROUNDS rounds: in each, every endpoint on every server in turn (in an order that changes each round) — the
 * chrome, list and detail endpoints flat out (fixed connections, no pipelining, a warm-up then a measured run), the
 * heavy reads on one connection (their own latency, after the same requests once) — then the real server's chrome, list and detail endpoints at a fixed
 * rate for p99 (200 requests/s, the board its own 50). Each ratio (share of the baseline, PGlite/PostgreSQL, growth
 * from the tenth to the full data) is formed within a round, and the targets judge the median of the rounds
 * (evaluate-targets.ts), printed with the lowest and highest round. The event fan-out runs last, alone.
 * BENCH_ONLY (config.ts) limits every run to the endpoints it names.
 * The app process's RSS (VmRSS) is sampled during every run. Then the web build's JavaScript per route, the query
 * plans (check-plans.ts), the targets with PASS/MISS, bench-results/bench-<timestamp>.json (every round) and .md
 * (the targets).
 */

async function casesIn(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("select count(*)::int as cases from cases");
    return (rows[0] as { cases: number }).cases;
  } finally {
    await client.end();
  }
}

export async function runBench(): Promise<string> {
  mkdirSync(resultsDir, { recursive: true });
  const started = new Date();
  const admin = new pg.Client({ connectionString: fullDatabaseUrl });
  await admin.connect().catch((error: Error) => {
    throw new Error(`Cannot reach ${fullDatabase} (${error.message}): run \`tsx bench/generate-data.ts\` first.`);
  });
  const { rows } = await admin.query(
    "select count(*)::int as cases, (select count(*)::int from case_time_logs) as logs, version() as version from cases",
  );
  await admin.end();
  const dataset = rows[0] as { cases: number; logs: number; version: string };
  const tenthCases = await casesIn(smallDatabaseUrl);
  if (measuredEndpoints.length < endpoints.length) {
    log(`BENCH_ONLY: measuring ${measuredEndpoints.map((endpoint) => endpoint.id).join(", ")} only`);
  }
  log(
    `${fullDatabase}: ${dataset.cases.toLocaleString("en-US")} cases, ${dataset.logs.toLocaleString("en-US")} time logs`,
  );

  log("building the server (apps/server/dist)");
  buildServer();

  log("query plans of the list and detail reads");
  // A data set too small to hold every scenario's fixture (BENCH_SCALE=0.01) still gets its load runs; the misses
  // then name no plan. At the standard scale the same check runs in CI (query-plans.test.ts).
  const plans = await checkPlans(fullDatabaseUrl).catch((error: Error) => {
    log(`the plan check could not run, the load runs go on without it: ${error.message.split("\n")[0]}`);
    return [];
  });
  printPlanChecks(plans);

  const interleaved = await withVigil(
    `PostgreSQL ${fullDatabase}`,
    "bench-server-postgres",
    { url: fullDatabaseUrl },
    async (server, token, fixtures) => {
      const sides = await withBaseline((baselineServer) =>
        withVigil(
          `PostgreSQL ${smallDatabase}`,
          "bench-server-postgres-tenth",
          { url: smallDatabaseUrl },
          (tenthServer, tenthToken, tenthFixtures) => {
            const measuredSides: Side[] = [
              {
                label: "Vigil/PostgreSQL",
                database: fullDatabase,
                server,
                token,
                fixtures,
                fixedRate: true,
                activeStatements: activeStatementsOn(fullDatabaseUrl, fullDatabase),
              },
              {
                label: "baseline",
                database: fullDatabase,
                server: baselineServer,
                fixtures,
                fixedRate: false,
                activeStatements: activeStatementsOn(fullDatabaseUrl, fullDatabase),
              },
              {
                label: "Vigil/PostgreSQL tenth",
                database: smallDatabase,
                server: tenthServer,
                token: tenthToken,
                fixtures: tenthFixtures,
                fixedRate: false,
                activeStatements: activeStatementsOn(smallDatabaseUrl, smallDatabase),
              },
            ];
            const measure = async (pgliteSide?: Side) => ({
              ...(await runInterleaved(pgliteSide ? [...measuredSides, pgliteSide] : measuredSides)),
              tenthFixtures,
            });
            return pgliteMeasured
              ? withVigil(
                  "PGlite (tenth)",
                  "bench-server-pglite",
                  { dataDir: pgliteDataDir },
                  (pgliteServer, pgliteToken, pgliteFixtures) =>
                    measure({
                      label: "Vigil/PGlite tenth",
                      database: path.relative(repoRoot, pgliteDataDir),
                      server: pgliteServer,
                      token: pgliteToken,
                      fixtures: pgliteFixtures,
                      fixedRate: false,
                    }),
                )
              : measure();
          },
        ),
      );
      // 200 open event streams, one case change at a time: delivery latency and the server's RSS, once the other
      // servers have stopped.
      const fanOut = await measureEventFanOut(server, token, fullDatabaseUrl, { caseId: fixtures.monitoringCases[0] });
      return { ...sides, fixtures, fanOut };
    },
  );
  const [vigilRounds, baselineRounds, tenthRounds, pgliteRounds] = interleaved.rounds as [
    ServerRun[],
    ServerRun[],
    ServerRun[],
    ServerRun[] | undefined,
  ];
  const rounds: Rounds = {
    vigil: vigilRounds,
    baseline: baselineRounds,
    tenth: tenthRounds,
    ...(pgliteRounds ? { pglite: pgliteRounds } : {}),
  };

  log("time logs each heavy read covers, full and tenth");
  // The windows are the same every round: counted once, on each server's first round.
  await countCoveredTimeLogs(fullDatabaseUrl, vigilRounds[0] as ServerRun, interleaved.fixtures);
  await countCoveredTimeLogs(smallDatabaseUrl, tenthRounds[0] as ServerRun, interleaved.tenthFixtures);
  const growth = growthAcrossRounds(vigilRounds, tenthRounds);

  log("web build: JavaScript per route");
  const web = measureWebSizes(log);
  const checks = [
    ...evaluate(rounds, web, plans, { growth, fullCases: dataset.cases, tenthCases }),
    ...fanOutChecks(interleaved.fanOut),
  ];
  const machine = machineInfo();
  printReport({
    started,
    machine,
    dataset,
    rounds,
    pooledFixedRate: interleaved.pooledFixedRate[0] ?? {},
    growth,
    tenthCases,
    web,
    checks,
    fanOut: interleaved.fanOut,
  });

  const file = path.join(resultsDir, `bench-${started.toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        startedAt: started.toISOString(),
        finishedAt: new Date().toISOString(),
        machine: { ...machine, postgres: dataset.version },
        settings: runSettings,
        dataset: { database: fullDatabase, cases: dataset.cases, timeLogs: dataset.logs, tenthCases },
        onlyEndpoints: measuredEndpoints.length < endpoints.length ? measuredEndpoints.map(({ id }) => id) : null,
        endpoints: endpoints.map((endpoint) => ({
          id: endpoint.id,
          label: endpoint.label,
          group: endpoint.group,
          paths: endpoint.paths(interleaved.fixtures).slice(0, 1),
          measured: measuredEndpoints.includes(endpoint),
          ...(endpoint.group === "heavy"
            ? { p50TargetMs: endpoint.p50TargetMs ?? null }
            : {
                throughputShareOfBaseline: throughputShareOf(endpoint),
                fixedRate: endpoint.fixedRate ?? runSettings.fixedRate,
              }),
        })),
        // Each server's figures as the median of its rounds, then every round as measured.
        servers: {
          vigilPostgres: medianRun(rounds.vigil),
          baseline: medianRun(rounds.baseline),
          vigilPostgresTenth: medianRun(rounds.tenth),
          vigilPglite: rounds.pglite ? medianRun(rounds.pglite) : undefined,
        },
        rounds: {
          vigilPostgres: rounds.vigil,
          baseline: rounds.baseline,
          vigilPostgresTenth: rounds.tenth,
          vigilPglite: rounds.pglite,
        },
        fixedRateAllRounds: interleaved.pooledFixedRate[0] ?? {},
        growth,
        web,
        eventFanOut: interleaved.fanOut,
        plans,
        targetLimits: targets,
        targets: checks,
      },
      null,
      2,
    )}\n`,
  );
  const markdown = file.replace(/\.json$/, ".md");
  writeFileSync(markdown, markdownReport({ started, machine, dataset, checks }));
  console.log(
    `\nResults: ${path.relative(repoRoot, file)} (targets as markdown: ${path.relative(repoRoot, markdown)})`,
  );
  return file;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runBench().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
