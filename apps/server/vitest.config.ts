import { defineProject } from "vitest/config";

// API tests build the real app on a real database: an in-memory PGlite each, or, with DATABASE_URL set, a fresh
// PostgreSQL database per test file, all dropped together when the run ends (src/testing/pglite-template.ts).
// Start-up (migrations, argon2) takes seconds, hence the longer timeouts.
export default defineProject({
  test: {
    name: "server",
    environment: "node",
    include: ["src/**/*.test.ts"],
    globalSetup: ["src/testing/pglite-template.ts"],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    pool: "forks",
  },
});
