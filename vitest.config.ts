import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// One runner for every workspace; each project keeps its own environment (node for the server, jsdom for web).
export default defineConfig({
  test: {
    projects: ["packages/contract", "apps/server", "apps/web", "scripts", "bench"],
    // Vitest's default for a run is one worker fewer than the cores: on CI's 2-core machines a single worker, one
    // file at a time. Two workers, measured on 17 server API files on an otherwise idle 2-core machine: 44.8 s ->
    // 39.7 s on PGlite (the engine runs inside the worker, so the cores were already fairly busy) and 34.9 s ->
    // 24.0 s on PostgreSQL (a lone worker mostly waited for the database server). VITEST_MAX_WORKERS overrides it.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
