import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumPath, resultsDir } from "./support/environment.js";

/**
 * User journeys in Debian's Chromium against one real server (global setup starts it on a free port with a
 * freshly seeded embedded database). The base URL is only known once that server runs, so specs take it from
 * the state file through the fixtures in support/fixtures.ts.
 */
export default defineConfig({
  testDir: "./specs",
  globalSetup: "./support/global-setup.ts",
  globalTeardown: "./support/global-teardown.ts",
  // The machines have 2 cores; the server and the browsers share them.
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  // A journey that fails once is a bug to fix, not to retry past.
  retries: 0,
  // A journey's total time is not what it tests (each step has its own limit below; the live ones their 2 s): on a
  // machine of this kind running slow, the two-browser journeys of the-open-tab-follows… took 66 s end to end.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  outputDir: "./test-results",
  reporter: [
    ["list"],
    ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? path.join(resultsDir, "playwright.json") }],
  ],
  use: {
    ...devices["Desktop Chrome"],
    viewport: { width: 1366, height: 900 },
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: true },
    screenshot: "only-on-failure",
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: chromiumPath,
      // Without the background-networking flags, this machine's closed network refuses Chromium's own
      // connections many at a time.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium" }],
});
