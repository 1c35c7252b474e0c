import { defineProject } from "vitest/config";

// API tests build the real app on a real database: an in-memory PGlite each, or, with DATABASE_URL set, a fresh
// PostgreSQL database per test file, all dropped together when the run ends (src/testing/pglite-template.ts).
// Start-up (migrations, argon2) takes seconds, hence the longer timeouts.
//
// Test files share their worker's modules (`isolate: false`): importing the app took each file 2–3 s in a fresh
// module graph, about as long as many files' tests. Measured on 38 module files, one worker, an idle 2-core machine:
// 137 s -> 75 s, CPU 193 -> 95 s. Nothing the app caches outlives its database (module caches are keyed by the `Db`);
// kit state a file needs fresh is reset by src/testing/per-file-setup.ts before each file.
export default defineProject({
  test: {
    name: "server",
    environment: "node",
    include: ["src/**/*.test.ts"],
    globalSetup: ["src/testing/pglite-template.ts"],
    setupFiles: ["src/testing/per-file-setup.ts"],
    // Catches a hang, not slowness: the slower machines of the kind (half the speed per core) took a child
    // process's start past 30 s under the full CI run.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    isolate: false,
  },
});
