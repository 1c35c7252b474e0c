import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// One runner for every workspace; each project keeps its own environment (node for the server, jsdom for web).
export default defineConfig({
  test: {
    projects: ["packages/contract", "apps/server", "apps/web", "scripts", "bench"],
    // Vitest's default for a run is one worker fewer than the cores: on CI's 2-core machines that is a single
    // worker, and the second core idled while the server's API tests (PGlite runs inside the worker) went one file
    // at a time. Two workers spent the same CPU seconds (measured on the server's files) in about half the time on
    // an idle machine. VITEST_MAX_WORKERS still overrides this, e.g. VITEST_MAX_WORKERS=1 on a busy one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
