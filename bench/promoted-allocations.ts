import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fullDatabase, fullDatabaseUrl, resultsDir, runSettings } from "./config.js";
import { pacedReadFromArguments } from "./endpoints.js";
import { drivePaced } from "./paced-load.js";
import { log, sleep } from "./processes.js";
import { buildServer, withVigil } from "./servers.js";

/**
 * `npx tsx bench/promoted-allocations.ts [endpoint-id] [seconds]`: what one endpoint's requests leave for the old
 * generation, by the function that allocated it. The real server (built, on BENCH_DATABASE) runs with V8's sampling
 * heap profiler inside it (bench/heap-sampling-preload.mjs); the endpoint is driven at its fixed rate, paced, twice
 * after a warm-up: once keeping every allocation, once keeping only the objects that outlived a scavenge (promoted).
 * Promoted objects are what fills the old generation between mark-compacts, the pauses behind the paced p99.
 */

type ProfileNode = {
  callFrame: { url: string; functionName: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
};

/** A frame as a reader finds it: the package, or the server's bundle (Vigil's own code, the contract). */
function siteOf(frame: ProfileNode["callFrame"]): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
  const owner = match ? match[1] : frame.url.includes("/dist/server.js") ? "vigil" : frame.url ? "node" : "native";
  return `${frame.functionName || "(anonymous)"} (${owner})`;
}

function bySite(profile: { head: ProfileNode }): { total: number; sites: Map<string, number> } {
  const sites = new Map<string, number>();
  let total = 0;
  const visit = (node: ProfileNode) => {
    if (node.selfSize > 0) {
      const site = siteOf(node.callFrame);
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  return { total, sites };
}

async function main(): Promise<void> {
  const { id, endpoint, seconds, rate } = pacedReadFromArguments("monitoring-queue", 20);
  buildServer();
  const results: { promoted: boolean; requests: number; total: number; sites: Map<string, number> }[] = [];
  for (const promoted of [false, true]) {
    const out = path.join(resultsDir, `heap-sampling-${id}-${promoted ? "promoted" : "all"}.json`);
    rmSync(out, { force: true });
    process.env.HEAP_SAMPLING_OUT = out;
    process.env.HEAP_SAMPLING_PROMOTED = promoted ? "1" : "0";
    await withVigil(
      `PostgreSQL ${fullDatabase}`,
      "bench-promoted",
      { url: fullDatabaseUrl },
      async (server, token, fixtures) => {
        const paced = (secondsToRun: number) =>
          drivePaced({
            baseURL: server.baseURL,
            paths: endpoint.paths(fixtures),
            headers: { authorization: `Bearer ${token}` },
            rate,
            seconds: secondsToRun,
            timeoutSeconds: runSettings.requestTimeoutSeconds,
          });
        log(`${endpoint.label}: warm-up, 5 s at ${rate}/s`);
        await paced(5);
        process.kill(server.appPid, "SIGUSR2");
        log(
          `${endpoint.label}: ${seconds} s at ${rate}/s, keeping ${promoted ? "promoted objects" : "every allocation"}`,
        );
        const run = await paced(seconds);
        process.kill(server.appPid, "SIGUSR2");
        for (let waited = 0; !existsSync(out) && waited < 30_000; waited += 100) await sleep(100);
        const profile = JSON.parse(readFileSync(out, "utf8")) as { head: ProfileNode };
        results.push({ promoted, requests: run.requests, ...bySite(profile) });
      },
      ["--import", path.join(import.meta.dirname, "heap-sampling-preload.mjs")],
    );
  }
  const [all, promoted] = results as [(typeof results)[0], (typeof results)[0]];
  const perRequest = (result: (typeof results)[0]) => result.total / Math.max(1, result.requests) / 1024;
  console.log(
    `${endpoint.label} at ${rate}/s: ${perRequest(all).toFixed(0)} KB allocated per request (sampled), ` +
      `${perRequest(promoted).toFixed(1)} KB of it outlived a scavenge ` +
      `(${((100 * perRequest(promoted)) / perRequest(all)).toFixed(1)}%).`,
  );
  console.log("Outlived a scavenge, by the function that allocated it (KB per request, share):");
  for (const [site, bytes] of [...promoted.sites].sort((left, right) => right[1] - left[1]).slice(0, 25)) {
    const kb = bytes / promoted.requests / 1024;
    console.log(`  ${kb.toFixed(2).padStart(7)}  ${((100 * bytes) / promoted.total).toFixed(1).padStart(5)}%  ${site}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
