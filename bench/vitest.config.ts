import { defineProject } from "vitest/config";

// The benchmark's own checks that belong in CI: the query plans of every list read at 100,000 cases. They need
// PostgreSQL (DATABASE_URL) and a generated data set, which takes a couple of minutes, hence the long hook limit.
export default defineProject({
  test: {
    name: "bench",
    environment: "node",
    include: ["**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 900_000,
  },
});
