import { testSuites, type UnitTest, type UnitTestPage, type unitTestQuerySchema } from "@vigil/contract";
import type { z } from "zod";
import type { TestCatalogueStore } from "./test-catalogue-repository.js";

type UnitTestQuery = z.output<typeof unitTestQuerySchema>;
type Totals = UnitTestPage["totals"];

function totalsOf(tests: readonly UnitTest[]): Totals {
  const totals: Totals = { total: tests.length, passed: 0, failed: 0, skipped: 0 };
  for (const test of tests) totals[test.status] += 1;
  return totals;
}

/** Each word must appear in the file or the test's name, whatever its case. */
function matchesWords(test: UnitTest, words: readonly string[]): boolean {
  const haystack = `${test.file}\n${test.name}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/**
 * `GET /bugs/unit-tests`: the product's own tests with the results of their last run, as the test run wrote
 * them. Without a catalogue (no run here yet, or an unreadable file) the answer is an empty page marked
 * `available: false`, never an error: the screen says so.
 */
export async function listUnitTests(store: TestCatalogueStore, query: UnitTestQuery): Promise<UnitTestPage> {
  const catalogue = await store.read();
  const page = { limit: query.limit, offset: query.offset };
  if (!catalogue) {
    const none = { total: 0, passed: 0, failed: 0, skipped: 0 };
    return {
      available: false,
      ranAt: null,
      revision: null,
      items: [],
      total: 0,
      totals: none,
      matching: none,
      suites: [],
      ...page,
    };
  }
  const words = query.search?.toLowerCase().split(/\s+/).filter(Boolean) ?? [];
  const matching = catalogue.tests.filter(
    (test) =>
      (!query.suite || test.suite === query.suite) &&
      (!query.status || test.status === query.status) &&
      matchesWords(test, words),
  );
  return {
    available: true,
    ranAt: catalogue.ranAt,
    revision: catalogue.revision,
    items: matching.slice(query.offset, query.offset + query.limit),
    total: matching.length,
    totals: totalsOf(catalogue.tests),
    matching: totalsOf(matching),
    // The suites the run covered, in the contract's order (a unit-only run has no e2e entry).
    suites: testSuites
      .map((suite) => ({ suite, ...totalsOf(catalogue.tests.filter((test) => test.suite === suite)) }))
      .filter((suite) => suite.total > 0),
    ...page,
  };
}
