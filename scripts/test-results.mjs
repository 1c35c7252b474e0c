#!/usr/bin/env node
// Counting test results from the reports the runners write, shared by scripts/run-tests.mjs and .ci/run.
//
// As a command it adds suites up and prints one line per suite, then `N passed, N failed[, N skipped]` last;
// it exits 1 when anything failed or nothing ran:
//   node scripts/test-results.mjs --suite <label> <vitest|playwright|summary> <report.json> <exit code> [--suite …]
import { existsSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/**
 * @typedef {{ name: string, passed: number, failed: number, skipped: number, notes: string[] }} SuiteCounts
 */

function readJson(file) {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/** Vitest's JSON reporter (Jest's shape). A file that failed before its tests ran counts as one failure. */
export function countVitest(name, file, exitCode) {
  const report = readJson(file);
  /** @type {SuiteCounts} */
  const counts = { name, passed: 0, failed: 0, skipped: 0, notes: [] };
  if (report) {
    counts.passed = report.numPassedTests ?? 0;
    counts.failed = report.numFailedTests ?? 0;
    counts.skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    for (const result of report.testResults ?? []) {
      const failedTests = (result.assertionResults ?? []).filter((test) => test.status === "failed");
      // Name each failure in the summary: CI logs are often read from their tail only.
      for (const test of failedTests) {
        const reason = test.failureMessages?.[0] ? ` (${firstLine(test.failureMessages[0])})` : "";
        counts.notes.push(`failed: ${relativeName(result.name)} › ${test.fullName ?? test.title}${reason}`);
      }
      if (result.status === "failed" && failedTests.length === 0) {
        counts.failed += 1;
        counts.notes.push(
          `${result.name}: failed outside any test${result.message ? ` (${firstLine(result.message)})` : ""}`,
        );
      }
    }
  } else {
    counts.notes.push(`no readable report at ${file}`);
  }
  return settleWithExitCode(counts, exitCode);
}

/** Playwright's JSON reporter. Errors outside tests (a failed global setup, say) count one failure each. */
export function countPlaywright(name, file, exitCode) {
  const report = readJson(file);
  /** @type {SuiteCounts} */
  const counts = { name, passed: 0, failed: 0, skipped: 0, notes: [] };
  if (report?.stats) {
    counts.passed = (report.stats.expected ?? 0) + (report.stats.flaky ?? 0);
    counts.failed = report.stats.unexpected ?? 0;
    counts.skipped = report.stats.skipped ?? 0;
    if ((report.stats.flaky ?? 0) > 0) counts.notes.push(`${report.stats.flaky} passed only on retry (flaky)`);
    for (const { title, reason } of failedPlaywrightTests(report.suites ?? [], [])) {
      counts.notes.push(`failed: ${title}${reason ? `\n        ${reason.split("\n").join("\n        ")}` : ""}`);
    }
    for (const error of report.errors ?? []) {
      counts.failed += 1;
      counts.notes.push(`error outside tests: ${firstLine(error.message ?? String(error))}`);
    }
  } else {
    counts.notes.push(`no readable report at ${file}`);
  }
  return settleWithExitCode(counts, exitCode);
}

/** The summary scripts/run-tests.mjs writes (`.test-results/summary.json`). */
export function countSummary(name, file, exitCode) {
  const report = readJson(file);
  /** @type {SuiteCounts} */
  const counts = {
    name,
    passed: report?.passed ?? 0,
    failed: report?.failed ?? 0,
    skipped: report?.skipped ?? 0,
    notes: [],
  };
  if (!report) counts.notes.push(`no readable summary at ${file}`);
  for (const suite of report?.suites ?? []) for (const note of suite.notes ?? []) counts.notes.push(note);
  return settleWithExitCode(counts, exitCode);
}

/**
 * The Playwright tests whose last result failed, walking nested describe blocks, each with why: a journey's
 * failure is rarely reproducible on demand, and CI logs are often read from their tail only.
 */
export function failedPlaywrightTests(suites, path) {
  const failures = [];
  for (const suite of suites) {
    const here = suite.title ? [...path, suite.title] : path;
    for (const spec of suite.specs ?? []) {
      const failed = (spec.tests ?? []).find((test) => test.status === "unexpected");
      if (failed) failures.push({ title: [...here, spec.title].join(" › "), reason: playwrightReason(failed) });
    }
    failures.push(...failedPlaywrightTests(suite.suites ?? [], here));
  }
  return failures;
}

/** The last result's first error: its first lines (the assertion, the locator, expected and received) and where. */
function playwrightReason(test) {
  const result = (test.results ?? []).at(-1);
  const error = result?.error ?? result?.errors?.[0];
  if (!error) return "";
  const lines = String(error.message ?? error.value ?? "")
    .replace(colourCodes, "")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "")
    .slice(0, 8)
    .map((line) => line.slice(0, 300));
  const where = error.location ? `at ${relativeName(error.location.file)}:${error.location.line}` : "";
  return [...lines, where].filter(Boolean).join("\n");
}

function relativeName(file) {
  const marker = String(file).search(/(apps|packages|e2e|scripts)\//);
  return marker >= 0 ? String(file).slice(marker) : String(file);
}

/** A runner that exited non-zero without a failing test still failed (a crash, a missing report, a broken config). */
function settleWithExitCode(counts, exitCode) {
  const code = Number(exitCode);
  if (code !== 0 && counts.failed === 0) {
    counts.failed = 1;
    counts.notes.push(
      `the runner exited with code ${exitCode} without a failing test (an unhandled error, a crash or a bad config; see its output above); counted as one failure`,
    );
  }
  return counts;
}

// Terminal colour codes start with ESC (\u001b); built from a string so no control character sits in a regex literal.
const colourCodes = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

function firstLine(text) {
  // Strip terminal colours so the line reads plainly in logs.
  return String(text).replace(colourCodes, "").split("\n")[0].slice(0, 300);
}

export function totalOf(suites) {
  return suites.reduce(
    (sum, suite) => ({
      passed: sum.passed + suite.passed,
      failed: sum.failed + suite.failed,
      skipped: sum.skipped + suite.skipped,
    }),
    { passed: 0, failed: 0, skipped: 0 },
  );
}

export function countsLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`;
}

/** Prints each suite, then the total as the very last line; returns the exit code (1 if failed or empty). */
export function report(suites) {
  for (const suite of suites) {
    console.log(`  ${suite.name}: ${countsLine(suite)}`);
    for (const note of suite.notes) console.log(`    - ${note}`);
  }
  const total = totalOf(suites);
  const empty = total.passed + total.failed === 0;
  if (empty) console.log("  No tests ran.");
  console.log(countsLine(total));
  return total.failed > 0 || empty ? 1 : 0;
}

const counters = { vitest: countVitest, playwright: countPlaywright, summary: countSummary };

function main(argv) {
  const suites = [];
  for (let index = 0; index < argv.length; index++) {
    if (argv[index] !== "--suite") throw new Error(`Unexpected argument ${argv[index]}`);
    const [label, kind, file, exitCode] = argv.slice(index + 1, index + 5);
    const counter = counters[kind];
    if (!label || !counter || !file || exitCode === undefined) {
      throw new Error("Usage: --suite <label> <vitest|playwright|summary> <report.json> <exit code>");
    }
    suites.push(counter(label, file, exitCode));
    index += 4;
  }
  if (suites.length === 0) throw new Error("Name at least one --suite.");
  return report(suites);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(error.message);
    console.log("0 passed, 1 failed");
    process.exitCode = 2;
  }
}
