import { readFileSync } from "node:fs";
import { fullDatabase, fullDatabaseUrl, runSettings } from "./config.js";
import { pacedReadFromArguments } from "./endpoints.js";
import { drivePaced } from "./paced-load.js";
import { log } from "./processes.js";
import { buildServer, withVigil } from "./servers.js";

/**
 * `npx tsx bench/gc-stalls.ts [endpoint-id] [seconds]`: where the p99 of a paced run comes from. Runs one endpoint
 * (default the time-logs tab) at its fixed rate against the real server started with `--trace-gc`, keeps every
 * request's time, and prints each 5-second window's p99 and slow requests (over 25 ms) beside the server's
 * mark-compacts, and how many slow requests one of them overlapped. The first window is a warm-up (a new server's
 * code is still being compiled) and is left out of the totals. Data: BENCH_DATABASE (config.ts).
 */

const slowMs = 25;
const windowSeconds = 5;

type Collection = { atMs: number; line: string };

/** The server's mark-compacts on the bench's clock: `--trace-gc` stamps each with the ms since its isolate began. */
function markCompactsOf(logFile: string, isolateStartMs: number): Collection[] {
  return readFileSync(logFile, "utf8")
    .split("\n")
    .flatMap((line) => {
      const match = /\]\s+(\d+) ms: Mark-Compact/.exec(line);
      return match ? [{ atMs: isolateStartMs + Number(match[1]), line: line.trim() }] : [];
    });
}

/** When a process began, on this process's `performance.now()` clock (to the kernel's 10 ms tick). */
function processStartOnOurClock(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const startTicks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  const uptimeMs = Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]) * 1000;
  const bootOnOurClock = performance.now() - uptimeMs;
  return bootOnOurClock + (startTicks / 100) * 1000;
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
};

async function main(): Promise<void> {
  const { endpoint, seconds, rate } = pacedReadFromArguments("time-logs-tab", 30);
  buildServer();
  await withVigil(
    `PostgreSQL ${fullDatabase}`,
    "bench-gc-stalls",
    { url: fullDatabaseUrl },
    async (server, token, fixtures) => {
      const answers: { dueAt: number; latency: number }[] = [];
      const start = performance.now();
      log(`${endpoint.label}: ${rate} requests/s for ${seconds} s, paced`);
      await drivePaced({
        baseURL: server.baseURL,
        paths: endpoint.paths(fixtures),
        headers: { authorization: `Bearer ${token}` },
        rate,
        seconds,
        timeoutSeconds: runSettings.requestTimeoutSeconds,
        onAnswer: (dueAt, latency) => answers.push({ dueAt, latency }),
      });
      const collections = markCompactsOf(server.log, processStartOnOurClock(server.appPid)).filter(
        (collection) => collection.atMs >= start,
      );
      const overlaps = (answer: { dueAt: number; latency: number }) =>
        collections.some((gc) => gc.atMs >= answer.dueAt - 50 && gc.atMs <= answer.dueAt + answer.latency + 50);
      let slowAfterWarmUp = 0;
      let explained = 0;
      const measured: number[] = [];
      for (let from = 0; from < seconds; from += windowSeconds) {
        const inWindow = answers.filter(
          (answer) => answer.dueAt - start >= from * 1000 && answer.dueAt - start < (from + windowSeconds) * 1000,
        );
        const slow = inWindow.filter((answer) => answer.latency > slowMs);
        const gcs = collections.filter(
          (gc) => gc.atMs - start >= from * 1000 && gc.atMs - start < (from + windowSeconds) * 1000,
        );
        if (from > 0) {
          slowAfterWarmUp += slow.length;
          explained += slow.filter(overlaps).length;
          measured.push(...inWindow.map((answer) => answer.latency));
        }
        console.log(
          `${String(from).padStart(3)}–${from + windowSeconds} s${from === 0 ? " (warm-up)" : ""}: ` +
            `p99 ${percentile(
              inWindow.map((answer) => answer.latency),
              0.99,
            ).toFixed(1)} ms, ${slow.length} over ${slowMs} ms, mark-compacts at ` +
            (gcs.map((gc) => `${((gc.atMs - start) / 1000).toFixed(2)} s`).join(", ") || "–"),
        );
      }
      const counted = collections.filter((gc) => gc.atMs - start >= windowSeconds * 1000).length;
      console.log(
        `After the warm-up: p99 ${percentile(measured, 0.99).toFixed(1)} ms over ${measured.length} requests; ` +
          `${counted} mark-compacts; ${explained} of ${slowAfterWarmUp} requests over ${slowMs} ms were under way ` +
          "when one ran (±50 ms).",
      );
      for (const gc of collections) console.log(`  ${((gc.atMs - start) / 1000).toFixed(2)} s  ${gc.line}`);
    },
    ["--trace-gc"],
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
