// The server's API tests run again against a PostgreSQL server, for scripts/run-tests.mjs when
// VIGIL_TEST_POSTGRES_URL names one (CI sets it). The pass runs beside the PGlite pass: it mostly waits on the
// database server (measured: ~0.4 of a core over its run), so on two cores it costs the other suites little. Its
// output goes to a log file, printed by run-tests.mjs once it has ended, so no two runs' lines interleave.
//
// With VIGIL_TEST_QUERY_PLANS=1 (CI sets it) the query-plan check at 100,000 cases (bench/query-plans.test.ts)
// follows the API tests in the same background chain, never beside them: its bulk load's checkpoints starved the
// crash tests' 180 s hooks when both ran at once. After them it overlaps the journeys, which run on PGlite and
// leave part of the two cores idle while browsers wait; run after npm test, it added ~3.5 min to CI.
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Server test files that never open a database (pure rules and configuration parsing): they ran on PGlite and would
 * only repeat themselves here. Paths are relative to apps/server. A listed file that comes to use a database
 * (imports a testing/ helper, the database client, pg or PGlite) is kept in the pass, with a warning to take it off
 * this list, so nothing that touches the engine is ever skipped by mistake.
 */
const engineFreeTests = [
  "src/config.test.ts",
  "src/config-federation.test.ts",
  "src/db/backup.test.ts",
  "src/hl7/hl7-ack.test.ts",
  "src/hl7/hl7-text.test.ts",
  "src/hl7/mllp-client.test.ts",
  "src/hl7/mllp-framing.test.ts",
  "src/hl7/mllp-listener.test.ts",
  "src/hl7/mllp-listener-fuzz.test.ts",
  "src/hl7/mllp-python-peer.test.ts",
  "src/hl7/mllp-tls.test.ts",
  "src/modules/billing/billing-calendar.test.ts",
  "src/modules/billing/billing-money.test.ts",
  "src/modules/billing/cpt-rules.test.ts",
  "src/modules/records/impedance-rules.test.ts",
  "src/modules/records/interpretation-rules.test.ts",
  "src/modules/records/time-log-rules.test.ts",
  "src/modules/watch/clock-rules.test.ts",
  "src/modules/watch/service-level-rules.test.ts",
];

function excludes(repoRoot) {
  const args = [];
  for (const file of engineFreeTests) {
    const full = path.join(repoRoot, "apps", "server", file);
    if (!existsSync(full)) continue;
    if (/testing\/|db\/client|from "pg"|@electric-sql\/pglite|inject\(/.test(readFileSync(full, "utf8"))) {
      console.warn(
        `Warning: apps/server/${file} now uses a database; it runs on PostgreSQL too (take it off the list).`,
      );
    } else {
      args.push("--exclude", file);
    }
  }
  return args;
}

function runLogged({ repoRoot, args, env, log, what }) {
  console.log(`\n$ npx ${args.join(" ")} > ${path.relative(repoRoot, log)} (${what}, in the background)`);
  const logFd = openSync(log, "w");
  const child = spawn("npx", args, { cwd: repoRoot, stdio: ["ignore", logFd, logFd], env: { ...process.env, ...env } });
  closeSync(logFd);
  return new Promise((resolve) => {
    child.once("error", (error) => {
      console.error(`Could not run ${what}: ${error.message}`);
      resolve(127);
    });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const vitestReporters = (report) => ["--reporter=default", "--reporter=json", `--outputFile.json=${report}`];

/**
 * Starts the pass (`report` is Vitest's JSON report, `log` its output) and, when `plans` names a report and log, the
 * query-plan check after it. Resolves once both have ended, with each one's exit code (`plans` undefined when not
 * asked for).
 */
export async function startPostgresPass({ repoRoot, url, report, log, plans }) {
  const env = { DATABASE_URL: url };
  const status = await runLogged({
    repoRoot,
    args: ["vitest", "run", "--project", "server", ...excludes(repoRoot), ...vitestReporters(report)],
    env,
    log,
    what: `the API tests against ${url}`,
  });
  if (!plans) return { status, plans: undefined };
  const plansStatus = await runLogged({
    repoRoot,
    // Only the plan check: the bench's pure unit tests have already run in the PGlite pass.
    args: ["vitest", "run", "--project", "bench", "query-plans.test.ts", ...vitestReporters(plans.report)],
    env,
    log: plans.log,
    what: "the query plans at 100,000 cases",
  });
  return { status, plans: plansStatus };
}
