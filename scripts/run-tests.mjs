#!/usr/bin/env node
// `npm test`: every Vitest project (contract, server API on PGlite, web components), then the Playwright user
// journeys, even when the first suite failed. With VIGIL_TEST_POSTGRES_URL set (CI sets it), the server's API tests
// also run against that PostgreSQL server, beside the other suites (scripts/postgres-pass.mjs), followed there by the
// query plans at 100,000 cases when VIGIL_TEST_QUERY_PLANS=1 (CI sets both). Prints the counts per
// suite and, as the very last line, `N passed, N failed` (plus `, N skipped` when some were skipped). Exits non-zero
// if anything failed or nothing ran.
//
//   node scripts/run-tests.mjs [--unit-only | --e2e-only]
//
// Reports land in .test-results/ (vitest.json, playwright.json, summary.json, e2e-server.log), and the catalogue of
// every test with its result (test-catalogue.json, scripts/test-catalogue.mjs) that the server shows developers.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startPostgresPass } from "./postgres-pass.mjs";
import { countPlaywright, countVitest, report, totalOf } from "./test-results.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const resultsDir = path.join(repoRoot, ".test-results");
const vitestReport = path.join(resultsDir, "vitest.json");
const playwrightReport = path.join(resultsDir, "playwright.json");
const postgresReport = path.join(resultsDir, "vitest-postgres.json");
const postgresLog = path.join(resultsDir, "vitest-postgres.log");
const plansReport = path.join(resultsDir, "vitest-query-plans.json");
const plansLog = path.join(resultsDir, "vitest-query-plans.log");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const args = new Set(process.argv.slice(2));
for (const arg of args) {
  if (!["--unit-only", "--e2e-only"].includes(arg)) {
    console.error(`Unknown option ${arg}. Usage: node scripts/run-tests.mjs [--unit-only | --e2e-only]`);
    process.exit(2);
  }
}
if (args.has("--unit-only") && args.has("--e2e-only")) {
  console.error("Choose at most one of --unit-only and --e2e-only.");
  process.exit(2);
}
const runUnit = !args.has("--e2e-only");
const runE2e = !args.has("--unit-only");

mkdirSync(resultsDir, { recursive: true });

/**
 * Runs a command with the terminal and resolves with its exit code. Never spawnSync: while it blocks, this process
 * cannot hear the background PostgreSQL pass end, so what follows that pass would wait for the journeys.
 */
function run(command, commandArgs, env = {}) {
  console.log(`\n$ ${[command, ...commandArgs].join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: repoRoot, stdio: "inherit", env: { ...process.env, ...env } });
    child.once("error", (error) => {
      console.error(`Could not run ${command}: ${error.message}`);
      resolve(127);
    });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function banner(title) {
  console.log(`\n${"=".repeat(72)}\n${title}\n${"=".repeat(72)}`);
}

/** Debian's Chromium is the only browser these machines can have; install it when allowed, else say how. */
async function ensureChromium() {
  if (existsSync(chromiumPath)) return undefined;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
  if (isRoot && hasApt && !process.env.CHROMIUM_PATH) {
    console.log(`${chromiumPath} is missing; installing Debian's chromium package…`);
    const status = await run("sh", ["-c", "apt-get update && apt-get install -y chromium"], {
      DEBIAN_FRONTEND: "noninteractive",
    });
    if (status === 0 && existsSync(chromiumPath)) return undefined;
    return `Installing Chromium failed (exit code ${status}).`;
  }
  return (
    `Chromium is missing at ${chromiumPath}, so the end-to-end tests cannot run. Install Debian's build as root: ` +
    "`apt-get update && apt-get install -y chromium` (Playwright's own browser download does not work here), " +
    "or point CHROMIUM_PATH at a Chromium binary."
  );
}

const suites = [];
const postgresUrl = runUnit ? process.env.VIGIL_TEST_POSTGRES_URL : undefined;
const withPlans = Boolean(postgresUrl) && process.env.VIGIL_TEST_QUERY_PLANS === "1";
/** The PostgreSQL pass, when asked for: it goes on beside the journeys too and is awaited after them. */
let postgresPass;

if (runUnit) {
  banner("Unit, component and API tests (Vitest)");
  rmSync(vitestReport, { force: true });
  if (postgresUrl) {
    rmSync(postgresReport, { force: true });
    rmSync(plansReport, { force: true });
    postgresPass = startPostgresPass({
      repoRoot,
      url: postgresUrl,
      report: postgresReport,
      log: postgresLog,
      plans: withPlans ? { report: plansReport, log: plansLog } : undefined,
    });
  }
  const status = await run("npx", [
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${vitestReport}`,
  ]);
  suites.push(countVitest("unit, component and API (vitest)", vitestReport, status));
}

if (runE2e) {
  banner("End-to-end user journeys (Playwright, Chromium)");
  rmSync(playwrightReport, { force: true });
  const problem = await ensureChromium();
  if (problem) {
    console.error(`\n${problem}`);
    suites.push({ name: "end-to-end (playwright)", passed: 0, failed: 1, skipped: 0, notes: [problem] });
  } else {
    const status = await run("npm", ["test", "-w", "@vigil/e2e"], { PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightReport });
    suites.push(countPlaywright("end-to-end (playwright)", playwrightReport, status));
  }
}

if (postgresPass) {
  const { status, plans } = await postgresPass;
  banner(`API tests against PostgreSQL (${postgresUrl}), from ${path.relative(repoRoot, postgresLog)}`);
  console.log(readFileSync(postgresLog, "utf8"));
  suites.push(countVitest("API against PostgreSQL (vitest)", postgresReport, status));
  if (plans !== undefined) {
    banner(`Query plans at 100,000 cases (PostgreSQL), from ${path.relative(repoRoot, plansLog)}`);
    console.log(readFileSync(plansLog, "utf8"));
    suites.push(countVitest("query plans at 100,000 cases (PostgreSQL)", plansReport, plans));
  }
}

/**
 * The catalogue of this run's tests (GET /api/bugs/unit-tests), from the reports of the suites that ran: written
 * whatever the outcome, and never a reason to fail the run (a problem with it is printed, not counted).
 */
async function writeTestCatalogue() {
  try {
    const { describeCatalogue, writeCatalogue } = await import("./test-catalogue.mjs");
    const written = writeCatalogue({
      vitestReports: runUnit ? [vitestReport] : [],
      playwrightReports: runE2e ? [playwrightReport] : [],
    });
    console.log(`\n${describeCatalogue(written)}`);
  } catch (error) {
    console.error(`\nThe test catalogue could not be written (the results above stand): ${error?.message ?? error}`);
  }
}

await writeTestCatalogue();

banner("Summary");
const exitCode = report(suites);
writeFileSync(path.join(resultsDir, "summary.json"), `${JSON.stringify({ ...totalOf(suites), suites }, null, 2)}\n`);
process.exitCode = exitCode;
