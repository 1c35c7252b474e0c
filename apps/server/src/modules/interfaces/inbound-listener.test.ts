import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Client } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.js";
import { type Database, openDatabase, queryRows } from "../../db/client.js";
import type { MllpListener } from "../../hl7/mllp-listener.js";
import { callerFor } from "../../testing/kits/caller-kit.js";
import { createClient } from "../../testing/kits/cases-kit.js";
import {
  addInterfaceProfile,
  fixtureMessage,
  inboundRow,
  nextControlId,
  orderOfPlacer,
  readAckText,
} from "../../testing/kits/inbound-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { startInboundListener } from "./inbound-listener.js";

/**
 * The listener against the real peer the hospital side is played by: Debian's python3-hl7 `mllp_send`, which frames
 * a file of messages (`--loose`: segments on lines, as a person writes them) and prints each ACK it receives.
 */
const run = promisify(execFile);
const folder = mkdtempSync(path.join(tmpdir(), "vigil-mllp-"));

async function mllpSend(port: number, message: string): Promise<string> {
  const file = path.join(folder, `${nextControlId("F")}.hl7`);
  writeFileSync(file, `${message.split("\r").join("\n")}\n`);
  const { stdout } = await run("/usr/bin/mllp_send", ["--loose", "-f", file, "-p", String(port), "127.0.0.1"], {
    timeout: 15_000,
  });
  // mllp_send prints the ACK with its segment ends as sent (\r); one line per ACK.
  return stdout.trim();
}

const settings = { host: "127.0.0.1", port: 0, maxMessageBytes: 1_000_000, idleTimeoutMs: 10_000 };
let harness: TestApp;
let client: Client;
let listener: MllpListener;

beforeAll(async () => {
  harness = await createTestApp();
  client = await createClient(await callerFor(harness, "mllp-admin", ["admin"]));
  await addInterfaceProfile(harness.database.db, client.id, { sendingApplication: "EPIC", sendingFacility: "UCHMC" });
  listener = await startInboundListener(harness.database.db, settings);
});
afterAll(async () => {
  await listener?.close({ graceMs: 1000 });
  await harness?.close();
});

describe("the MLLP listener with mllp_send as the hospital", () => {
  it("answers an order with AA once the case is stored, and a resend with the same ACK and no second case", async () => {
    const control = nextControlId("MLLP");
    const message = fixtureMessage("epic-orm-o01", { CONTROL: control, PLACER: "MLLP-1", MRN: "M100001" });
    const ack = await mllpSend(listener.port, message);
    expect(readAckText(ack.replace(/\n/g, "\r"))).toMatchObject({ code: "AA" });
    const [row] = await inboundRow(harness.database.db, control);
    expect(row).toMatchObject({ status: "processed", peer: "127.0.0.1" });
    expect(row?.caseId).not.toBeNull();
    const again = await mllpSend(listener.port, message);
    expect(again).toBe(ack);
    expect(await orderOfPlacer(harness.database.db, "MLLP-1")).toHaveLength(1);
    expect(listener.connectionCount()).toBe(0);
  });

  it("takes the README's sample order, sent exactly as the README says, for a profile like the demo's", async () => {
    const demo = await createClient(await callerFor(harness, "mllp-demo-admin", ["admin"]));
    await addInterfaceProfile(harness.database.db, demo.id, {
      sendingApplication: "EPIC",
      sendingFacility: "SMRMC",
      mrnAssigningAuthority: "SMRMC-MRN",
    });
    const sample = new URL("../../../../../docs/samples/orm-o01-demo.hl7", import.meta.url);
    const { stdout } = await run(
      "/usr/bin/mllp_send",
      ["--loose", "--file", sample.pathname, "--port", String(listener.port), "127.0.0.1"],
      { timeout: 15_000 },
    );
    expect(readAckText(stdout.trim()).text).toMatch(/^Order ORD-DEMO-0001 received as CM-\d{4}-\d{6}\./);
    const [order] = await orderOfPlacer(harness.database.db, "ORD-DEMO-0001");
    expect(order).toMatchObject({ clientId: demo.id, visitNumber: "V20261129001", reason: "Seizure, unspecified" });
  });

  it("rejects a sender no profile owns with AR, and keeps the message", async () => {
    const control = nextControlId("MLLP");
    const ack = await mllpSend(
      listener.port,
      fixtureMessage("epic-orm-o01", { CONTROL: control, FACILITY: "STRANGER", PLACER: "MLLP-2" }),
    );
    expect(readAckText(ack.replace(/\n/g, "\r"))).toMatchObject({ code: "AR", error: "204" });
    expect(await inboundRow(harness.database.db, control)).toHaveLength(1);
  });
});

/** One raw MLLP frame over a socket, for bytes mllp_send would not send; resolves with the answer's text. */
function sendRawFrame(port: number, content: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1" }, () => {
      socket.write(Buffer.concat([Buffer.from([0x0b]), content, Buffer.from([0x1c, 0x0d])]));
    });
    let answer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      answer = Buffer.concat([answer, chunk]);
      if (answer.includes(0x1c)) socket.end();
    });
    socket.on("close", () => resolve(answer.toString("latin1")));
    socket.on("error", reject);
  });
}

describe("frames the transport refuses", () => {
  it("keep a message with broken bytes in the log as rejected, with the AR it got", async () => {
    const control = nextControlId("BAD");
    const text = fixtureMessage("epic-orm-o01", { CONTROL: control, PLACER: "MLLP-BAD" });
    // A byte that is no UTF-8 in the patient's name (the usual cause: Windows-1252 text without MSH-18).
    const [before, after] = text.split("DOE^JANE");
    const broken = Buffer.concat([Buffer.from(`${before}DOE^J`), Buffer.from([0xff]), Buffer.from(`ANE${after}`)]);
    const answer = await sendRawFrame(listener.port, broken);
    expect(answer).toContain(`MSA|AR|${control}`);
    const [row] = await inboundRow(harness.database.db, control);
    expect(row).toMatchObject({ status: "rejected", ackCode: "AR", clientId: client.id, caseId: null });
    expect(await orderOfPlacer(harness.database.db, "MLLP-BAD")).toHaveLength(0);
  });
});

const postgresUrl = loadConfig().databaseUrl;

describe.skipIf(!postgresUrl)("two instances, each with its listener, on one PostgreSQL database", () => {
  let second: Database;
  let secondListener: MllpListener;

  beforeAll(async () => {
    const [current] = await queryRows<{ name: string }>(harness.database.db, sql`select current_database() as name`);
    const url = new URL(postgresUrl as string);
    url.pathname = `/${current?.name}`;
    second = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 4 });
    secondListener = await startInboundListener(second.db, settings);
  });
  afterAll(async () => {
    await secondListener?.close({ graceMs: 1000 });
    await second?.close();
  });

  it("make one case of one message given to both at once, and both answer with the same ACK", async () => {
    for (let round = 0; round < 3; round += 1) {
      const control = nextControlId("TWIN");
      const placer = `TWIN-${round}`;
      const message = fixtureMessage("epic-orm-o01", { CONTROL: control, PLACER: placer, MRN: `T10000${round}` });
      const [one, two] = await Promise.all([mllpSend(listener.port, message), mllpSend(secondListener.port, message)]);
      expect(one).toBe(two);
      expect(readAckText(one.replace(/\n/g, "\r")).code).toBe("AA");
      expect(await orderOfPlacer(harness.database.db, placer)).toHaveLength(1);
      expect(await inboundRow(harness.database.db, control)).toHaveLength(1);
    }
  });
});
