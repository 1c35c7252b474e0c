import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, it } from "vitest";
import { countPlaywright } from "./test-results.mjs";

const folder = mkdtempSync(path.join(tmpdir(), "vigil-results-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const esc = String.fromCharCode(27);

/** A Playwright JSON report (its reporter's shape) with one journey that passed and one whose assertion failed. */
const report = {
  stats: { expected: 1, unexpected: 1, flaky: 0, skipped: 0 },
  errors: [],
  suites: [
    {
      title: "billing.spec.ts",
      specs: [{ title: "a statement is issued", tests: [{ status: "expected", results: [{ status: "passed" }] }] }],
      suites: [
        {
          title: "billing: invoices to paid",
          specs: [
            {
              title: "an invoice is paid in two parts",
              tests: [
                {
                  status: "unexpected",
                  results: [
                    {
                      status: "failed",
                      error: {
                        message: [
                          `Error: ${esc}[2mexpect(${esc}[22m${esc}[31mlocator${esc}[39m${esc}[2m).${esc}[22mtoHaveText${esc}[2m(${esc}[22m${esc}[32mexpected${esc}[39m${esc}[2m)${esc}[22m failed`,
                          "",
                          "Locator:  getByRole('cell').nth(2)",
                          'Expected: "$312.50"',
                          'Received: "$0.00"',
                          "Timeout:  10000ms",
                        ].join("\n"),
                        location: { file: "/ci/work/e2e/specs/billing.spec.ts", line: 217, column: 9 },
                      },
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
};

describe("the test summary", () => {
  it("names a failed journey with its assertion, what it expected and received, and the line it failed on", () => {
    const file = path.join(folder, "playwright.json");
    writeFileSync(file, JSON.stringify(report));
    const counts = countPlaywright("end-to-end (playwright)", file, 1);
    assert.equal(counts.passed, 1);
    assert.equal(counts.failed, 1);
    assert.equal(counts.notes.length, 1);
    const lines = (counts.notes[0] ?? "").split("\n").map((line) => line.trim());
    assert.deepEqual(lines, [
      "failed: billing.spec.ts › billing: invoices to paid › an invoice is paid in two parts",
      "Error: expect(locator).toHaveText(expected) failed",
      "Locator:  getByRole('cell').nth(2)",
      'Expected: "$312.50"',
      'Received: "$0.00"',
      "Timeout:  10000ms",
      "at e2e/specs/billing.spec.ts:217",
    ]);
  });

  it("names a failed journey without an error as failed, with nothing made up", () => {
    const file = path.join(folder, "bare.json");
    const bare = structuredClone(report);
    delete bare.suites[0].suites[0].specs[0].tests[0].results[0].error;
    writeFileSync(file, JSON.stringify(bare));
    const counts = countPlaywright("end-to-end (playwright)", file, 1);
    assert.deepEqual(counts.notes, [
      "failed: billing.spec.ts › billing: invoices to paid › an invoice is paid in two parts",
    ]);
  });
});
