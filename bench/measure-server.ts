import { runSettings } from "./config.js";
import { type EndpointRun, type Fixtures, measuredEndpoints, type ServerRun } from "./endpoints.js";
import { drive, type LoadResult, round } from "./load.js";
import { drivePaced } from "./paced-load.js";
import { type BenchProcess, log, rssMb, rssSampler, waitForQuiet } from "./processes.js";

/**
 * Every endpoint (or BENCH_ONLY's, config.ts) against one running server: flat out (a warm-up, then a measured run), the heavy reads on one
 * connection, then optionally at a fixed request rate; the app process's RSS is sampled during each run.
 */
export async function measureServer(
  server: BenchProcess,
  options: {
    label: string;
    database: string;
    token?: string;
    fixtures: Fixtures;
    fixedRate: boolean;
    /** Active statements on the server's PostgreSQL database (none for PGlite: the app's CPU says it all). */
    activeStatements?: () => Promise<number>;
  },
): Promise<ServerRun> {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const rssIdleMb = round(rssMb(server.appPid) ?? 0);
  const rss = rssSampler(server.appPid);
  const runs: Record<string, EndpointRun> = {};
  let rssMax = 0;
  const quiet = () => waitForQuiet(server.appPid, options.activeStatements);
  const { durationSeconds, warmupSeconds } = runSettings;
  const labelWidth = Math.max(...measuredEndpoints.map((endpoint) => endpoint.label.length));
  for (const endpoint of measuredEndpoints) {
    const paths = endpoint.paths(options.fixtures);
    await quiet();
    const first = await fetch(`${server.baseURL}${paths[0]}`, { headers });
    const body = await first.text();
    const run: EndpointRun = { endpoint: endpoint.id, status: first.status, bytes: body.length, rssMaxMb: 0 };
    runs[endpoint.id] = run;
    if (first.status !== 200) {
      log(`${options.label}: ${endpoint.label} answered ${first.status}, skipped: ${body.slice(0, 200)}`);
      continue;
    }
    if (endpoint.group === "heavy") {
      // Seconds per request on the full data: a fixed number of requests on one connection, each after the last.
      rss.start();
      run.single = await drive({
        baseURL: server.baseURL,
        paths,
        headers,
        amount: runSettings.heavyRequests,
        connections: 1,
      });
    } else {
      await drive({ baseURL: server.baseURL, paths, headers, seconds: warmupSeconds });
      await quiet();
      rss.start();
      run.throughput = await drive({ baseURL: server.baseURL, paths, headers, seconds: durationSeconds });
    }
    run.rssMaxMb = rss.stop();
    rssMax = Math.max(rssMax, run.rssMaxMb);
    const t = (run.throughput ?? run.single) as LoadResult;
    log(
      `${options.label}: ${endpoint.label.padEnd(labelWidth)} ${String(t.requestsPerSecond).padStart(7)} req/s  ` +
        `p50 ${t.latencyMs.p50} ms  p99 ${t.latencyMs.p99} ms${run.single ? ` (1 connection, ${t.requests} requests)` : ""}` +
        `  RSS ${run.rssMaxMb} MB${t.non2xx + t.errors > 0 ? `  non-2xx ${t.non2xx}, errors ${t.errors}` : ""}`,
    );
  }
  if (options.fixedRate) {
    for (const endpoint of measuredEndpoints.filter((candidate) => candidate.group !== "heavy")) {
      const run = runs[endpoint.id];
      if (!run || run.status !== 200) continue;
      await quiet();
      rss.start();
      run.fixedRate = await drivePaced({
        baseURL: server.baseURL,
        paths: endpoint.paths(options.fixtures),
        headers,
        seconds: durationSeconds,
        rate: endpoint.fixedRate ?? runSettings.fixedRate,
        timeoutSeconds: runSettings.requestTimeoutSeconds,
      });
      const sampled = rss.stop();
      run.rssMaxMb = Math.max(run.rssMaxMb, sampled);
      rssMax = Math.max(rssMax, sampled);
      log(
        `${options.label}: ${endpoint.label.padEnd(labelWidth)} at ${endpoint.fixedRate ?? runSettings.fixedRate} req/s: ` +
          `${run.fixedRate.requestsPerSecond} req/s served, p50 ${run.fixedRate.latencyMs.p50} ms  p99 ${run.fixedRate.latencyMs.p99} ms`,
      );
    }
  }
  await quiet();
  return { label: options.label, database: options.database, runs, rssIdleMb, rssMaxMb: rssMax };
}
