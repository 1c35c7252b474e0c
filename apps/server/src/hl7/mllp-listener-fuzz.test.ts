import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Hl7Message } from "@medplum/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAck, readAck } from "./hl7-ack.js";
import { CR, FS, frameMllp, MllpFrameReader, VT } from "./mllp-framing.js";
import { type MllpListener, startMllpListener } from "./mllp-listener.js";

// A seeded generator, so a failure can be replayed: the seed is in the test's name.
const seed = Number(process.env.MLLP_FUZZ_SEED ?? Date.now() % 100_000);
function generator(start: number) {
  let state = start >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}
const random = generator(seed);
const below = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[below(items.length)] as T;

const maxMessageBytes = 32 * 1024;
const segments = [
  "PID|1||E1234567^^^ST_MARYS^MR||DOE^JANE^Q||19800101|F|||1 MAIN ST^^SPRINGFIELD^IL^62701",
  "PV1|1|I|4W^401^A||||1234^WELBY^MARCUS|||||||||||V998877",
  "ORC|NW|PLC-778^EPIC||||||||||1234^WELBY^MARCUS",
  "OBR|1|PLC-778^EPIC||95720^EEG continuous^CPT|||20260301080000",
  "NTE|1||Patient had a seizure at 02:00 — please monitor ∆ 24 h",
  "ZXT|custom|segment",
];
let counter = 0;
function validMessage(): string {
  counter++;
  const modes = pick(["", "|||AL|NE", "|||NE|AL", "|||ER|SU"]);
  const header = `MSH|^~\\&|EPIC|ST_MARYS|VIGIL|EEG|20260301083000||${pick(["ADT^A01", "ORM^O01", "ADT^A08"])}|F${seed}-${counter}|P|2.5.1${modes}`;
  const body = Array.from({ length: 1 + below(5) }, () => pick(segments));
  return [header, ...body].join("\r");
}

/** Damages a message's bytes the ways real senders and networks do. */
function mutate(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  switch (below(8)) {
    case 0: // flipped bytes anywhere, the delimiters included (not VT or FS: those change the framing, case 7's part)
      for (let n = 0; n < 1 + below(8); n++) {
        const byte = below(256);
        copy[below(copy.length)] = byte === VT || byte === FS ? 0x41 : byte;
      }
      return copy;
    case 1: // a range lost
      return Buffer.concat([copy.subarray(0, below(copy.length)), copy.subarray(below(copy.length))]);
    case 2: // line ends and NUL where they do not belong
      copy[below(copy.length)] = pick([CR, 0x0a, 0x00]);
      return copy;
    case 3: // Windows-1252 text with no MSH-18
      return Buffer.concat([copy, Buffer.from("\rNTE|1||M\xfcller \x93quoted\x94", "latin1")]);
    case 4: // other delimiters
      return Buffer.from(
        copy.toString("latin1").replace("MSH|^~\\&", pick(["MSH|^^\\&", "MSHA^~\\&", "MSH|", "MSH"])),
        "latin1",
      );
    case 5: // MSH-10 or MSH-9 emptied
      return Buffer.from(copy.toString("latin1").replace(/\|F\d+-\d+\|/, "||"), "latin1");
    case 6: // two messages run together
      return Buffer.concat([copy, Buffer.from("\r"), copy]);
    default: // the front cut off
      return copy.subarray(below(Math.min(copy.length, 20)));
  }
}

type Plan = { writes: Buffer[]; pauseMs: number; halfClose: boolean; contents: Buffer[] };

function planConnection(): Plan {
  const contents: Buffer[] = [];
  const frames: Buffer[] = [];
  const kind = below(10);
  for (let n = 0; n < 1 + below(4); n++) {
    const text = Buffer.from(validMessage());
    if (kind < 3) {
      contents.push(text);
      frames.push(frameMllp(text));
    } else if (kind < 6) {
      const damaged = mutate(text);
      contents.push(damaged);
      frames.push(frameMllp(damaged));
    } else if (kind === 6) {
      const size = maxMessageBytes + below(4 * maxMessageBytes);
      frames.push(frameMllp(Buffer.concat([text, Buffer.from(`\rOBX|1|ED|PDF||${"QUJD".repeat(size / 4)}`)])));
    } else if (kind === 7) {
      frames.push(Buffer.from(Array.from({ length: below(4096) }, () => pick([below(256), VT, FS, CR]))));
    } else if (kind === 8) {
      frames.push(Buffer.concat([Buffer.from("noise\r\n"), frameMllp(text).subarray(0, below(text.length))]));
    } else {
      contents.push(text);
      frames.push(Buffer.concat([Buffer.from("\n"), frameMllp(text), Buffer.from("\r\n")]));
    }
  }
  const stream = Buffer.concat(frames);
  // Split the stream at random points: single bytes, a frame and a half, everything at once.
  const writes: Buffer[] = [];
  for (let start = 0; start < stream.length; ) {
    const size = pick([1, 2, 7, 64, 1500, 65536, stream.length]);
    writes.push(stream.subarray(start, start + size));
    start += size;
  }
  return { writes, pauseMs: pick([0, 0, 0, 1, 5]), halfClose: random() < 0.3, contents };
}

const handled: string[] = [];
let listener: MllpListener;
/** While true the handler misbehaves at random; the closing "still serving" check needs it to answer. */
let fuzzing = true;

beforeAll(async () => {
  listener = await startMllpListener({
    port: 0,
    host: "127.0.0.1",
    maxMessageBytes,
    idleTimeoutMs: 400,
    maxConnections: 500,
    handle: async (message, raw) => {
      handled.push(raw);
      if (fuzzing && random() < 0.1) throw new Error("the handler failed");
      if (fuzzing && random() < 0.05) return null;
      await sleep(below(3));
      return buildAck(message, { code: "AA" });
    },
  });
});
afterAll(() => listener.close({ graceMs: 500 }));

/** Runs one planned connection; resolves with the answers it got and whether the listener closed it. */
async function runConnection(plan: Plan) {
  const socket = net.connect(listener.port, "127.0.0.1");
  const reader = new MllpFrameReader({ maxMessageBytes: 1 << 20 });
  const answers: string[] = [];
  socket.on("data", (chunk) => {
    for (const event of reader.push(chunk)) if (event.kind === "frame") answers.push(event.bytes.toString("latin1"));
  });
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  await new Promise((resolve) => socket.once("connect", resolve));
  for (const part of plan.writes) {
    if (socket.destroyed) break;
    socket.write(part);
    if (plan.pauseMs) await sleep(plan.pauseMs);
  }
  if (plan.halfClose) socket.end();
  // The listener answers what it can, then the idle timeout (or our end) closes the connection.
  await Promise.race([closed, sleep(3000)]);
  const stillOpen = !socket.destroyed && socket.readyState !== "closed";
  socket.destroy();
  return { answers, stillOpen };
}

describe(`the MLLP listener under fuzzing (seed ${seed})`, () => {
  it("never crashes, answers only ACKs or closes, and hands the handler only whole frames", async () => {
    const plans = Array.from({ length: 120 }, planConnection);
    const sentContents = new Set(plans.flatMap((plan) => plan.contents.map((content) => content.toString("latin1"))));
    const results: Array<Awaited<ReturnType<typeof runConnection>>> = [];
    for (let start = 0; start < plans.length; start += 16) {
      results.push(...(await Promise.all(plans.slice(start, start + 16).map(runConnection))));
    }

    for (const { answers, stillOpen } of results) {
      expect(stillOpen).toBe(false);
      for (const answer of answers) {
        const ack = readAck(Hl7Message.parse(answer.replace(/^[\s]+/, "")));
        expect(ack, answer).toBeDefined();
      }
    }
    // Every message a handler saw is byte for byte the content of one frame some connection sent whole.
    for (const raw of handled) {
      expect(sentContents.has(Buffer.from(raw, "utf8").toString("latin1")), raw.slice(0, 200)).toBe(true);
    }
    expect(handled.length).toBeGreaterThan(20);
    expect(results.some((result) => result.answers.length > 0)).toBe(true);
    await expect.poll(() => listener.connectionCount(), { timeout: 10_000 }).toBe(0);

    // Still serving after all that, to a handler that now always answers.
    fuzzing = false;
    const after = await runConnection({
      writes: [frameMllp(Buffer.from(validMessage()))],
      pauseMs: 0,
      halfClose: true,
      contents: [],
    });
    expect(after.answers).toHaveLength(1);
  });

  it("holds hundreds of idle connections at once and frees them all at the idle timeout", async () => {
    const idle = await startMllpListener({
      port: 0,
      host: "127.0.0.1",
      maxMessageBytes,
      idleTimeoutMs: 2000,
      maxConnections: 500,
      handle: async () => null,
    });
    const sockets = await Promise.all(
      Array.from({ length: 300 }, async () => {
        const socket = net.connect(idle.port, "127.0.0.1");
        socket.on("error", () => {});
        await new Promise((resolve) => socket.once("connect", resolve));
        socket.write(Buffer.from([VT, 0x4d]));
        return socket;
      }),
    );
    await expect.poll(() => idle.connectionCount(), { timeout: 2000 }).toBe(300);
    await expect.poll(() => idle.connectionCount(), { timeout: 6000 }).toBe(0);
    expect(sockets.every((socket) => socket.destroyed || socket.readyState === "closed")).toBe(true);
    await idle.close({ graceMs: 100 });
  });
});
