import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { findFreePort } from "../apps/server/src/testing/free-port.js";
import { postgresAdminUrl, repoRoot, resultsDir } from "./config.js";
import { log, rssSampler, serverStartCommand, sleep, startProcess } from "./processes.js";
import { buildServer } from "./servers.js";

/**
 * `npm run bench:hl7`: the inbound HL7 run (docs/operations.md, "Benchmark"). The production build on a fresh
 * PostgreSQL database with the demo seed (St. Mary's profile: EPIC / SMRMC) takes new orders (ORM^O01, each a new
 * case) over MLLP at a steady rate from this process, on a few kept connections as an interface engine holds them;
 * each ACK's time from the message's write to the ACK's last byte is measured. Afterwards every message must be a
 * processed row with its case (none lost), and the server's peak RSS is stated. BENCH_HL7_RATE (50/s) and
 * BENCH_HL7_SECONDS (60) change the load.
 */
const rate = Number(process.env.BENCH_HL7_RATE ?? 50);
const seconds = Number(process.env.BENCH_HL7_SECONDS ?? 60);
/** Kept connections to start with, and the most an engine would open; beyond, messages wait for a free one. */
const connections = 8;
const maxConnections = 32;
const database = "vigil_bench_hl7";

function databaseUrl(name: string): string {
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function order(index: number, runId: string): string {
  const id = `${runId}${String(index).padStart(6, "0")}`;
  return [
    `MSH|^~\\&|EPIC|SMRMC|VIGIL|VIGIL|20261129080000||ORM^O01^ORM_O01|B${id}|P|2.5.1`,
    `PID|1||BM${id}^^^SMRMC-MRN^MR||BENCH^PAT${index}||19700101|F`,
    `PV1|1|I|NICU^${index % 40}^A||||||||||||||||V${id}`,
    `ORC|NW|BO${id}^EPC|||||||||4455^OKAFOR^NGOZI`,
    `OBR|1|BO${id}^EPC||95716^EEG CONT W VIDEO^CPT`,
  ].join("\r");
}

/** One kept MLLP connection: one message at a time, resolved with the ACK's text. */
class Connection {
  private buffer = Buffer.alloc(0);
  private waiting: ((ack: string) => void) | undefined;
  busy = false;
  closed = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on("close", () => {
      this.closed = true;
      this.waiting?.("closed");
    });
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      const end = this.buffer.indexOf("\x1c\r");
      if (end === -1) return;
      const ack = this.buffer.subarray(1, end).toString("utf8");
      this.buffer = this.buffer.subarray(end + 2);
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve?.(ack);
    });
  }

  static open(port: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: "127.0.0.1" }, () => resolve(new Connection(socket)));
      socket.once("error", reject);
    });
  }

  /** `since`: when the message was due, so time spent waiting for a free connection counts as the sender's wait. */
  send(message: string, since: number): Promise<{ ack: string; ms: number }> {
    this.busy = true;
    return new Promise((resolve) => {
      const started = since;
      this.waiting = (ack) => {
        this.busy = false;
        resolve({ ack, ms: performance.now() - started });
      };
      this.socket.write(Buffer.concat([Buffer.from([0x0b]), Buffer.from(message), Buffer.from([0x1c, 0x0d])]));
    });
  }

  close(): void {
    this.socket.end();
  }
}

function percentile(sorted: number[], share: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1));
  return Math.round((sorted[index] ?? 0) * 10) / 10;
}

async function main(): Promise<void> {
  log(`HL7 inbound: ${rate} messages/s for ${seconds} s on ${connections} connections`);
  await admin(`drop database if exists ${database} with (force)`);
  await admin(`create database ${database}`);
  buildServer();
  const hl7Port = await findFreePort();
  const start = serverStartCommand(path.join(repoRoot, "apps", "server"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl(database),
    SEED: "demo",
    LOG_LEVEL: "warn",
    RELEASE_ID: "bench",
    HL7_MLLP_PORT: String(hl7Port),
    HL7_MLLP_HOST: "127.0.0.1",
  };
  // The demo seed writes its users' passwords into DATA_DIR: a folder of the run's own, removed after.
  const dataDir = mkdtempSync(path.join(tmpdir(), "vigil-bench-hl7-"));
  env.DATA_DIR = dataDir;
  const server = await startProcess({
    label: "vigil (hl7)",
    name: "bench-hl7",
    cwd: path.join(repoRoot, "apps", "server"),
    ...start,
    env,
    ready: async (baseURL) => (await fetch(`${baseURL}/api/config`, { signal: AbortSignal.timeout(5_000) })).ok,
  });
  const pool: Connection[] = [];
  try {
    for (let index = 0; index < connections; index += 1) pool.push(await Connection.open(hl7Port));
    // Warm-up: the first messages compile the code paths and fill the pools; not measured.
    const runId = Date.now().toString(36).toUpperCase().slice(-6);
    for (let index = 0; index < 20; index += 1) {
      await (pool[0] as Connection).send(order(900_000 + index, runId), performance.now());
    }
    const rss = rssSampler(server.appPid);
    rss.start();
    const total = rate * seconds;
    const latencies: number[] = [];
    const codes = new Map<string, number>();
    const pending: Promise<void>[] = [];
    let late = 0;
    const began = performance.now();
    for (let index = 0; index < total; index += 1) {
      const due = began + (index * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      let connection = pool.find((candidate) => !candidate.busy && !candidate.closed);
      if (!connection && pool.length < maxConnections) {
        late += 1;
        connection = await Connection.open(hl7Port);
        pool.push(connection);
      }
      while (!connection) {
        await sleep(2);
        connection = pool.find((candidate) => !candidate.busy && !candidate.closed);
      }
      pending.push(
        connection.send(order(index, runId), due).then(({ ack, ms }) => {
          latencies.push(ms);
          const code = /\rMSA\|([A-Z]{2})/.exec(ack)?.[1] ?? "none";
          codes.set(code, (codes.get(code) ?? 0) + 1);
        }),
      );
    }
    await Promise.all(pending);
    const elapsed = (performance.now() - began) / 1000;
    const peakRss = rss.stop();
    const client = new pg.Client({ connectionString: databaseUrl(database) });
    await client.connect();
    const stored = await client.query(
      `select count(*)::int as messages, count(case_id)::int as with_case from hl7_messages
       where direction = 'inbound' and status = 'processed' and control_id like $1`,
      [`B${runId}0%`],
    );
    const cases = await client.query("select count(*)::int as n from case_orders where placer_order_number like $1", [
      `BO${runId}0%`,
    ]);
    await client.end();
    latencies.sort((a, b) => a - b);
    const result = {
      at: new Date().toISOString(),
      rate,
      seconds,
      sent: total,
      elapsedSeconds: Math.round(elapsed * 10) / 10,
      acks: Object.fromEntries(codes),
      ackMs: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), max: percentile(latencies, 1) },
      storedProcessed: stored.rows[0].messages as number,
      storedWithCase: stored.rows[0].with_case as number,
      caseOrders: cases.rows[0].n as number,
      lost: total - (stored.rows[0].messages as number),
      connectionsOpenedForBacklog: late,
      serverPeakRssMb: peakRss,
    };
    writeFileSync(path.join(resultsDir, "hl7-inbound.json"), `${JSON.stringify(result, null, 2)}\n`);
    log(JSON.stringify(result));
  } finally {
    for (const connection of pool) connection.close();
    await server.stop();
    await admin(`drop database if exists ${database} with (force)`).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
