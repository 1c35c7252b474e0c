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
import { evaluate, throughputShareOf } from "./evaluate-targets.js";
import { fanOutChecks, measureEventFanOut } from "./event-fan-out.js";
import { countCoveredTimeLogs, growthOf } from "./growth.js";
import { measureServer } from "./measure-server.js";
import { log } from "./processes.js";
import { machineInfo, printReport } from "./report.js";
import { activeStatementsOn, buildServer, startBaseline, withVigil } from "./servers.js";
import { measureWebSizes } from "./web-size.js";

/**
 * `tsx bench/run.ts`: the load runs and the report (data from generate-data.ts must exist).
 *
 * 1. The real server as `npm start` runs it (apps/server/dist/server.js, built first; SEED=none, LOG_LEVEL=warn) on
 *    the 100,000-case PostgreSQL database:
 *    the chrome, list and detail endpoints flat out (fixed connections, no pipelining, a warm-up then a measured
 *    run), the heavy reads (statement, report, billing overview) on one connection (their own latency), then the
 *    chrome, list and detail endpoints at a fixed rate for p99 (200 requests/s, the board its own 50).
 * 2. The bare baseline (baseline-server.ts): the same endpoints, same data code and pool size, nothing else.
 * 3. The real server on the tenth in PostgreSQL and on the same tenth in PGlite: the PGlite/PostgreSQL ratio, and
 *    the growth from the tenth to the full data (p50 on the full ÷ p50 on the tenth, both PostgreSQL; for the heavy
 *    reads with the ratio of the time logs one request covers on each).
 * BENCH_ONLY (config.ts) limits every run to the endpoints it names.
 * The app process's RSS (VmRSS) is sampled during every run. Then the web build's JavaScript per route, the query
 * plans (check-plans.ts), the targets with PASS/MISS, and bench-results/bench-<timestamp>.json.
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
  const plans = await checkPlans(fullDatabaseUrl);
  printPlanChecks(plans);

  const vigil = await withVigil(
    `PostgreSQL ${fullDatabase}`,
    "bench-server-postgres",
    { url: fullDatabaseUrl },
    (server, token, fixtures) =>
      measureServer(server, {
        label: "Vigil/PostgreSQL",
        database: fullDatabase,
        token,
        fixtures,
        fixedRate: true,
        activeStatements: activeStatementsOn(fullDatabaseUrl, fullDatabase),
      }).then(async (run) => ({
        run,
        fixtures,
        // 200 open event streams, one case change at a time: delivery latency and the server's RSS.
        fanOut: await measureEventFanOut(server, token, fullDatabaseUrl, { caseId: fixtures.monitoringCases[0] }),
      })),
  );
  log("starting the bare baseline");
  const baselineServer = await startBaseline();
  let baseline: ServerRun;
  try {
    baseline = await measureServer(baselineServer, {
      label: "baseline",
      database: fullDatabase,
      fixtures: vigil.fixtures,
      fixedRate: false,
      activeStatements: activeStatementsOn(fullDatabaseUrl, fullDatabase),
    });
  } finally {
    await baselineServer.stop();
  }
  const { run: tenth, fixtures: tenthFixtures } = await withVigil(
    `PostgreSQL ${smallDatabase}`,
    "bench-server-postgres-tenth",
    { url: smallDatabaseUrl },
    async (server, token, fixtures) => ({
      run: await measureServer(server, {
        label: "Vigil/PostgreSQL tenth",
        database: smallDatabase,
        token,
        fixtures,
        fixedRate: false,
        activeStatements: activeStatementsOn(smallDatabaseUrl, smallDatabase),
      }),
      fixtures,
    }),
  );
  const pglite = pgliteMeasured
    ? await withVigil("PGlite (tenth)", "bench-server-pglite", { dataDir: pgliteDataDir }, (server, token, fixtures) =>
        measureServer(server, {
          label: "Vigil/PGlite tenth",
          database: path.relative(repoRoot, pgliteDataDir),
          token,
          fixtures,
          fixedRate: false,
        }),
      )
    : undefined;

  log("time logs each heavy read covers, full and tenth");
  await countCoveredTimeLogs(fullDatabaseUrl, vigil.run, vigil.fixtures);
  await countCoveredTimeLogs(smallDatabaseUrl, tenth, tenthFixtures);
  const growth = growthOf(vigil.run, tenth);

  log("web build: JavaScript per route");
  const web = measureWebSizes(log);
  const checks = [
    ...evaluate(vigil.run, baseline, tenth, pglite, web, plans, { growth, fullCases: dataset.cases, tenthCases }),
    ...fanOutChecks(vigil.fanOut),
  ];
  const machine = machineInfo();
  printReport({
    started,
    machine,
    dataset,
    vigil: vigil.run,
    baseline,
    tenth,
    pglite,
    growth,
    tenthCases,
    web,
    checks,
    fanOut: vigil.fanOut,
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
          paths: endpoint.paths(vigil.fixtures).slice(0, 1),
          measured: measuredEndpoints.includes(endpoint),
          ...(endpoint.group === "heavy"
            ? { p50TargetMs: endpoint.p50TargetMs ?? null }
            : {
                throughputShareOfBaseline: throughputShareOf(endpoint),
                fixedRate: endpoint.fixedRate ?? runSettings.fixedRate,
              }),
        })),
        servers: { vigilPostgres: vigil.run, baseline, vigilPostgresTenth: tenth, vigilPglite: pglite },
        growth,
        web,
        eventFanOut: vigil.fanOut,
        plans,
        targetLimits: targets,
        targets: checks,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nResults: ${path.relative(repoRoot, file)}`);
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
