import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, it } from "vitest";
import {
  buildCatalogue,
  firstLine,
  outsideAnyTest,
  playwrightTests,
  repoRelative,
  vitestTests,
  writeCatalogue,
} from "./test-catalogue.mjs";

const root = "/repo";
const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "test-catalogue.mjs");
const esc = String.fromCharCode(27);
const folder = mkdtempSync(path.join(tmpdir(), "vigil-catalogue-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const vitestReport = {
  numTotalTests: 5,
  testResults: [
    {
      name: "/repo/apps/server/src/modules/bugs/bugs.test.ts",
      status: "failed",
      message: "",
      assertionResults: [
        {
          ancestorTitles: ["filing a report", "as a technologist"],
          title: "keeps the context",
          status: "passed",
          duration: 12.3456,
          failureMessages: [],
        },
        {
          ancestorTitles: ["filing a report"],
          title: "numbers it",
          status: "failed",
          duration: 3,
          failureMessages: [`\n${esc}[31mAssertionError: expected 1 to be 2${esc}[39m\n    at bugs.test.ts:10:5`],
        },
        { ancestorTitles: [], title: "is not written yet", status: "todo", failureMessages: [] },
      ],
    },
    {
      name: "/repo/packages/contract/src/pages.test.ts",
      status: "passed",
      assertionResults: [{ ancestorTitles: [], title: "has pages", status: "skipped", duration: 0 }],
    },
    { name: "/repo/apps/web/src/broken.test.tsx", status: "failed", message: "Cannot find module './x'\nstack" },
    { name: "/repo/tools/other.test.ts", status: "passed", assertionResults: [{ title: "t", status: "passed" }] },
  ],
};

const playwrightReport = {
  config: { rootDir: "/repo/e2e/specs" },
  suites: [
    {
      title: "bugs.spec.ts",
      file: "bugs.spec.ts",
      specs: [
        {
          title: "files a report",
          file: "bugs.spec.ts",
          tests: [{ projectName: "chromium", status: "expected", results: [{ status: "passed", duration: 1500 }] }],
        },
      ],
      suites: [
        {
          title: "triage",
          file: "bugs.spec.ts",
          specs: [
            {
              title: "moves a report",
              file: "bugs.spec.ts",
              tests: [
                {
                  projectName: "chromium",
                  status: "unexpected",
                  results: [{ status: "failed", duration: 900, error: { message: "Error: Timed out\n  at …" } }],
                },
              ],
            },
            {
              title: "is skipped",
              file: "bugs.spec.ts",
              tests: [{ projectName: "chromium", status: "skipped", results: [] }],
            },
          ],
        },
      ],
    },
  ],
  errors: [{ message: "Error: global setup failed\nmore" }],
};

describe("the test catalogue", () => {
  it("takes the first non-empty line of a failure, colours stripped", () => {
    assert.equal(firstLine(`\n  ${esc}[31mboom${esc}[39m  \nsecond`), "boom");
    assert.equal(firstLine(undefined), null);
    assert.equal(firstLine("\n\n"), null);
  });

  it("names files relative to the repository, also from a report written in another checkout", () => {
    assert.equal(repoRelative("/repo/apps/server/a.test.ts", root), "apps/server/a.test.ts");
    assert.equal(repoRelative("/elsewhere/vigil/apps/web/b.test.tsx", root), "apps/web/b.test.tsx");
  });

  it("lists Vitest tests with their suite from the file's place, describe blocks joined with ›", () => {
    const { tests, unknownFiles } = vitestTests(vitestReport, root);
    assert.equal(unknownFiles, 1);
    assert.deepEqual(tests[0], {
      suite: "server",
      file: "apps/server/src/modules/bugs/bugs.test.ts",
      name: "filing a report › as a technologist › keeps the context",
      status: "passed",
      durationMs: 12.346,
      failure: null,
    });
    assert.equal(tests[1].status, "failed");
    assert.equal(tests[1].failure, "AssertionError: expected 1 to be 2");
    assert.deepEqual(
      tests.slice(2).map((test) => [test.suite, test.name, test.status, test.durationMs]),
      [
        ["server", "is not written yet", "skipped", null],
        ["contract", "has pages", "skipped", 0],
        ["web", outsideAnyTest, "failed", null],
      ],
    );
    assert.equal(tests[4].failure, "Cannot find module './x'");
  });

  it("lists Playwright tests with describe blocks but not the file's own title, and errors outside tests", () => {
    const tests = playwrightTests(playwrightReport, root);
    assert.deepEqual(
      tests.map((test) => [test.file, test.name, test.status, test.durationMs, test.failure]),
      [
        ["e2e/specs/bugs.spec.ts", "files a report", "passed", 1500, null],
        ["e2e/specs/bugs.spec.ts", "triage › moves a report", "failed", 900, "Error: Timed out"],
        ["e2e/specs/bugs.spec.ts", "triage › is skipped", "skipped", null, null],
        ["e2e/playwright.config.ts", outsideAnyTest, "failed", null, "Error: global setup failed"],
      ],
    );
    assert.ok(tests.every((test) => test.suite === "e2e"));
  });

  it("orders tests by suite, then file, and leaves out reports that do not exist", () => {
    const vitestFile = path.join(folder, "vitest.json");
    writeFileSync(vitestFile, JSON.stringify(vitestReport));
    const { catalogue } = buildCatalogue({
      vitestReports: [vitestFile, path.join(folder, "missing.json")],
      root,
      ranAt: new Date("2026-03-01T10:00:00Z"),
      revision: "abc1234",
    });
    assert.equal(catalogue.ranAt, "2026-03-01T10:00:00.000Z");
    assert.equal(catalogue.revision, "abc1234");
    assert.deepEqual([...new Set(catalogue.tests.map((test) => test.suite))], ["contract", "server", "web"]);
  });

  it("writes the catalogue as a command, with the revision of the checkout", () => {
    const vitestFile = path.join(folder, "vitest-command.json");
    const playwrightFile = path.join(folder, "playwright.json");
    const out = path.join(folder, "out", "test-catalogue.json");
    writeFileSync(vitestFile, JSON.stringify(vitestReport));
    writeFileSync(playwrightFile, JSON.stringify(playwrightReport));
    const result = spawnSync(
      process.execPath,
      [script, "--vitest", vitestFile, "--playwright", playwrightFile, "--out", out],
      {
        encoding: "utf8",
      },
    );
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /Test catalogue: \d+ tests/);
    const written = JSON.parse(readFileSync(out, "utf8"));
    assert.ok(written.revision === null || /^[0-9a-f]{40}$/.test(written.revision));
    assert.ok(!Number.isNaN(Date.parse(written.ranAt)));
    assert.ok(written.tests.some((test) => test.suite === "e2e"));
  });

  it("refuses an unknown option with exit code 2", () => {
    const result = spawnSync(process.execPath, [script, "--json", "x"], { encoding: "utf8" });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /Unknown option --json/);
  });

  it("returns where it wrote and what", () => {
    const out = path.join(folder, "direct.json");
    const written = writeCatalogue({ out, root, revision: null });
    assert.equal(written.file, out);
    assert.deepEqual(JSON.parse(readFileSync(out, "utf8")).tests, []);
  });
});
