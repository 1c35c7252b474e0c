import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAck } from "./hl7-ack.js";
import { sendMllpMessage } from "./mllp-client.js";
import { type MllpListener, startMllpListener } from "./mllp-listener.js";

// Debian's python3-hl7 plays the hospital: its mllp_send, its MLLP client and its asyncio MLLP server. The system
// interpreter, not a pyenv python3 that may come first on PATH.
const python = "/usr/bin/python3";
const mllpSend = "/usr/bin/mllp_send";
const peerScript = fileURLToPath(new URL("./test-fixtures/python-mllp-peer.py", import.meta.url));
const run = promisify(execFile);

const order = (controlId: string) =>
  [
    `MSH|^~\\&|EPIC|ST_MARYS|VIGIL|VIGIL_EEG|20260301083000-0500||ORM^O01^ORM_O01|${controlId}|P|2.5.1`,
    "PID|1||E1234567^^^ST_MARYS^MR||Ñúñez^José||19800101|M",
    "PV1|1|I|4W^401^A||||1234^WELBY^MARCUS|||||||||||V998877",
    "ORC|NW|PLC-778^EPIC",
    "OBR|1|PLC-778^EPIC||95720^EEG continuous^CPT",
  ].join("\r");

const received: Array<{ controlId: string; raw: string; peer: string }> = [];
let listener: MllpListener;
const folder = mkdtempSync(path.join(tmpdir(), "vigil-hl7-"));

beforeAll(async () => {
  listener = await startMllpListener({
    port: 0,
    host: "127.0.0.1",
    maxMessageBytes: 4 * 1024 * 1024,
    idleTimeoutMs: 5000,
    handle: async (message, raw, peer) => {
      const controlId = message.getSegment("MSH")?.getField(10)?.toString() ?? "";
      received.push({ controlId, raw, peer: peer.address });
      if (controlId.startsWith("UNKNOWN")) {
        return buildAck(message, {
          code: "AE",
          errors: [{ code: 204, location: { segment: "PID", field: 3 }, text: "No patient with that MRN" }],
        });
      }
      return buildAck(message, { code: "AA" });
    },
  });
});
afterAll(() => listener.close({ graceMs: 500 }));

describe("our listener, with python3-hl7 sending", () => {
  it("takes what mllp_send sends, one ACK per message, which mllp_send prints", async () => {
    const file = path.join(folder, "orders.hl7");
    writeFileSync(file, `\x0b${order("PY-1")}\x1c\r\x0b${order("PY-2")}\x1c\r`);
    const { stdout } = await run(mllpSend, ["--file", file, "--port", String(listener.port), "127.0.0.1"]);
    expect(received.filter((entry) => entry.controlId.startsWith("PY-")).map((entry) => entry.controlId)).toEqual([
      "PY-1",
      "PY-2",
    ]);
    expect(received.find((entry) => entry.controlId === "PY-1")?.raw).toContain(
      "PID|1||E1234567^^^ST_MARYS^MR||Ñúñez^José",
    );
    expect(stdout).toMatch(/MSA\|AA\|PY-1/);
    expect(stdout).toMatch(/MSA\|AA\|PY-2/);
    expect(stdout).toMatch(/MSH\|\^~\\&\|VIGIL\|VIGIL_EEG\|EPIC\|ST_MARYS\|\d{14}\+0000\|\|ACK\^O01\^ACK\|/);
  });

  it("answers an ACK hl7.parse reads, ERR and all", async () => {
    const input = order("UNKNOWN-1");
    const result = await new Promise<string>((resolve, reject) => {
      const process = spawn(python, [peerScript, "send", String(listener.port)]);
      let out = "";
      let errors = "";
      process.stdout.on("data", (chunk) => {
        out += chunk;
      });
      process.stderr.on("data", (chunk) => {
        errors += chunk;
      });
      process.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(errors))));
      process.stdin.end(input);
    });
    const parsed = JSON.parse(result);
    expect(parsed).toMatchObject({ code: "AE", acknowledged: "UNKNOWN-1", errors: ["204"] });
    expect(parsed.ack.segments).toEqual(["MSH", "MSA", "ERR"]);
    expect(parsed.ack.type).toBe("ACK^O01^ACK");
  });
});

describe("our sender, with python3-hl7's asyncio MLLP server receiving", () => {
  let peer: ChildProcessWithoutNullStreams;
  let peerPort = 0;
  const lines: string[] = [];

  beforeAll(async () => {
    peer = spawn(python, [peerScript, "serve"]);
    peerPort = await new Promise<number>((resolve, reject) => {
      let buffer = "";
      let errors = "";
      peer.stderr.on("data", (chunk) => {
        errors += chunk;
      });
      peer.on("exit", (code) => reject(new Error(`python peer exited ${code}: ${errors}`)));
      peer.stdout.on("data", (chunk) => {
        buffer += chunk;
        const complete = buffer.split("\n");
        buffer = complete.pop() ?? "";
        for (const line of complete) {
          const listening = /^LISTENING (\d+)$/.exec(line);
          if (listening) resolve(Number(listening[1]));
          else lines.push(line);
        }
      });
    });
  });
  afterAll(() => {
    peer.kill("SIGTERM");
  });

  it("delivers a result that hl7.parse reads segment by segment, and reads the library's own ACK", async () => {
    const pdf = randomBytes(1024 * 1024).toString("base64");
    const result = [
      "MSH|^~\\&|VIGIL|VIGIL_EEG|EPIC|ST_MARYS|20260301120000+0000||ORU^R01^ORU_R01|OUT-1|P|2.5.1",
      "PID|1||E1234567^^^ST_MARYS^MR||Ñúñez^José",
      "OBR|1|PLC-778^EPIC|V-42^VIGIL|95720^EEG continuous^CPT|||||||||||||||||||F",
      `OBX|1|ED|PDF^Report^L||^application^pdf^Base64^${pdf}||||||F`,
      "OBX|2|TX|IMP^Impression^L||Normal awake and asleep EEG.||||||F",
    ].join("\r");
    const sent = await sendMllpMessage({
      host: "127.0.0.1",
      port: peerPort,
      message: result,
      connectTimeoutMs: 2000,
      ackTimeoutMs: 5000,
    });
    expect(sent).toMatchObject({ ok: true, ack: { code: "AA", acknowledgedControlId: "OUT-1" } });
    const seen = lines.map((line) => JSON.parse(line).received).find((entry) => entry.control_id === "OUT-1");
    expect(seen.segments).toEqual(["MSH", "PID", "OBR", "OBX", "OBX"]);
    expect(seen.type).toBe("ORU^R01^ORU_R01");
    expect(seen.text).toContain("Ñúñez^José");
    expect(seen.text).toContain(pdf);
  });
});
