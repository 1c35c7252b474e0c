import type { FastifyBaseLogger } from "fastify";
import { openDatabase } from "../db/client.js";
import { startJobRunner } from "../jobs/job-runner.js";
import { resultJob } from "../modules/interfaces/result-job.js";

/**
 * One instance's runner of `hl7-result` jobs as a process of its own, for the kill tests
 * (reliability/two-instance-results.test.ts): `node --import tsx result-runner-child.ts <postgres url>`. Short
 * timeouts (2 s for the ACK, 3 s a try, so a lease of 5.5 s) keep a killed instance's job waiting briefly.
 */
const silent = { child: () => silent, info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {} };

async function main() {
  const [url] = process.argv.slice(2);
  if (!url) throw new Error("usage: result-runner-child.ts <postgres url>");
  const database = await openDatabase({ kind: "postgres", url, poolSize: 2 });
  const job = resultJob(
    { sendingFacility: "NORTHWIND", connectTimeoutMs: 1000, ackTimeoutMs: 2000 },
    { limit: 5, backoff: { baseMs: 100, maxMs: 200 } },
    { timeoutMs: 3000 },
  );
  startJobRunner(database, [job], silent as unknown as FastifyBaseLogger, { pollMs: 100 });
  process.stdout.write("ready\n");
}

if (process.argv[1]?.endsWith("result-runner-child.ts")) void main();
