import { Session } from "node:inspector/promises";
import { GCProfiler } from "node:v8";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import { openDatabase } from "../db/client.js";

/**
 * `DATABASE_URL=postgres://…/vigil_bench npx tsx apps/server/src/testing/measure-allocation.ts [requests]`: what one
 * request of each hot read allocates in the server, on the bench's data (bench/generate-data.ts) and its user.
 *
 * The app runs in this process and is called through `app.inject`, one request at a time, after a warm-up. Two
 * figures per read: the bytes allocated per request, exact (the heap in use after the run, minus before, plus what
 * every collection in between freed: `v8.GCProfiler`), and where they were allocated (V8's sampling heap profiler
 * with the collected objects kept, by package of the allocating frame). The exact figure includes light-my-request's
 * fake request and response, which a real socket would replace with its own; the "inject" row measures them.
 * MEASURE_ONLY=<words, comma-separated> keeps the reads whose name holds one of them (`MEASURE_ONLY=statement`);
 * MEASURE_WARMUP sets the warm-up's requests (200), which a heavy read such as the statement may want fewer of.
 */

const api = "/api/continuous-monitoring";
const requests = Number(process.argv[2] ?? 400);
const warmup = Number(process.env.MEASURE_WARMUP ?? 200);
const username = process.env.MEASURE_USERNAME ?? "bench-admin";
const password = process.env.MEASURE_PASSWORD ?? "bench-admin-password-2026";

type Read = { id: string; paths: string[] };

async function signIn(app: FastifyInstance): Promise<string> {
  const response = await app.inject({
    method: "POST",
    url: "/cognito",
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": "AWSCognitoIdentityProviderService.InitiateAuth",
    },
    payload: JSON.stringify({
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: "vigilweb0000000000000000000",
      AuthParameters: { USERNAME: username, PASSWORD: password },
    }),
  });
  const token = response.json()?.AuthenticationResult?.IdToken;
  if (!token) throw new Error(`Signing ${username} in failed: ${response.body}`);
  return token;
}

async function readsOf(app: FastifyInstance, headers: Record<string, string>): Promise<Read[]> {
  const get = async <T>(url: string): Promise<T> => {
    const response = await app.inject({ method: "GET", url, headers });
    if (response.statusCode !== 200) throw new Error(`GET ${url} answered ${response.statusCode}: ${response.body}`);
    return response.json().data as T;
  };
  const clients = (
    await get<{ items: { id: string; openCaseCount: number }[] }>(`${api}/clients?limit=50&status=active`)
  ).items;
  const cases = (await get<{ items: { id: string }[] }>(`${api}/cases/monitoring?limit=50`)).items;
  const largest = [...clients].sort((left, right) => right.openCaseCount - left.openCaseCount).slice(0, 5);
  const now = new Date();
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const reads: Read[] = [
    { id: "inject (unknown path, 404)", paths: ["/api/no-such-path"] },
    { id: "monitoring queue", paths: [`${api}/cases/monitoring?limit=50`] },
    {
      id: "monitoring queue, client filter",
      paths: clients.map((c) => `${api}/cases/monitoring?limit=50&clientId=${c.id}`),
    },
    { id: "closed queue, client filter", paths: clients.map((c) => `${api}/cases/closed?limit=50&clientId=${c.id}`) },
    { id: "watch board", paths: [`${api}/board?limit=50`] },
    { id: "case detail", paths: cases.map((c) => `${api}/cases/${c.id}`) },
    { id: "time-logs tab", paths: cases.map((c) => `${api}/cases/monitoring/${c.id}/time-logs`) },
    {
      id: "billing statement, last month, 5 largest clients",
      paths: largest.map((c) => `/api/billing/continuous-monitoring/${c.id}/${lastMonth}`),
    },
  ];
  const only = process.env.MEASURE_ONLY?.split(",").filter(Boolean);
  return only ? reads.filter((read) => only.some((word) => read.id.includes(word))) : reads;
}

async function drive(app: FastifyInstance, headers: Record<string, string>, read: Read, count: number) {
  for (let index = 0; index < count; index++) {
    const url = read.paths[index % read.paths.length] as string;
    const response = await app.inject({ method: "GET", url, headers });
    if (response.statusCode >= 500) throw new Error(`GET ${url} answered ${response.statusCode}: ${response.body}`);
  }
}

/** Bytes allocated over `run`: the growth of the heap in use plus what each collection during it freed. */
async function allocatedDuring(run: () => Promise<void>): Promise<number> {
  const profiler = new GCProfiler();
  const startUsed = process.memoryUsage().heapUsed;
  profiler.start();
  await run();
  const endUsed = process.memoryUsage().heapUsed;
  const result = profiler.stop();
  const freed = (result?.statistics ?? []).reduce(
    (sum, entry) => sum + (entry.beforeGC.heapStatistics.usedHeapSize - entry.afterGC.heapStatistics.usedHeapSize),
    0,
  );
  return endUsed - startUsed + freed;
}

type ProfileNode = {
  callFrame: { url: string; functionName: string };
  selfSize: number;
  children: ProfileNode[];
};

/** The package (or "ours", "node") a frame's script belongs to. */
function ownerOf(url: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1] as string;
  if (url.includes("/apps/server/src/") || url.includes("/packages/contract/")) return "ours";
  return url ? "other" : "node (native, runtime)";
}

async function sampledByOwner(session: Session, run: () => Promise<void>): Promise<Map<string, number>> {
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  await run();
  const { profile } = (await session.post("HeapProfiler.stopSampling")) as { profile: { head: ProfileNode } };
  const byOwner = new Map<string, number>();
  const visit = (node: ProfileNode) => {
    const owner = ownerOf(node.callFrame.url);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + node.selfSize);
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  return byOwner;
}

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: "silent", SEED: "none" });
  if (!config.databaseUrl) throw new Error("Set DATABASE_URL to the bench's database.");
  const database = await openDatabase({ kind: "postgres", url: config.databaseUrl });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const headers = { authorization: `Bearer ${await signIn(app)}` };
  const session = new Session();
  session.connect();
  try {
    for (const read of await readsOf(app, headers)) {
      await drive(app, headers, read, warmup);
      const bytes = await allocatedDuring(() => drive(app, headers, read, requests));
      const owners = await sampledByOwner(session, () => drive(app, headers, read, requests));
      const sampled = [...owners.values()].reduce((sum, size) => sum + size, 0);
      const shares = [...owners.entries()]
        .sort((left, right) => right[1] - left[1])
        .slice(0, 6)
        .map(([owner, size]) => `${owner} ${Math.round((100 * size) / sampled)}%`)
        .join(", ");
      console.log(`${read.id}: ${(bytes / requests / 1024).toFixed(1)} KB per request (${shares})`);
    }
  } finally {
    session.disconnect();
    await app.close();
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
