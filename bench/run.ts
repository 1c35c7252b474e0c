import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../apps/server/src/db/client.js";
import { checkPlans, type PlanCheck, printPlanChecks } from "./check-plans.js";
import {
  benchUser,
  fullDatabase,
  fullDatabaseUrl,
  pgliteDataDir,
  repoRoot,
  resultsDir,
  runSettings,
  smallDatabase,
  smallDatabaseUrl,
  targets,
} from "./config.js";
import { drive, type LoadResult, round } from "./load.js";
import { type BenchProcess, rssMb, rssSampler, startProcess, waitForQuiet } from "./processes.js";
import { measureWebSizes, type WebSizes } from "./web-size.js";

/**
 * `tsx bench/run.ts`: the load runs and the report (data from generate-data.ts must exist).
 *
 * 1. The real server as `npm start` runs it (apps/server/dist/server.js, built first; SEED=none, LOG_LEVEL=warn) on
 *    the 100,000-case PostgreSQL database:
 *    each endpoint flat out (fixed connections, no pipelining, a warm-up then a measured run), the statement and
 *    the report once more on one connection (their own latency), then list and detail endpoints at a fixed 200
 *    requests/s for p99.
 * 2. The bare baseline (baseline-server.ts): the same endpoints, same data code and pool size, nothing else.
 * 3. The real server on the tenth in PostgreSQL and on the same tenth in PGlite: the PGlite/PostgreSQL ratio.
 * The app process's RSS (VmRSS) is sampled during every run. Then the web build's JavaScript per route, the query
 * plans (check-plans.ts), the targets with PASS/MISS, and bench-results/bench-<timestamp>.json.
 */

type Group = "chrome" | "list" | "detail" | "heavy";
type Fixtures = {
  clients: string[];
  largestClients: string[];
  monitoringCases: string[];
  month: string;
  today: string;
};
type Endpoint = {
  id: string;
  label: string;
  group: Group;
  /** The check-plans scenarios behind it, to name the likely cause of a miss. */
  scenarios: string[];
  paths: (fixtures: Fixtures) => string[];
};

const base = "/api/continuous-monitoring";
const endpoints: Endpoint[] = [
  { id: "chrome", label: "GET /api/chrome", group: "chrome", scenarios: [], paths: () => ["/api/chrome"] },
  {
    id: "clients",
    label: "clients list",
    group: "list",
    scenarios: ["clients list"],
    paths: () => [`${base}/clients?limit=50`],
  },
  {
    id: "monitoring-queue",
    label: "monitoring queue",
    group: "list",
    scenarios: ["monitoring queue"],
    paths: () => [`${base}/cases/monitoring?limit=50`],
  },
  {
    id: "monitoring-queue-client",
    label: "monitoring queue ?clientId",
    group: "list",
    scenarios: ["monitoring queue, client filter"],
    paths: (f) => f.clients.map((id) => `${base}/cases/monitoring?limit=50&clientId=${id}`),
  },
  {
    id: "closed-queue-client",
    label: "closed queue ?clientId",
    group: "list",
    scenarios: ["closed queue, client filter"],
    paths: (f) => f.clients.map((id) => `${base}/cases/closed?limit=50&clientId=${id}`),
  },
  {
    id: "case-detail",
    label: "case detail",
    group: "detail",
    scenarios: ["case detail"],
    paths: (f) => f.monitoringCases.map((id) => `${base}/cases/${id}`),
  },
  {
    id: "time-logs-tab",
    label: "time-logs tab",
    group: "detail",
    scenarios: ["time-log tab (monitoring case)"],
    paths: (f) => f.monitoringCases.map((id) => `${base}/cases/monitoring/${id}/time-logs`),
  },
  {
    id: "statement",
    label: "billing statement (month)",
    group: "heavy",
    scenarios: ["billing statement"],
    paths: (f) => f.largestClients.map((id) => `/api/billing/continuous-monitoring/${id}/${f.month}`),
  },
  {
    id: "report",
    label: "billable-hours report (by day)",
    group: "heavy",
    scenarios: ["billable-hours report by day"],
    paths: (f) => [
      `/api/reporting/continuous-monitoring/billable-hours?from=${f.today.slice(0, 8)}01&to=${f.today}&groupBy=day`,
    ],
  },
];

type EndpointRun = {
  endpoint: string;
  status: number;
  bytes: number;
  throughput?: LoadResult;
  /** One connection: the request's own latency (statement and report). */
  single?: LoadResult;
  /** Fixed 200 requests/s (PostgreSQL server only). */
  fixedRate?: LoadResult;
  rssMaxMb: number;
};
type ServerRun = {
  label: string;
  database: string;
  runs: Record<string, EndpointRun>;
  /** Before any load (after start and sign-in), then the most seen under load. */
  rssIdleMb: number;
  rssMaxMb: number;
};

const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

// ---------------------------------------------------------------------------------------------------------------
// Servers
// ---------------------------------------------------------------------------------------------------------------

const serverDir = path.join(repoRoot, "apps", "server");

/** Builds apps/server/dist/server.js from the sources in the tree (`npm run build -w @vigil/server`, ~1 s). */
function buildServer(): void {
  execFileSync(process.execPath, ["build.mjs"], { cwd: serverDir, stdio: "inherit" });
}

/**
 * The server's own `start` script (apps/server/package.json: `node <flags> dist/server.js`), run with this node and
 * without npm in between, so the bench measures the process, and the V8 flags, that production runs.
 */
function serverStartCommand(): { command: string; args: string[] } {
  const manifest = JSON.parse(readFileSync(path.join(serverDir, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const [program, ...args] = (manifest.scripts.start ?? "").trim().split(/\s+/);
  if (program !== "node") throw new Error(`apps/server's start script is not \`node …\`: ${manifest.scripts.start}`);
  return { command: process.execPath, args };
}

async function startVigil(label: string, name: string, database: { url?: string; dataDir?: string }) {
  const env: NodeJS.ProcessEnv = { ...process.env, SEED: "none", LOG_LEVEL: "warn", RELEASE_ID: "bench" };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  if (database.url) env.DATABASE_URL = database.url;
  if (database.dataDir) env.DATA_DIR = database.dataDir;
  return startProcess({
    label,
    name,
    cwd: serverDir,
    ...serverStartCommand(),
    env,
    ready: async (baseURL) => (await fetch(`${baseURL}/api/config`, { signal: AbortSignal.timeout(5_000) })).ok,
  });
}

async function startBaseline() {
  return startProcess({
    label: "baseline",
    name: "bench-baseline",
    cwd: repoRoot,
    command: path.join(repoRoot, "node_modules", ".bin", "tsx"),
    args: ["bench/baseline-server.ts"],
    env: { ...process.env, DATABASE_URL: fullDatabaseUrl, LOG_LEVEL: "warn" },
    ready: async (baseURL) => (await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(5_000) })).ok,
  });
}

/** USER_PASSWORD_AUTH through the Cognito-compatible API, as the web app's Authenticator does: the ID token. */
async function signIn(baseURL: string): Promise<string> {
  const config = (await (await fetch(`${baseURL}/api/config`)).json()) as {
    data: { identity: { userPoolClientId: string } };
  };
  const response = await fetch(`${baseURL}/cognito`, {
    method: "POST",
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": "AWSCognitoIdentityProviderService.InitiateAuth",
    },
    body: JSON.stringify({
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: config.data.identity.userPoolClientId,
      AuthParameters: { USERNAME: benchUser.username, PASSWORD: benchUser.password },
    }),
  });
  const answer = (await response.json()) as { AuthenticationResult?: { IdToken?: string } };
  const token = answer.AuthenticationResult?.IdToken;
  if (!token)
    throw new Error(`Signing ${benchUser.username} in failed (${response.status}): ${JSON.stringify(answer)}`);
  return token;
}

/** Ids to spread the reads over, read through the API itself (PGlite's folder is held by the server). */
async function fixturesOf(baseURL: string, headers: Record<string, string>): Promise<Fixtures> {
  const get = async <T>(url: string): Promise<T> => {
    const response = await fetch(`${baseURL}${url}`, { headers });
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: T }).data;
  };
  const clients = await get<{ items: { id: string; openCaseCount: number }[] }>(
    `${base}/clients?limit=200&status=active`,
  );
  const monitoring = await get<{ items: { id: string }[] }>(`${base}/cases/monitoring?limit=200`);
  const now = new Date();
  const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return {
    clients: clients.items.map((client) => client.id),
    largestClients: [...clients.items]
      .sort((left, right) => right.openCaseCount - left.openCaseCount)
      .slice(0, 5)
      .map((client) => client.id),
    monitoringCases: monitoring.items.map((item) => item.id),
    month: previous.toISOString().slice(0, 7),
    today: now.toISOString().slice(0, 10),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------------------------

async function measureServer(
  server: BenchProcess,
  options: {
    label: string;
    database: string;
    token?: string;
    fixtures: Fixtures;
    fixedRate: boolean;
    /** Active statements on the server's PostgreSQL database (none for PGlite: the app's CPU says it all). */
    activeStatements?: () => Promise<number>;
  },
): Promise<ServerRun> {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const rssIdleMb = round(rssMb(server.appPid) ?? 0);
  const rss = rssSampler(server.appPid);
  const runs: Record<string, EndpointRun> = {};
  let rssMax = 0;
  const quiet = () => waitForQuiet(server.appPid, options.activeStatements);
  const { durationSeconds, warmupSeconds } = runSettings;
  for (const endpoint of endpoints) {
    const paths = endpoint.paths(options.fixtures);
    await quiet();
    const first = await fetch(`${server.baseURL}${paths[0]}`, { headers });
    const body = await first.text();
    const run: EndpointRun = { endpoint: endpoint.id, status: first.status, bytes: body.length, rssMaxMb: 0 };
    runs[endpoint.id] = run;
    if (first.status !== 200) {
      log(`${options.label}: ${endpoint.label} answered ${first.status}, skipped: ${body.slice(0, 200)}`);
      continue;
    }
    if (endpoint.group === "heavy") {
      // Seconds per request on the full data: a fixed number of requests on one connection, each after the last.
      rss.start();
      run.single = await drive({
        baseURL: server.baseURL,
        paths,
        headers,
        amount: runSettings.heavyRequests,
        connections: 1,
      });
    } else {
      await drive({ baseURL: server.baseURL, paths, headers, seconds: warmupSeconds });
      await quiet();
      rss.start();
      run.throughput = await drive({ baseURL: server.baseURL, paths, headers, seconds: durationSeconds });
    }
    run.rssMaxMb = rss.stop();
    rssMax = Math.max(rssMax, run.rssMaxMb);
    const t = (run.throughput ?? run.single) as LoadResult;
    log(
      `${options.label}: ${endpoint.label.padEnd(32)} ${String(t.requestsPerSecond).padStart(7)} req/s  ` +
        `p50 ${t.latencyMs.p50} ms  p99 ${t.latencyMs.p99} ms${run.single ? ` (1 connection, ${t.requests} requests)` : ""}` +
        `  RSS ${run.rssMaxMb} MB${t.non2xx + t.errors > 0 ? `  non-2xx ${t.non2xx}, errors ${t.errors}` : ""}`,
    );
  }
  if (options.fixedRate) {
    for (const endpoint of endpoints.filter((candidate) => candidate.group !== "heavy")) {
      const run = runs[endpoint.id];
      if (!run || run.status !== 200) continue;
      await quiet();
      rss.start();
      run.fixedRate = await drive({
        baseURL: server.baseURL,
        paths: endpoint.paths(options.fixtures),
        headers,
        seconds: durationSeconds,
        overallRate: runSettings.fixedRate,
      });
      const sampled = rss.stop();
      run.rssMaxMb = Math.max(run.rssMaxMb, sampled);
      rssMax = Math.max(rssMax, sampled);
      log(
        `${options.label}: ${endpoint.label.padEnd(32)} at ${runSettings.fixedRate} req/s: ` +
          `${run.fixedRate.requestsPerSecond} req/s served, p50 ${run.fixedRate.latencyMs.p50} ms  p99 ${run.fixedRate.latencyMs.p99} ms`,
      );
    }
  }
  await quiet();
  return { label: options.label, database: options.database, runs, rssIdleMb, rssMaxMb: rssMax };
}

/** Statements running on a PostgreSQL database (the caller's own excepted). */
function activeStatementsOn(url: string, database: string): () => Promise<number> {
  return async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query(
        "select count(*)::int as active from pg_stat_activity where datname = $1 and state = 'active' and pid <> pg_backend_pid()",
        [database],
      );
      return (rows[0] as { active: number }).active;
    } finally {
      await client.end();
    }
  };
}

/** The bench's own patient-data reads leave audit rows; they are removed so every run starts from the same data. */
async function removeBenchAuditRows(target: { url?: string; dataDir?: string }): Promise<void> {
  const statement = `delete from audit_events where actor_username = '${benchUser.username}'`;
  if (target.url) {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    await client.query(statement);
    await client.end();
  } else if (target.dataDir) {
    const database = await openDatabase({ kind: "pglite", dataDir: target.dataDir });
    await (database.db as unknown as { $client: { exec: (sql: string) => Promise<unknown> } }).$client.exec(statement);
    await database.close();
  }
}

async function withVigil<T>(
  label: string,
  name: string,
  target: { url?: string; dataDir?: string },
  body: (server: BenchProcess, token: string, fixtures: Fixtures) => Promise<T>,
): Promise<T> {
  log(`starting the server on ${label}`);
  const server = await startVigil(label, name, target);
  try {
    const token = await signIn(server.baseURL);
    const fixtures = await fixturesOf(server.baseURL, { authorization: `Bearer ${token}` });
    return await body(server, token, fixtures);
  } finally {
    await server.stop();
    await removeBenchAuditRows(target);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------------------------

type TargetCheck = { target: string; subject: string; value: string; limit: string; pass: boolean; cause?: string };

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

function evaluate(
  vigil: ServerRun,
  baseline: ServerRun,
  tenth: ServerRun,
  pglite: ServerRun,
  web: WebSizes,
  plans: PlanCheck[],
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const measured = (run: EndpointRun | undefined) => run?.throughput ?? run?.single;
  for (const endpoint of endpoints) {
    const run = vigil.runs[endpoint.id];
    const bare = baseline.runs[endpoint.id];
    if (endpoint.group === "list" || endpoint.group === "detail") {
      if (run?.throughput && bare?.throughput) {
        const share = run.throughput.requestsPerSecond / bare.throughput.requestsPerSecond;
        const pass = share >= targets.throughputShareOfBaseline;
        checks.push({
          target: "throughput ≥ 50% of the baseline",
          subject: endpoint.label,
          value: `${(share * 100).toFixed(0)}% (${run.throughput.requestsPerSecond} of ${bare.throughput.requestsPerSecond} req/s)`,
          limit: "≥ 50%",
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
      if (run?.fixedRate) {
        const kept = run.fixedRate.requestsPerSecond >= runSettings.fixedRate * 0.95;
        const pass = run.fixedRate.latencyMs.p99 <= targets.fixedRateP99Ms && run.fixedRate.non2xx === 0 && kept;
        checks.push({
          target: `p99 at ${runSettings.fixedRate} req/s (PostgreSQL)`,
          subject: endpoint.label,
          value: `${run.fixedRate.latencyMs.p99} ms${kept ? "" : ` (only ${run.fixedRate.requestsPerSecond} req/s served)`}`,
          limit: `≤ ${targets.fixedRateP99Ms} ms`,
          pass,
          ...(pass
            ? {}
            : {
                cause:
                  (run.throughput
                    ? `${runSettings.fixedRate} req/s is ${Math.round((runSettings.fixedRate / run.throughput.requestsPerSecond) * 100)}% ` +
                      `of the ${run.throughput.requestsPerSecond} req/s it serves flat out here (the load generator, the app ` +
                      `and PostgreSQL share ${os.cpus().length} cores), so requests queue; `
                    : "") + causeOf(endpoint, plans),
              }),
        });
      }
    }
    if (endpoint.group === "heavy" && run?.single) {
      const pass = run.single.latencyMs.p50 <= targets.heavyReadP50Ms;
      checks.push({
        target: "statement / report p50 over 1,000,000 time logs",
        subject: endpoint.label,
        value: `${run.single.latencyMs.p50} ms`,
        limit: `≤ ${targets.heavyReadP50Ms} ms`,
        pass,
        ...(pass ? {} : { cause: causeOf(endpoint, plans, { p50Ms: run.single.latencyMs.p50 }) }),
      });
    }
    const onPostgres = measured(tenth.runs[endpoint.id]);
    const onPglite = measured(pglite.runs[endpoint.id]);
    if (onPostgres && onPglite) {
      const ratio = onPostgres.requestsPerSecond / onPglite.requestsPerSecond;
      const pass = ratio <= targets.pgliteRatio;
      checks.push({
        target: "PGlite within 3× of PostgreSQL (same rows)",
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
  for (const run of [vigil, pglite]) {
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

function machineInfo() {
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
      }).then((run) => ({ run, fixtures })),
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
  const tenth = await withVigil(
    `PostgreSQL ${smallDatabase}`,
    "bench-server-postgres-tenth",
    { url: smallDatabaseUrl },
    (server, token, fixtures) =>
      measureServer(server, {
        label: "Vigil/PostgreSQL tenth",
        database: smallDatabase,
        token,
        fixtures,
        fixedRate: false,
        activeStatements: activeStatementsOn(smallDatabaseUrl, smallDatabase),
      }),
  );
  const pglite = await withVigil(
    "PGlite (tenth)",
    "bench-server-pglite",
    { dataDir: pgliteDataDir },
    (server, token, fixtures) =>
      measureServer(server, {
        label: "Vigil/PGlite tenth",
        database: path.relative(repoRoot, pgliteDataDir),
        token,
        fixtures,
        fixedRate: false,
      }),
  );

  log("web build: JavaScript per route");
  const web = measureWebSizes(log);
  const checks = evaluate(vigil.run, baseline, tenth, pglite, web, plans);
  const machine = machineInfo();

  // ---- Printed report ----
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const cell = (value: number | undefined, suffix = "") => (value === undefined ? "–" : `${value}${suffix}`);
  console.log(
    `\n=== Vigil benchmark ${started.toISOString()} — ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, ` +
      `git ${machine.git.revision.slice(0, 10)}${machine.git.dirty ? " (uncommitted changes)" : ""}`,
  );
  console.log(
    `Data: ${dataset.cases.toLocaleString("en-US")} cases, ${dataset.logs.toLocaleString("en-US")} time logs on ${dataset.version.split(" on ")[0]}; ` +
      `${runSettings.connections} connections, no pipelining, ${runSettings.warmupSeconds} s warm-up + ${runSettings.durationSeconds} s per run\n`,
  );
  const measured = (run: EndpointRun | undefined) => run?.throughput ?? run?.single;
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
      endpoints.map((endpoint) => {
        const run = vigil.run.runs[endpoint.id];
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
            ? `${run.fixedRate.latencyMs.p99}${run.fixedRate.requestsPerSecond < runSettings.fixedRate * 0.95 ? ` (${run.fixedRate.requestsPerSecond}/s)` : ""}`
            : "–",
          cell(run?.rssMaxMb),
        ];
      }),
    ),
  );
  console.log(
    `App process RSS before load / max under load: Vigil on PostgreSQL ${vigil.run.rssIdleMb} / ${vigil.run.rssMaxMb} MB, ` +
      `baseline ${baseline.rssIdleMb} / ${baseline.rssMaxMb} MB, Vigil on PGlite ${pglite.rssIdleMb} / ${pglite.rssMaxMb} MB`,
  );
  console.log(
    `\nPGlite against PostgreSQL on the same tenth (${smallDatabase} and ${path.relative(repoRoot, pgliteDataDir)})`,
  );
  console.log(
    table(
      ["endpoint", "PostgreSQL req/s", "PGlite req/s", "ratio", "PG p50", "PGlite p50", "PG RSS MB", "PGlite RSS MB"],
      endpoints.map((endpoint) => {
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

  const file = path.join(resultsDir, `bench-${started.toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        startedAt: started.toISOString(),
        finishedAt: new Date().toISOString(),
        machine: { ...machine, postgres: dataset.version },
        settings: runSettings,
        dataset: { database: fullDatabase, cases: dataset.cases, timeLogs: dataset.logs },
        endpoints: endpoints.map(({ id, label, group }) => ({ id, label, group })),
        servers: { vigilPostgres: vigil.run, baseline, vigilPostgresTenth: tenth, vigilPglite: pglite },
        web,
        plans,
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
