#!/usr/bin/env node
// The catalogue of the product's own tests with the results of their last run, which the server serves read-only
// at GET /api/bugs/unit-tests (TEST_CATALOGUE_FILE). Built from the reports the runners write into .test-results/:
// Vitest's JSON (Jest's shape) and Playwright's JSON. scripts/run-tests.mjs calls it after both runs.
//
//   node scripts/test-catalogue.mjs [--vitest <report.json>]… [--playwright <report.json>]… [--out <file>]
//
// Without a report option it reads .test-results/vitest.json and .test-results/playwright.json when they exist;
// it writes .test-results/test-catalogue.json unless --out says otherwise:
//   { ranAt, revision, tests: [{ suite, file, name, status, durationMs, failure }] }
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const resultsDir = path.join(repoRoot, ".test-results");
export const defaultCatalogueFile = path.join(resultsDir, "test-catalogue.json");

const suiteOrder = ["contract", "server", "web", "scripts", "e2e"];
/** Which Vitest project a test file belongs to, by where it lives. */
const suiteFolders = [
  ["packages/contract/", "contract"],
  ["apps/server/", "server"],
  ["apps/web/", "web"],
  ["scripts/", "scripts"],
  ["e2e/", "e2e"],
];
/** What a test that failed outside any test (an import error, a failing hook, global setup) is listed as. */
export const outsideAnyTest = "(outside any test)";

// Terminal colour codes start with ESC (\u001b); built from a string so no control character sits in a regex literal.
const colourCodes = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, "g");

/** The first non-empty line of a failure message, colours stripped; null when there is none. */
export function firstLine(text) {
  if (text === undefined || text === null) return null;
  const line = String(text)
    .replace(colourCodes, "")
    .split("\n")
    .map((candidate) => candidate.trim())
    .find((candidate) => candidate.length > 0);
  return line ? line.slice(0, 500) : null;
}

/** A path relative to the repository, with forward slashes, whether the report holds it absolute or not. */
export function repoRelative(file, root = repoRoot) {
  const absolute = path.resolve(root, String(file));
  const relative = path.relative(root, absolute);
  if (relative && !relative.startsWith("..") && !path.isAbsolute(relative)) return relative.split(path.sep).join("/");
  // A report written in another checkout: keep the part from the first known top folder.
  const text = String(file).split(path.sep).join("/");
  const marker = text.search(/(^|\/)(apps|packages|e2e|scripts)\//);
  return marker >= 0 ? text.slice(marker).replace(/^\//, "") : text;
}

export function suiteOfFile(file) {
  return suiteFolders.find(([folder]) => file.startsWith(folder))?.[1];
}

function duration(value) {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) / 1000 : null;
}

function vitestStatus(status) {
  if (status === "passed" || status === "failed") return status;
  // pending, skipped, todo, disabled: it did not run.
  return "skipped";
}

/** The tests of one Vitest JSON report; files outside the known projects are left out (and counted). */
export function vitestTests(report, root = repoRoot) {
  const tests = [];
  let unknownFiles = 0;
  for (const result of report?.testResults ?? []) {
    const file = repoRelative(result.name ?? "", root);
    const suite = suiteOfFile(file);
    if (!suite) {
      unknownFiles += 1;
      continue;
    }
    const assertions = result.assertionResults ?? [];
    for (const test of assertions) {
      const status = vitestStatus(test.status);
      tests.push({
        suite,
        file,
        name: [...(test.ancestorTitles ?? []), test.title]
          .filter((part) => part !== undefined && part !== "")
          .join(" › "),
        status,
        durationMs: duration(test.duration),
        failure: status === "failed" ? (firstLine(test.failureMessages?.[0]) ?? "failed") : null,
      });
    }
    // A file that failed before (or around) its tests — an import error, a failing hook — is one failure.
    if (result.status === "failed" && !assertions.some((test) => test.status === "failed")) {
      tests.push({
        suite,
        file,
        name: outsideAnyTest,
        status: "failed",
        durationMs: null,
        failure: firstLine(result.message) ?? "the file failed outside any test",
      });
    }
  }
  return { tests, unknownFiles };
}

function playwrightStatus(status) {
  if (status === "expected" || status === "flaky") return "passed";
  if (status === "unexpected") return "failed";
  return "skipped";
}

/** The tests of one Playwright JSON report (suites → specs → tests → results), describe blocks in the name. */
export function playwrightTests(report, root = repoRoot) {
  const specRoot = report?.config?.rootDir ?? path.join(root, "e2e");
  const tests = [];
  const walk = (suites, titles, depth) => {
    for (const suite of suites ?? []) {
      // The outermost suites are the files themselves; their titles are not describe blocks.
      const here = depth > 0 && suite.title ? [...titles, suite.title] : titles;
      for (const spec of suite.specs ?? []) {
        const file = repoRelative(path.resolve(specRoot, spec.file ?? suite.file ?? ""), root);
        const runs = spec.tests ?? [];
        for (const test of runs) {
          const last = test.results?.at(-1);
          const status = playwrightStatus(test.status);
          const project = runs.length > 1 && test.projectName ? ` [${test.projectName}]` : "";
          tests.push({
            suite: "e2e",
            file,
            name: [...here, spec.title].join(" › ") + project,
            status,
            durationMs: duration(last?.duration),
            failure:
              status === "failed" ? (firstLine(last?.error?.message ?? last?.errors?.[0]?.message) ?? "failed") : null,
          });
        }
      }
      walk(suite.suites, here, depth + 1);
    }
  };
  walk(report?.suites, [], 0);
  // Errors outside tests (a failed global setup, say) are failures too, listed where they happened.
  for (const error of report?.errors ?? []) {
    const where = error.location?.file ? repoRelative(error.location.file, root) : "e2e/playwright.config.ts";
    tests.push({
      suite: "e2e",
      file: where,
      name: outsideAnyTest,
      status: "failed",
      durationMs: null,
      failure: firstLine(error.message ?? String(error)) ?? "failed",
    });
  }
  return tests;
}

/** The commit the run tested, or null outside a git checkout (a build folder, say). */
export function gitRevision(root = repoRoot) {
  const result = spawnSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" });
  const revision = result.status === 0 ? result.stdout.trim() : "";
  return /^[0-9a-f]{7,64}$/i.test(revision) ? revision : null;
}

function readReport(file) {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    console.warn(`test catalogue: ${file} is not readable JSON (${error.message}); left out`);
    return undefined;
  }
}

/**
 * The catalogue of the given reports (missing ones are left out): tests by suite, then file, in the order each
 * file ran them.
 */
export function buildCatalogue({
  vitestReports = [],
  playwrightReports = [],
  root = repoRoot,
  ranAt = new Date(),
  revision = gitRevision(root),
}) {
  const tests = [];
  const notes = [];
  for (const file of vitestReports) {
    const report = readReport(file);
    if (!report) continue;
    const found = vitestTests(report, root);
    tests.push(...found.tests);
    if (found.unknownFiles > 0)
      notes.push(`${found.unknownFiles} file(s) of ${file} belong to no known suite; left out`);
  }
  for (const file of playwrightReports) {
    const report = readReport(file);
    if (report) tests.push(...playwrightTests(report, root));
  }
  const ordered = tests
    .map((test, index) => ({ test, index }))
    .sort(
      (left, right) =>
        suiteOrder.indexOf(left.test.suite) - suiteOrder.indexOf(right.test.suite) ||
        (left.test.file < right.test.file ? -1 : left.test.file > right.test.file ? 1 : 0) ||
        left.index - right.index,
    )
    .map(({ test }) => test);
  return { catalogue: { ranAt: new Date(ranAt).toISOString(), revision, tests: ordered }, notes };
}

/** Builds and writes the catalogue; written to a temporary file and renamed, so the server never reads half of it. */
export function writeCatalogue({ out = defaultCatalogueFile, ...options }) {
  const { catalogue, notes } = buildCatalogue(options);
  mkdirSync(path.dirname(out), { recursive: true });
  const temporary = `${out}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(catalogue, null, 2)}\n`);
  renameSync(temporary, out);
  return { file: out, catalogue, notes };
}

export function describeCatalogue({ file, catalogue, notes }) {
  const count = (status) => catalogue.tests.filter((test) => test.status === status).length;
  const relative = path.relative(process.cwd(), file);
  const shown = relative && !relative.startsWith("..") ? relative : file;
  const lines = [
    `Test catalogue: ${catalogue.tests.length} tests (${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped) → ${shown}`,
  ];
  for (const note of notes) lines.push(`  - ${note}`);
  return lines.join("\n");
}

function parseArguments(argv) {
  const options = { vitestReports: [], playwrightReports: [], out: defaultCatalogueFile };
  for (let index = 0; index < argv.length; index += 2) {
    const [flag, value] = [argv[index], argv[index + 1]];
    if (value === undefined) throw new Error(`${flag} needs a file`);
    if (flag === "--vitest") options.vitestReports.push(path.resolve(value));
    else if (flag === "--playwright") options.playwrightReports.push(path.resolve(value));
    else if (flag === "--out") options.out = path.resolve(value);
    else throw new Error(`Unknown option ${flag}`);
  }
  if (options.vitestReports.length === 0 && options.playwrightReports.length === 0) {
    options.vitestReports.push(path.join(resultsDir, "vitest.json"));
    options.playwrightReports.push(path.join(resultsDir, "playwright.json"));
  }
  return options;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    console.log(describeCatalogue(writeCatalogue(parseArguments(process.argv.slice(2)))));
  } catch (error) {
    console.error(`test catalogue: ${error.message}`);
    console.error(
      "Usage: node scripts/test-catalogue.mjs [--vitest <report.json>]… [--playwright <report.json>]… [--out <file>]",
    );
    process.exitCode = 2;
  }
}
