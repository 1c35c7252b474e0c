import { appendFileSync } from "node:fs";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { openDatabase } from "../db/client.js";
import { defineJob } from "../jobs/job-definition.js";
import { startJobRunner } from "../jobs/job-runner.js";

/**
 * One instance's job runner as a process of its own, for the crash tests (jobs/job-runner-crash.test.ts):
 * `node --import tsx job-runner-child.ts <postgres url> <trace file>`. It runs the `test-crash` kind, whose handler
 * writes `start <job> <attempt>` to the trace, works `ms`, then writes `end <job> <attempt>`; it says `ready` on
 * stdout once it runs, and stops gracefully on SIGTERM (as server.ts does) with a grace of `GRACE_MS`.
 */
export function crashProbeJob(trace: string) {
  return defineJob({
    kind: "test-crash",
    payload: z.object({ ms: z.number().int() }),
    retry: { limit: 3, backoff: { baseMs: 50, maxMs: 200 } },
    timeoutMs: 2000,
    handle: async ({ ms }, { jobId, attempt }) => {
      appendFileSync(trace, `start ${jobId} ${attempt}\n`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      appendFileSync(trace, `end ${jobId} ${attempt}\n`);
    },
  });
}

const silent = { child: () => silent, info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {} };

async function main() {
  const [url, trace] = process.argv.slice(2);
  if (!url || !trace) throw new Error("usage: job-runner-child.ts <postgres url> <trace file>");
  const database = await openDatabase({ kind: "postgres", url, poolSize: 2 });
  const runner = startJobRunner(database, [crashProbeJob(trace)], silent as unknown as FastifyBaseLogger, {
    pollMs: 100,
    graceMs: Number(process.argv[4] ?? 7000),
  });
  process.once("SIGTERM", () => {
    void runner.stop().then(async () => {
      await database.close();
      process.exit(0);
    });
  });
  process.stdout.write("ready\n");
}

if (process.argv[1]?.endsWith("job-runner-child.ts")) void main();
