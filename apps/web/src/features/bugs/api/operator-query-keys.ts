import type { testStatuses, testSuites } from "@vigil/contract";

export type TestSuite = (typeof testSuites)[number];
export type TestStatus = (typeof testStatuses)[number];

/** What one page of the unit-test catalogue asks the server for. */
export type UnitTestListParams = {
  suite: TestSuite | undefined;
  status: TestStatus | undefined;
  search: string;
  limit: number;
  offset: number;
};

/**
 * Query keys of the operator's tools (the test catalogue, the integration checks, the job queue). Their own root, apart from
 * the bug reports' keys, so refreshing reports never re-reads the catalogue and the other way round.
 */
export const operatorKeys = {
  all: ["bugs-operator"] as const,
  unitTests: () => [...operatorKeys.all, "unit-tests"] as const,
  unitTestPage: (params: UnitTestListParams) => [...operatorKeys.unitTests(), params] as const,
  integrationChecks: () => [...operatorKeys.all, "integration-checks"] as const,
  jobQueue: () => [...operatorKeys.all, "job-queue"] as const,
};
