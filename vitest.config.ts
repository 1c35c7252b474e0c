import { defineConfig } from "vitest/config";

// One runner for every workspace; each project keeps its own environment (node for the server, jsdom for web).
export default defineConfig({
  test: {
    projects: ["packages/contract", "apps/server", "apps/web", "scripts", "bench"],
  },
});
