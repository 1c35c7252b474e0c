import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { repoRoot, resultsDir } from "./config.js";
import { serverStartCommand, startProcess } from "./processes.js";

/**
 * `npm run bench:throttled`: how long a hospital guest network waits for Vigil. Chromium with DevTools' "Fast 3G"
 * (562.5 ms round trip, 1.44 Mbit/s down, 675 kbit/s up) and a 4× slower CPU, a cold HTTP cache each time:
 *
 * - sign-in: a signed-out visitor opens the app until the sign-in form is usable;
 * - queue: a signed-in user (tokens in storage) opens the monitoring queue until its first case row shows.
 *
 * Each is measured against the real server (npm start's bundle, demo data on a fresh embedded database) serving
 * the same web build twice: as built (brotli/gzip copies beside each file) and with the compressed copies removed,
 * which is how the app was served before they existed. Medians of `THROTTLED_RUNS` (default 3) runs; JSON in
 * bench-results/. Not part of CI: timings on a shared 2-core machine belong to the bench, not to tests.
 */

const runs = Number(process.env.THROTTLED_RUNS ?? 3);
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const serverDir = path.join(repoRoot, "apps", "server");
const webDist = path.join(repoRoot, "apps", "web", "dist");
const fast3g = {
  offline: false,
  latency: 562.5,
  downloadThroughput: ((1.44 * 1_000_000) / 8) * 0.9,
  uploadThroughput: ((675 * 1000) / 8) * 0.9,
};
const queuePath = "/#/continuous-monitoring/cases/monitoring";

type Variant = "precompressed" | "uncompressed";
type Timings = { signInMs: number[]; queueMs: number[] };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const at = (index: number) => sorted[index] ?? Number.NaN;
  return sorted.length % 2 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
}

/** A copy of the build without the .br/.gz files: the server then sends every file as it is. */
function uncompressedCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "vigil-web-plain-"));
  cpSync(webDist, dir, { recursive: true, filter: (source) => !/\.(br|gz)$/.test(source) });
  return dir;
}

async function throttledPage(browser: Browser, storageState?: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, storageState });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", fast3g);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  return page;
}

async function timeUntil(page: Page, url: string, shown: (page: Page) => Promise<void>): Promise<number> {
  const started = performance.now();
  await page.goto(url, { waitUntil: "commit", timeout: 120_000 });
  await shown(page);
  const elapsed = performance.now() - started;
  await page.context().close();
  return Math.round(elapsed);
}

async function signedInState(browser: Browser, baseURL: string, username: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${baseURL}/#/signin`);
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: /^Welcome/ }).waitFor({ timeout: 60_000 });
  const file = path.join(mkdtempSync(path.join(tmpdir(), "vigil-state-")), "state.json");
  await context.storageState({ path: file });
  await context.close();
  return file;
}

async function measure(browser: Browser, variant: Variant, distDir: string): Promise<Timings> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `vigil-throttled-${variant}-`));
  const start = serverStartCommand(serverDir);
  const server = await startProcess({
    label: `Vigil (${variant})`,
    name: `throttled-${variant}`,
    cwd: serverDir,
    ...start,
    env: {
      ...process.env,
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      SEED: "demo",
      WEB_DIST_DIR: distDir,
      LOG_LEVEL: "warn",
    },
    ready: async (baseURL) => (await fetch(`${baseURL}/api/config`, { signal: AbortSignal.timeout(5_000) })).ok,
  });
  try {
    const credentials = readFileSync(path.join(dataDir, "demo-credentials.txt"), "utf8");
    const [username, password] =
      credentials
        .split("\n")
        .find((line) => line.startsWith("coordinator\t"))
        ?.split("\t") ?? [];
    if (!username || !password) throw new Error("The demo seed wrote no coordinator to demo-credentials.txt.");
    const state = await signedInState(browser, server.baseURL, username, password);
    const timings: Timings = { signInMs: [], queueMs: [] };
    for (let run = 0; run < runs; run += 1) {
      timings.signInMs.push(
        await timeUntil(await throttledPage(browser), `${server.baseURL}/#/signin`, (page) =>
          page.getByRole("button", { name: "Sign in", exact: true }).waitFor({ timeout: 120_000 }),
        ),
      );
      timings.queueMs.push(
        await timeUntil(await throttledPage(browser, state), `${server.baseURL}${queuePath}`, (page) =>
          page
            .getByRole("link", { name: /^CM-\d{4}-\d+/ })
            .first()
            .waitFor({ timeout: 120_000 }),
        ),
      );
      console.log(
        `${variant} run ${run + 1}: sign-in ${timings.signInMs.at(-1)} ms, queue ${timings.queueMs.at(-1)} ms`,
      );
    }
    return timings;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log("building the web app and the server bundle (npm run build -w @vigil/web -w @vigil/server)");
  execFileSync("npm", ["run", "build", "-w", "@vigil/web", "-w", "@vigil/server"], { cwd: repoRoot, stdio: "ignore" });
  if (!readdirSync(path.join(webDist, "assets")).some((file) => file.endsWith(".br")))
    throw new Error("The web build has no .br files: is precompress-plugin.ts in vite.config.ts?");
  const plain = uncompressedCopy();
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking"],
  });
  try {
    const results: Record<Variant, Timings> = {
      uncompressed: await measure(browser, "uncompressed", plain),
      precompressed: await measure(browser, "precompressed", webDist),
    };
    console.log("\nFast 3G + 4× CPU, cold cache, median of", runs);
    console.log("| served as | sign-in form shown | monitoring queue shows a case |");
    console.log("|---|---|---|");
    for (const variant of ["uncompressed", "precompressed"] as const) {
      const { signInMs, queueMs } = results[variant];
      console.log(
        `| ${variant} | ${(median(signInMs) / 1000).toFixed(1)} s | ${(median(queueMs) / 1000).toFixed(1)} s |`,
      );
    }
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `throttled-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, `${JSON.stringify({ network: fast3g, cpuSlowdown: 4, runs, results }, null, 2)}\n`);
    console.log(`\n${path.relative(repoRoot, file)}`);
  } finally {
    await browser.close();
    rmSync(plain, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
