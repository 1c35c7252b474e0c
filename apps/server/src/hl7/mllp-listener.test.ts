import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Hl7Message } from "@medplum/core";
import { afterEach, describe, expect, it } from "vitest";
import { buildAck, readAck } from "./hl7-ack.js";
import { CR, FS, MllpFrameReader, VT } from "./mllp-framing.js";
import { type MllpHandler, type MllpListener, type MllpRefusal, startMllpListener } from "./mllp-listener.js";

const admission = (controlId: string, extra = "") =>
  `MSH|^~\\&|EPIC|ST_MARYS|VIGIL|EEG|20260301083000||ADT^A01^ADT_A01|${controlId}|P|2.5.1${extra}\rPID|1||E1^^^ST_MARYS^MR||DOE^JANE\r`;
const frame = (text: string | Buffer) =>
  Buffer.concat([Buffer.from([VT]), typeof text === "string" ? Buffer.from(text) : text, Buffer.from([FS, CR])]);

const accept: MllpHandler = async (message) => buildAck(message, { code: "AA" });

let listener: MllpListener | undefined;
afterEach(async () => {
  await listener?.close({ graceMs: 500 });
  listener = undefined;
});

async function listen(options: Partial<Parameters<typeof startMllpListener>[0]> = {}) {
  const handled: string[] = [];
  const refusals: MllpRefusal[] = [];
  const { handle = accept, ...rest } = options;
  listener = await startMllpListener({
    port: 0,
    host: "127.0.0.1",
    maxMessageBytes: 64 * 1024,
    idleTimeoutMs: 2000,
    onRefused: (refusal) => {
      refusals.push(refusal);
    },
    ...rest,
    handle: async (message, raw, peer) => {
      handled.push(message.getSegment("MSH")?.getField(10)?.toString() ?? "");
      return handle(message, raw, peer);
    },
  });
  return { handled, refusals, port: listener.port };
}

/** Writes the parts (with a pause between), then collects answer frames until `count` arrived or the socket closed. */
async function exchange(port: number, parts: Array<string | Buffer>, count: number, pauseMs = 0) {
  const socket = net.connect(port, "127.0.0.1");
  const reader = new MllpFrameReader({ maxMessageBytes: 1024 * 1024 });
  const answers: string[] = [];
  let closed = false;
  const done = new Promise<void>((resolve) => {
    socket.on("data", (chunk) => {
      for (const event of reader.push(chunk)) if (event.kind === "frame") answers.push(event.bytes.toString("latin1"));
      if (answers.length >= count) resolve();
    });
    socket.on("close", () => {
      closed = true;
      resolve();
    });
    socket.on("error", () => {});
  });
  await new Promise((resolve) => socket.once("connect", resolve));
  for (const part of parts) {
    socket.write(part);
    if (pauseMs) await sleep(pauseMs);
  }
  await done;
  socket.destroy();
  return { answers, closed, acks: answers.map((answer) => readAck(Hl7Message.parse(answer))) };
}

describe("the MLLP listener", () => {
  it("hands a framed message to the handler and writes its ACK back", async () => {
    const { handled, port } = await listen();
    const { acks } = await exchange(port, [frame(admission("M1"))], 1);
    expect(handled).toEqual(["M1"]);
    expect(acks[0]).toMatchObject({ code: "AA", acknowledgedControlId: "M1" });
  });

  it("answers two frames in one write and a frame split byte by byte, in order", async () => {
    const { handled, port } = await listen();
    const two = Buffer.concat([frame(admission("A")), frame(admission("B"))]);
    const third = frame(admission("C"));
    const bytes = [...third].map((byte) => Buffer.from([byte]));
    const { acks } = await exchange(port, [two, ...bytes], 3);
    expect(acks.map((ack) => ack?.acknowledgedControlId)).toEqual(["A", "B", "C"]);
    expect(handled).toEqual(["A", "B", "C"]);
  });

  it("skips bytes before VT and a newline after the frame", async () => {
    const { port } = await listen();
    const { acks } = await exchange(
      port,
      [Buffer.concat([Buffer.from("\r\n  "), frame(admission("N1")), Buffer.from("\n")])],
      1,
    );
    expect(acks[0]?.acknowledgedControlId).toBe("N1");
  });

  it("answers AE with ERR 207 when the handler throws, and keeps serving", async () => {
    let calls = 0;
    const { port } = await listen({
      handle: async (message) => {
        calls++;
        if (calls === 1) throw new Error("database down");
        return buildAck(message, { code: "AA" });
      },
    });
    const { acks } = await exchange(port, [frame(admission("F1")), frame(admission("F2"))], 2);
    expect(acks[0]).toMatchObject({ code: "AE", acknowledgedControlId: "F1" });
    expect(acks[0]?.errors[0]?.code).toBe("207");
    expect(acks[1]).toMatchObject({ code: "AA", acknowledgedControlId: "F2" });
  });

  it("answers CE rather than AE to an enhanced-mode sender when the handler throws", async () => {
    const { port } = await listen({
      handle: async () => {
        throw new Error("no");
      },
    });
    const { acks } = await exchange(port, [frame(admission("E1", "|||AL|AL"))], 1);
    expect(acks[0]?.code).toBe("CE");
  });

  it("writes nothing when the handler answers null (enhanced mode, MSH-15 NE)", async () => {
    const { port } = await listen({ handle: async () => null });
    const socket = net.connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    socket.on("data", (chunk) => received.push(chunk));
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(frame(admission("Q1", "|||NE|NE")));
    await sleep(200);
    socket.destroy();
    expect(received).toEqual([]);
  });

  it("refuses with AR and ERR 101 a message without MSH-10, and never calls the handler", async () => {
    const { handled, refusals, port } = await listen();
    const { acks } = await exchange(port, [frame(admission(""))], 1);
    expect(acks[0]).toMatchObject({ code: "AR" });
    expect(acks[0]?.errors[0]).toMatchObject({ code: "101", location: "MSH^1^10" });
    expect(handled).toEqual([]);
    expect(refusals.map((refusal) => refusal.reason)).toEqual(["missing-field"]);
  });

  it("refuses with CR, not AR, a sender that asked for enhanced mode", async () => {
    const { port } = await listen();
    const { acks } = await exchange(port, [frame(admission("", "|||AL|NE"))], 1);
    expect(acks[0]?.code).toBe("CR");
    expect(acks[0]?.errors[0]).toMatchObject({ code: "101", location: "MSH^1^10" });
  });

  it("refuses with AR and ERR 100 two messages run together in one frame", async () => {
    const { handled, port } = await listen();
    const { acks } = await exchange(port, [frame(admission("J1") + admission("J2"))], 1);
    expect(acks[0]).toMatchObject({ code: "AR", acknowledgedControlId: "J1" });
    expect(acks[0]?.errors[0]?.code).toBe("100");
    expect(handled).toEqual([]);
  });

  it("refuses with AR and ERR 102 at MSH-2 a message whose delimiters cannot be read", async () => {
    const { port } = await listen();
    const { acks } = await exchange(port, [frame("MSHA^~\\&AEPICAX")], 1);
    expect(acks[0]).toMatchObject({ code: "AR", acknowledgedControlId: "" });
    expect(acks[0]?.errors[0]).toMatchObject({ code: "102", location: "MSH^1^2" });
  });

  it("closes the connection on a frame that holds no MSH at all", async () => {
    const { handled, refusals, port } = await listen();
    const result = await exchange(port, [frame("GET / HTTP/1.1\r\n\r\n")], 1);
    expect(result).toMatchObject({ answers: [], closed: true });
    expect(handled).toEqual([]);
    expect(refusals[0]).toMatchObject({ reason: "not-hl7", ack: undefined });
  });

  it("refuses invalid UTF-8 with ERR 102 at the field holding the byte, and reads 8859/1 when MSH-18 says so", async () => {
    const { handled, port } = await listen();
    const latin = (id: string, charset: string) =>
      Buffer.from(
        `MSH|^~\\&|EPIC|ST_MARYS|VIGIL|EEG|20260301||ADT^A08|${id}|P|2.5.1|||||USA|${charset}\rPID|1||E1||M\xfcller^Ana\r`,
        "latin1",
      );
    const { acks, answers } = await exchange(port, [frame(latin("U1", "")), frame(latin("U2", "8859/1"))], 2);
    expect(acks[0]).toMatchObject({ code: "AR", acknowledgedControlId: "U1" });
    expect(acks[0]?.errors[0]).toMatchObject({ code: "102", location: "PID^1^5" });
    expect(acks[0]?.text).toMatch(/0xFC.*not UTF-8/);
    expect(acks[1]).toMatchObject({ code: "AA", acknowledgedControlId: "U2" });
    expect(answers[1]).toContain("|8859/1");
    expect(handled).toEqual(["U2"]);
  });

  it("refuses a character set it does not read with ERR 103 at MSH-18", async () => {
    const { port } = await listen();
    const { acks } = await exchange(port, [frame(admission("C1", "|||||USA|ISO IR87"))], 1);
    expect(acks[0]?.errors[0]).toMatchObject({ code: "103", location: "MSH^1^18" });
  });

  it("answers AR to a message over the size limit without buffering it, and serves the next one", async () => {
    const { handled, refusals, port } = await listen({ maxMessageBytes: 4096 });
    const big = `${admission("BIG")}OBX|1|ED|PDF||${"A".repeat(200_000)}\r`;
    const { acks } = await exchange(port, [frame(big), frame(admission("SMALL"))], 2);
    expect(acks[0]).toMatchObject({ code: "AR", acknowledgedControlId: "BIG" });
    expect(acks[0]?.text).toMatch(/at most 4096 bytes/);
    expect(acks[1]).toMatchObject({ code: "AA", acknowledgedControlId: "SMALL" });
    expect(handled).toEqual(["SMALL"]);
    expect(refusals[0]?.raw.length).toBeLessThanOrEqual(4096);
  });

  it("takes a 10 MB result whole when the limit allows it", async () => {
    let size = 0;
    const { port } = await listen({
      maxMessageBytes: 16 * 1024 * 1024,
      handle: async (message, raw) => {
        size = raw.length;
        return buildAck(message, { code: "AA" });
      },
    });
    const pdf = Buffer.alloc(7_500_000, 7).toString("base64");
    const text = `${admission("BIG10")}OBX|1|ED|PDF||^application^pdf^Base64^${pdf}\r`;
    const { acks } = await exchange(port, [frame(text)], 1);
    expect(acks[0]).toMatchObject({ code: "AA", acknowledgedControlId: "BIG10" });
    expect(size).toBe(text.length);
    expect(size).toBeGreaterThan(10_000_000);
  });

  it("closes a sender that drips a frame for longer than the frame timeout, though never idle", async () => {
    const { handled, port } = await listen({ idleTimeoutMs: 1000, frameTimeoutMs: 300 });
    const bytes = [...frame(admission("DRIP"))].map((byte) => Buffer.from([byte]));
    const started = Date.now();
    const result = await exchange(port, bytes.slice(0, 40), 1, 20);
    expect(result.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(handled).toEqual([]);
  });

  it("closes a connection whose frame runs on far past the limit without an end", async () => {
    const { port } = await listen({ maxMessageBytes: 64 * 1024 });
    const endless = [Buffer.from([VT]), ...Array.from({ length: 40 }, () => Buffer.alloc(64 * 1024, 0x41))];
    const result = await exchange(port, endless, 1);
    expect(result).toMatchObject({ answers: [], closed: true });
  });

  it("closes a connection that stays silent past the idle timeout", async () => {
    const { port } = await listen({ idleTimeoutMs: 150 });
    const started = Date.now();
    const result = await exchange(port, [Buffer.from([VT]), Buffer.from("MSH|^~\\&|")], 1);
    expect(result.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(1500);
    await expect.poll(() => listener?.connectionCount(), { timeout: 10_000 }).toBe(0);
  });

  it("answers a sender that half-closes after its message, then closes", async () => {
    const { port } = await listen();
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    const closed = new Promise((resolve) => socket.on("close", resolve));
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.end(frame(admission("H1")));
    await closed;
    const ack = Buffer.concat(chunks).subarray(1, -2).toString();
    expect(readAck(Hl7Message.parse(ack))).toMatchObject({ code: "AA", acknowledgedControlId: "H1" });
  });

  it("on close, lets the handler at work finish and write its ACK, then stops accepting", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { port } = await listen({
      handle: async (message) => {
        await gate;
        return buildAck(message, { code: "AA" });
      },
    });
    const pending = exchange(port, [frame(admission("G1"))], 1);
    await sleep(100);
    const closing = listener?.close({ graceMs: 2000 });
    await sleep(50);
    const refused = await new Promise<string>((resolve) => {
      const probe = net.connect(port, "127.0.0.1");
      probe.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      probe.on("connect", () => resolve("connected"));
    });
    release();
    const { acks } = await pending;
    await closing;
    listener = undefined;
    expect(refused).toBe("ECONNREFUSED");
    expect(acks[0]).toMatchObject({ code: "AA", acknowledgedControlId: "G1" });
  });
});
