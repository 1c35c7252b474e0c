import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { UnitTest, UnitTestPage } from "@vigil/contract";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { createTestCatalogueStore, type TestCatalogue } from "./test-catalogue-repository.js";

const folder = mkdtempSync(path.join(tmpdir(), "vigil-unit-tests-"));
const catalogueFile = path.join(folder, "test-catalogue.json");
const repoRoot = path.resolve(import.meta.dirname, "../../../../..");

let harness: TestApp;
let developerToken: string;
let technologistToken: string;

beforeAll(async () => {
  harness = await createTestApp({ TEST_CATALOGUE_FILE: catalogueFile });
  developerToken = await harness.tokenFor("catalogue-developer", ["developer"]);
  technologistToken = await harness.tokenFor("catalogue-technologist", ["technologist"]);
});
afterAll(async () => {
  await harness.close();
  rmSync(folder, { recursive: true, force: true });
});

function test(suite: UnitTest["suite"], file: string, name: string, status: UnitTest["status"]): UnitTest {
  return {
    suite,
    file,
    name,
    status,
    durationMs: status === "skipped" ? null : 12.5,
    failure: status === "failed" ? "AssertionError: expected 401 to be 200" : null,
  };
}

const fixture: TestCatalogue = {
  ranAt: "2026-03-01T10:00:00.000Z",
  revision: "0123456789abcdef0123456789abcdef01234567",
  tests: [
    test("contract", "packages/contract/src/pages.test.ts", "the page table › has a page for every route", "passed"),
    test("contract", "packages/contract/src/access.test.ts", "access › grants developers triage", "passed"),
    test("server", "apps/server/src/modules/bugs/bug-reports.test.ts", "filing › numbers reports", "passed"),
    test("server", "apps/server/src/modules/bugs/bug-reports.test.ts", "triage › answers 412", "failed"),
    test("server", "apps/server/src/modules/clients/clients.test.ts", "POST clients › creates a client", "skipped"),
    test("web", "apps/web/src/features/bugs/report-dialog.test.tsx", "the report dialog › files", "passed"),
    test("e2e", "e2e/specs/bugs.spec.ts", "a developer triages a report", "failed"),
  ],
};

let clock = Date.parse("2026-01-01T00:00:00Z");
/** Writes the catalogue file with a modification time of its own, as a new test run would. */
function catalogueIs(content: string | object | undefined): void {
  if (content === undefined) {
    rmSync(catalogueFile, { force: true });
    return;
  }
  writeFileSync(catalogueFile, typeof content === "string" ? content : JSON.stringify(content));
  touchCatalogue();
}

function touchCatalogue(): void {
  clock += 60_000;
  utimesSync(catalogueFile, new Date(clock), new Date(clock));
}

async function unitTests(query = "", token = developerToken) {
  return harness.app.inject({
    method: "GET",
    url: `/api/bugs/unit-tests${query ? `?${query}` : ""}`,
    headers: { authorization: `Bearer ${token}` },
  });
}

async function page(query = ""): Promise<UnitTestPage> {
  const response = await unitTests(query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

const namesOf = (answer: UnitTestPage) => answer.items.map((item) => item.name);

describe("the test catalogue", () => {
  it("answers every test of the last run with totals over all, over the match and per suite", async () => {
    catalogueIs(fixture);
    const answer = await page();
    expect(answer).toMatchObject({
      available: true,
      ranAt: fixture.ranAt,
      revision: fixture.revision,
      total: 7,
      limit: 50,
      offset: 0,
      totals: { total: 7, passed: 4, failed: 2, skipped: 1 },
      matching: { total: 7, passed: 4, failed: 2, skipped: 1 },
      suites: [
        { suite: "contract", total: 2, passed: 2, failed: 0, skipped: 0 },
        { suite: "server", total: 3, passed: 1, failed: 1, skipped: 1 },
        { suite: "web", total: 1, passed: 1, failed: 0, skipped: 0 },
        { suite: "e2e", total: 1, passed: 0, failed: 1, skipped: 0 },
      ],
    });
    expect(answer.items).toEqual(fixture.tests);
  });

  it("filters by suite and status, keeping the totals over everything", async () => {
    catalogueIs(fixture);
    const failedOnServer = await page("suite=server&status=failed");
    expect(namesOf(failedOnServer)).toEqual(["triage › answers 412"]);
    expect(failedOnServer.total).toBe(1);
    expect(failedOnServer.matching).toEqual({ total: 1, passed: 0, failed: 1, skipped: 0 });
    expect(failedOnServer.totals.total).toBe(7);
    expect(failedOnServer.suites).toHaveLength(4);
    const failed = await page("status=failed");
    expect(failed.items.map((item) => item.suite)).toEqual(["server", "e2e"]);
  });

  it("finds words in the file or the test's name, whatever their case", async () => {
    catalogueIs(fixture);
    expect(namesOf(await page("search=CLIENTS.test"))).toEqual(["POST clients › creates a client"]);
    expect((await page("search=bugs")).matching).toEqual({ total: 4, passed: 2, failed: 2, skipped: 0 });
    expect(namesOf(await page(`search=${encodeURIComponent("bug-reports 412")}`))).toEqual(["triage › answers 412"]);
    expect((await page("search=nothing-like-this")).matching.total).toBe(0);
  });

  it("pages through what matches", async () => {
    catalogueIs(fixture);
    const second = await page("limit=2&offset=2");
    expect(namesOf(second)).toEqual([fixture.tests[2]?.name, fixture.tests[3]?.name]);
    expect(second).toMatchObject({ total: 7, limit: 2, offset: 2 });
    const beyond = await page("limit=2&offset=20");
    expect(beyond).toMatchObject({ items: [], total: 7 });
  });

  it("answers available: false with empty lists when no run has written a catalogue", async () => {
    catalogueIs(undefined);
    const zero = { total: 0, passed: 0, failed: 0, skipped: 0 };
    expect(await page()).toEqual({
      available: false,
      ranAt: null,
      revision: null,
      items: [],
      total: 0,
      limit: 50,
      offset: 0,
      totals: zero,
      matching: zero,
      suites: [],
    });
  });

  it("answers available: false, not an error, for a file that is not JSON or not a catalogue", async () => {
    for (const content of ["{ not json", JSON.stringify({ ranAt: "yesterday", tests: "many" }), "[]"]) {
      catalogueIs(content);
      const answer = await page();
      expect(answer.available, content).toBe(false);
      expect(answer.items).toEqual([]);
    }
  });

  it("serves the new run once the file changes", async () => {
    catalogueIs(fixture);
    expect((await page()).total).toBe(7);
    catalogueIs({ ...fixture, revision: null, tests: fixture.tests.slice(0, 2) });
    const answer = await page();
    expect(answer).toMatchObject({ revision: null, total: 2, suites: [{ suite: "contract", total: 2 }] });
  });

  it("serves the catalogue scripts/test-catalogue.mjs writes from the runners' reports", async () => {
    const vitestReport = path.join(folder, "vitest.json");
    writeFileSync(
      vitestReport,
      JSON.stringify({
        testResults: [
          {
            name: path.join(repoRoot, "apps/server/src/modules/bugs/bug-reports.test.ts"),
            status: "failed",
            assertionResults: [
              { ancestorTitles: ["filing"], title: "numbers reports", status: "passed", duration: 5 },
              {
                ancestorTitles: ["triage"],
                title: "answers 412",
                status: "failed",
                duration: 7,
                failureMessages: ["\u001b[31mAssertionError: expected 200 to be 412\u001b[39m\n    at stack"],
              },
            ],
          },
        ],
      }),
    );
    const written = spawnSync(
      process.execPath,
      [path.join(repoRoot, "scripts/test-catalogue.mjs"), "--vitest", vitestReport, "--out", catalogueFile],
      { encoding: "utf8" },
    );
    expect(written.status, written.stderr).toBe(0);
    touchCatalogue();
    const answer = await page("status=failed");
    expect(answer.available).toBe(true);
    expect(answer.items).toEqual([
      {
        suite: "server",
        file: "apps/server/src/modules/bugs/bug-reports.test.ts",
        name: "triage › answers 412",
        status: "failed",
        durationMs: 7,
        failure: "AssertionError: expected 200 to be 412",
      },
    ]);
    expect(answer.totals).toEqual({ total: 2, passed: 1, failed: 1, skipped: 0 });
  });

  it("refuses callers without tests:read (403)", async () => {
    const response = await unitTests("", technologistToken);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe("Access denied");
  });
});

describe("the catalogue file store", () => {
  const storeFile = path.join(folder, "store.json");
  const quietLog = () => ({ warn: vi.fn() }) as unknown as FastifyBaseLogger & { warn: ReturnType<typeof vi.fn> };

  it("parses a file once per version of it", async () => {
    writeFileSync(storeFile, JSON.stringify(fixture));
    utimesSync(storeFile, new Date("2026-02-01T00:00:00Z"), new Date("2026-02-01T00:00:00Z"));
    const store = createTestCatalogueStore(storeFile, quietLog());
    const first = await store.read();
    expect(first?.tests).toHaveLength(7);
    expect(await store.read()).toBe(first);
    utimesSync(storeFile, new Date("2026-02-02T00:00:00Z"), new Date("2026-02-02T00:00:00Z"));
    const reread = await store.read();
    expect(reread).not.toBe(first);
    expect(reread).toEqual(first);
  });

  it("warns once about a malformed file, and not at all about a missing one", async () => {
    const log = quietLog();
    const store = createTestCatalogueStore(storeFile, log);
    writeFileSync(storeFile, JSON.stringify({ ...fixture, tests: [{ suite: "unit" }] }));
    utimesSync(storeFile, new Date("2026-02-03T00:00:00Z"), new Date("2026-02-03T00:00:00Z"));
    expect(await store.read()).toBeUndefined();
    expect(await store.read()).toBeUndefined();
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0]?.[1]).toContain("expected shape");
    const missing = createTestCatalogueStore(path.join(folder, "none.json"), log);
    expect(await missing.read()).toBeUndefined();
    expect(log.warn).toHaveBeenCalledTimes(1);
  });
});
