import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../apps/server/src/db/client.js";
import { publishCaseEvent } from "../apps/server/src/events/case-events.js";
import { readEventStream } from "../apps/server/src/events/event-stream-reader.js";
import { createUser } from "../apps/server/src/identity/user-directory.js";
import { defaultEventStreamSettings } from "../apps/server/src/modules/events/events-service.js";
import { benchUser, postgresAdminUrl, repoRoot, resultsDir } from "./config.js";
import type { TargetCheck } from "./evaluate-targets.js";
import { round } from "./load.js";
import { type BenchProcess, log, rssMb, sleep } from "./processes.js";
import { buildServer, signIn, withVigil } from "./servers.js";

/**
 * The event fan-out (PRODUCT.md §10: screens update within 2 s of any change): `streams` clients hold
 * `GET /api/events` open on one server, then a case change is committed on its PostgreSQL database, the way every
 * case write publishes one (events/case-events.ts), and each stream's delivery is timed from just before the commit.
 * `rounds` changes, one at a time, pool `streams × rounds` deliveries for the percentiles. The server's RSS is read
 * before the streams open and with all of them open. The events it adds are deleted afterwards.
 */
export type FanOutRun = {
  streams: number;
  rounds: number;
  /** Deliveries received of `streams × rounds`. */
  delivered: number;
  openMs: number;
  latencyMs: { p50: number; p99: number; max: number };
  rssBeforeMb: number | undefined;
  rssWithStreamsMb: number | undefined;
};

export const fanOutTarget = {
  streams: Number(process.env.BENCH_FANOUT_STREAMS ?? 200),
  rounds: Number(process.env.BENCH_FANOUT_ROUNDS ?? 5),
  p99Ms: 500,
};

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] as number;
}

export async function measureEventFanOut(
  server: BenchProcess,
  token: string,
  databaseUrl: string,
  subject: { caseId?: string } = {},
): Promise<FanOutRun> {
  const { streams, rounds } = fanOutTarget;
  const rssBeforeMb = rssMb(server.appPid);
  const aborts: AbortController[] = [];
  // Each stream's receipt time of each event id.
  const received = new Map<number, number[]>();
  // One sign-in holds at most maxStreamsPerSession streams on an instance (a browser's tabs), so the streams are
  // spread over that many sign-ins of the bench user, as over that many browsers.
  const perSignIn = defaultEventStreamSettings.maxStreamsPerSession;
  const tokens = [token];
  while (tokens.length * perSignIn < streams) tokens.push(await signIn(server.baseURL));
  const opened = performance.now();
  const ready = await Promise.all(
    Array.from({ length: streams }, async (_, index) => {
      const abort = new AbortController();
      aborts.push(abort);
      const response = await fetch(`${server.baseURL}/api/events`, {
        headers: { authorization: `Bearer ${tokens[Math.floor(index / perSignIn)]}` },
        signal: abort.signal,
      });
      if (response.status !== 200) throw new Error(`GET /api/events answered ${response.status}`);
      return new Promise<void>((resolve) => {
        readEventStream(response.body as AsyncIterable<Uint8Array>, (frame) => {
          if (frame.event === "ready") resolve();
          if (frame.event !== "case") return;
          const at = performance.now();
          const id = (JSON.parse(frame.data) as { id: number }).id;
          received.set(id, [...(received.get(id) ?? []), at]);
        }).catch(() => undefined);
      });
    }),
  );
  const openMs = round(performance.now() - opened);
  log(`event fan-out: ${ready.length} streams open in ${openMs} ms`);
  await sleep(500);
  const rssWithStreamsMb = rssMb(server.appPid);

  const database = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 1 });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const latencies: number[] = [];
  const ids: number[] = [];
  try {
    const caseId = subject.caseId ?? randomUUID();
    const { rows } = await client.query("select client_id from cases where id = $1", [caseId]);
    const clientId = (rows[0] as { client_id: string } | undefined)?.client_id ?? randomUUID();
    for (let round = 0; round < rounds; round++) {
      const before = performance.now();
      await database.db.transaction((tx) => publishCaseEvent(tx, { caseId, clientId, change: "case" }));
      const deadline = Date.now() + 5000;
      let id: number | undefined;
      while (Date.now() < deadline) {
        id = [...received.keys()].find((candidate) => !ids.includes(candidate));
        if (id !== undefined && (received.get(id)?.length ?? 0) >= streams) break;
        await sleep(5);
      }
      if (id === undefined) continue;
      ids.push(id);
      for (const at of received.get(id) ?? []) latencies.push(at - before);
      await sleep(200);
    }
    if (ids.length > 0) await client.query("delete from case_events where id = any($1)", [ids]);
  } finally {
    await client.end();
    for (const abort of aborts) abort.abort();
    await database.close();
  }
  const sorted = latencies.sort((left, right) => left - right);
  return {
    streams,
    rounds,
    delivered: latencies.length,
    openMs,
    latencyMs: {
      p50: round(percentile(sorted, 0.5)),
      p99: round(percentile(sorted, 0.99)),
      max: round(sorted.at(-1) ?? Number.NaN),
    },
    rssBeforeMb: rssBeforeMb === undefined ? undefined : round(rssBeforeMb),
    rssWithStreamsMb: rssWithStreamsMb === undefined ? undefined : round(rssWithStreamsMb),
  };
}

export function fanOutChecks(run: FanOutRun): TargetCheck[] {
  const all = run.streams * run.rounds;
  return [
    {
      target: "event fan-out: every stream gets the change",
      subject: `${run.streams} streams × ${run.rounds} changes`,
      value: `${run.delivered} delivered`,
      limit: `= ${all}`,
      pass: run.delivered === all,
    },
    {
      target: "event fan-out p99 delivery",
      subject: `${run.streams} streams, RSS ${run.rssBeforeMb ?? "–"} → ${run.rssWithStreamsMb ?? "–"} MB with them open`,
      value: `${run.latencyMs.p99} ms`,
      limit: `≤ ${fanOutTarget.p99Ms} ms`,
      pass: run.latencyMs.p99 <= fanOutTarget.p99Ms,
    },
  ];
}

export function describeFanOut(run: FanOutRun): string {
  return (
    `Event fan-out: ${run.streams} streams open in ${run.openMs} ms; ${run.rounds} changes, ${run.delivered} of ` +
    `${run.streams * run.rounds} deliveries; latency p50 ${run.latencyMs.p50} / p99 ${run.latencyMs.p99} / max ` +
    `${run.latencyMs.max} ms; server RSS ${run.rssBeforeMb ?? "–"} MB before, ${run.rssWithStreamsMb ?? "–"} MB with the streams open`
  );
}

/**
 * `tsx bench/event-fan-out.ts`: the fan-out alone, on a fresh database of its own (no data set needed): the built
 * server as `npm start` runs it, the bench's administrator, then the measurement and bench-results/event-fan-out-*.json.
 */
async function main(): Promise<void> {
  const name = `vigil_bench_events_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  try {
    const database = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 1 });
    await createUser(
      database.db,
      {
        username: benchUser.username,
        email: "bench@vigil.test",
        name: benchUser.name,
        groups: ["admin"],
        password: benchUser.password,
      },
      { username: "bench" },
    );
    await database.close();
    log("building the server (apps/server/dist)");
    buildServer();
    const run = await withVigil(`PostgreSQL ${name}`, "bench-server-events", { url: url.toString() }, (server, token) =>
      measureEventFanOut(server, token, url.toString()),
    );
    console.log(describeFanOut(run));
    for (const check of fanOutChecks(run)) {
      console.log(
        `${check.pass ? "PASS" : "MISS"}  ${check.target} — ${check.subject}: ${check.value} (${check.limit})`,
      );
    }
    const file = path.join(resultsDir, `event-fan-out-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, `${JSON.stringify({ eventFanOut: run, targets: fanOutChecks(run) }, null, 2)}\n`);
    console.log(`Results: ${path.relative(repoRoot, file)}`);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
