import { defineProject } from "vitest/config";

// The repository's own tooling (test summaries, the test catalogue), tested like the product's code.
export default defineProject({
  test: {
    name: "scripts",
    environment: "node",
    include: ["**/*.test.mjs"],
  },
});
