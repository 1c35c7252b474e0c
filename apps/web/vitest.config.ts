import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  define: { __BUILD_ID__: JSON.stringify("test-build") },
  test: {
    name: "web",
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["./src/test/setup.ts"],
    // Screens that mount the Amplify Authenticator or long MUI forms take seconds in jsdom on a 2-core machine
    // under load (CI runs the server's tests beside them), and the slower machines of the kind take many times an
    // idle machine's time: tighter limits failed tests by the clock, not by a bug. One limit for every file (a
    // describe's own limit would lower it again) that only catches a hang; docs/operations.md has the runs.
    testTimeout: 120_000,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
