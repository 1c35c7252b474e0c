import { defineProject } from "vitest/config";

// API tests build the real app on a real database: an in-memory PGlite each, or, with DATABASE_URL set, a fresh
// PostgreSQL database per test file. Start-up (migrations, argon2) takes seconds, hence the longer timeouts. A file's
// last hook drops its PostgreSQL database, which waits for a checkpoint: on a slow machine, while another file was
// bulk-loading 100,000 cases (bench/query-plans.test.ts), the route fuzzer's took over a minute.
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
