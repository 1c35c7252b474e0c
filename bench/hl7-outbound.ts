import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import Fastify from "fastify";
import pg from "pg";
import { openDatabase } from "../apps/server/src/db/client.js";
import { clients, hl7Messages, interfaceProfileRevisions } from "../apps/server/src/db/schema.js";
import { buildAckText } from "../apps/server/src/hl7/hl7-ack.js";
import { startMllpListener } from "../apps/server/src/hl7/mllp-listener.js";
import { enqueueJob } from "../apps/server/src/jobs/job-queue.js";
import { startJobRunner } from "../apps/server/src/jobs/job-runner.js";
import { defaultOutboundTimeouts } from "../apps/server/src/modules/interfaces/outbound-service.js";
import { resultJob } from "../apps/server/src/modules/interfaces/result-job.js";
import { resultJobKind } from "../apps/server/src/modules/interfaces/result-job-kind.js";
import { postgresAdminUrl, resultsDir } from "./config.js";
import { log, sleep } from "./processes.js";

/**
 * `npm run bench:hl7` (after the inbound run) or `npx tsx bench/hl7-outbound.ts`: the outbound throughput of result
 * messages (docs/operations.md, "Benchmark"). On a fresh PostgreSQL database, BENCH_HL7_OUT_MESSAGES (500) queued
 * ORU^R01 rows, each with a PDF of BENCH_HL7_OUT_PDF_KB (250) kB as base64 and its `hl7-result` job, are sent by the
 * job room as the server runs it (one runner, its default concurrency, the production `hl7-result` kind) to an MLLP
 * listener in this process that answers AA to each. Measured: results acknowledged per second from the first claim
 * to the last acknowledgement, and every row acknowledged once (none lost, none sent twice).
 */
const total = Number(process.env.BENCH_HL7_OUT_MESSAGES ?? 500);
const pdfKb = Number(process.env.BENCH_HL7_OUT_PDF_KB ?? 250);
const limitSeconds = Number(process.env.BENCH_HL7_OUT_SECONDS ?? 300);
const database = "vigil_bench_hl7_out";

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

function result(index: number, pdf: string): { controlId: string; text: string } {
  const controlId = `VBENCH${String(index).padStart(8, "0")}`;
  const text = [
    `MSH|^~\\&|VIGIL|BENCH|EPICCARE|SMRMC|20261129080000+0000||ORU^R01^ORU_R01|${controlId}|P|2.5.1||||||UNICODE UTF-8`,
    `PID|1||BM${index}^^^SMRMC-MRN^MR||BENCH^PAT${index}||19700101|F`,
    `PV1|1|I||||||||||||||||||V${index}`,
    `ORC|RE|BO${index}^EPIC|CM-2026-${String(index).padStart(6, "0")}^VIGIL||CM||||20261129080000+0000`,
    `OBR|1|BO${index}^EPIC|CM-2026-${String(index).padStart(6, "0")}^VIGIL|11523-8^EEG study^LN|||||||||||||||||||EN|F`,
    "OBX|1|FT|11523-8^EEG study^LN|1|Impression: normal.||||||F",
    `OBX|2|ED|11523-8^EEG study^LN|2|^application^pdf^Base64^${pdf}||||||F`,
  ].join("\r");
  return { controlId, text };
}

async function main(): Promise<void> {
  log(`HL7 outbound: ${total} ORU^R01 with ${pdfKb} kB PDFs through the job room`);
  await admin(`drop database if exists ${database} with (force)`);
  await admin(`create database ${database}`);
  const opened = await openDatabase({ kind: "postgres", url: databaseUrl(database) });
  const received = new Map<string, number>();
  const listener = await startMllpListener({
    host: "127.0.0.1",
    port: 0,
    maxMessageBytes: 16 * 1024 * 1024,
    idleTimeoutMs: 30_000,
    handle: async (message) => {
      const controlId = message.getSegment("MSH")?.getField(10)?.toString() ?? "";
      received.set(controlId, (received.get(controlId) ?? 0) + 1);
      return buildAckText(message, { code: "AA", errors: [] });
    },
  });
  const logger = Fastify({ logger: { level: "warn" } }).log;
  try {
    const { db } = opened;
    const [client] = await db
      .insert(clients)
      .values({ name: "Bench Hospital", code: "BENCH", timezone: "America/Chicago" })
      .returning();
    const clientId = client?.id as string;
    await db.insert(interfaceProfileRevisions).values({
      clientId,
      revision: 1,
      enabled: true,
      sendingApplication: "EPIC",
      sendingFacility: "BENCH",
      mrnAssigningAuthority: "BENCH-MRN",
      visitNumberSource: "PV1-19",
      receivingApplication: "EPICCARE",
      receivingFacility: "BENCH",
      destination: { host: "127.0.0.1", port: listener.port, tls: false, caCertificate: null },
      resultStyle: "ORU^R01",
      hl7Version: "2.5.1",
      orderStatusUpdates: false,
      authorUsername: "bench",
    });
    const pdf = randomBytes(pdfKb * 1024).toString("base64");
    for (let index = 0; index < total; index += 1) {
      const { controlId, text } = result(index, pdf);
      await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(hl7Messages)
          .values({
            direction: "outbound",
            clientId,
            messageType: "ORU^R01",
            controlId,
            sendingApplication: "VIGIL",
            sendingFacility: "BENCH",
            text,
            status: "queued",
          })
          .returning({ id: hl7Messages.id });
        const id = row?.id as string;
        await enqueueJob(tx, resultJobKind, { messageId: id }, { uniqueKey: `hl7-result:${id}` });
      });
    }
    log(`${total} results queued; the job room sends them`);
    const began = performance.now();
    const runner = startJobRunner(
      opened,
      [resultJob({ ...defaultOutboundTimeouts, sendingFacility: "BENCH" })],
      logger,
      { pollMs: 100 },
    );
    const count = new pg.Client({ connectionString: databaseUrl(database) });
    await count.connect();
    let acknowledged = 0;
    while (acknowledged < total && performance.now() - began < limitSeconds * 1000) {
      await sleep(200);
      const counted = await count.query(
        "select count(*)::int as n from hl7_messages where direction = 'outbound' and status = 'acknowledged'",
      );
      acknowledged = counted.rows[0].n as number;
    }
    const elapsed = (performance.now() - began) / 1000;
    await runner.stop();
    await count.end();
    const sentTwice = [...received.values()].filter((times) => times > 1).length;
    const summary = {
      at: new Date().toISOString(),
      messages: total,
      pdfKb,
      messageKb: Math.round(result(0, pdf).text.length / 1024),
      acknowledged,
      lost: total - acknowledged,
      sentTwice,
      elapsedSeconds: Math.round(elapsed * 10) / 10,
      resultsPerSecond: Math.round((acknowledged / elapsed) * 10) / 10,
      runnerConcurrency: 4,
    };
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(`${resultsDir}/hl7-outbound.json`, `${JSON.stringify(summary, null, 2)}\n`);
    log(JSON.stringify(summary));
  } finally {
    await listener.close({ graceMs: 1000 });
    await opened.close();
    await admin(`drop database if exists ${database} with (force)`).catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
