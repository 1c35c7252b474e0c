import { describe, expect, it } from "vitest";
import { CR, FS, frameMllp, MllpFrameReader, VT } from "./mllp-framing.js";

const framed = (text: string) => frameMllp(Buffer.from(text));
const texts = (events: ReturnType<MllpFrameReader["push"]>) =>
  events.map((event) => (event.kind === "frame" ? event.bytes.toString() : event.kind));

describe("MLLP framing", () => {
  it("finds every frame however TCP splits or joins the bytes", () => {
    const stream = Buffer.concat([framed("MSH|one"), framed("MSH|two"), framed("MSH|three")]);
    for (const size of [1, 2, 3, 7, 11, stream.length]) {
      const reader = new MllpFrameReader({ maxMessageBytes: 1024 });
      const found: string[] = [];
      for (let start = 0; start < stream.length; start += size) {
        found.push(...texts(reader.push(stream.subarray(start, start + size))));
      }
      expect(found, `reads of ${size} bytes`).toEqual(["MSH|one", "MSH|two", "MSH|three"]);
    }
  });

  it("ends a frame at FS even without its CR, and swallows a CR that arrives in the next read", () => {
    const reader = new MllpFrameReader({ maxMessageBytes: 1024 });
    expect(texts(reader.push(Buffer.from([VT, 0x41, FS])))).toEqual(["A"]);
    expect(texts(reader.push(Buffer.from([CR, VT, 0x42, FS, VT, 0x43, FS, CR])))).toEqual(["B", "C"]);
    expect(reader.noiseBytes).toBe(0);
  });

  it("counts bytes outside frames as noise, but not the line ends some senders add", () => {
    const reader = new MllpFrameReader({ maxMessageBytes: 1024 });
    reader.push(Buffer.from("\r\n \tGARBAGE!\r\n"));
    expect(reader.noiseBytes).toBe("GARBAGE!".length);
    expect(reader.inFrame).toBe(false);
  });

  it("starts over at a VT inside a frame: the sender gave up the first one", () => {
    const reader = new MllpFrameReader({ maxMessageBytes: 1024 });
    expect(texts(reader.push(Buffer.from("\x0bMSH|half\x0bMSH|whole\x1c\r")))).toEqual(["MSH|whole"]);
  });

  it("keeps only the head of a frame over the limit and reports its size when it ends", () => {
    const reader = new MllpFrameReader({ maxMessageBytes: 100, headBytes: 10 });
    const events = [
      ...reader.push(Buffer.from([VT])),
      ...reader.push(Buffer.alloc(60, 0x41)),
      ...reader.push(Buffer.alloc(60, 0x42)),
      ...reader.push(Buffer.from([FS, CR])),
    ];
    expect(events).toEqual([{ kind: "oversized", head: Buffer.alloc(10, 0x41), size: 120 }]);
    expect(texts(reader.push(framed("MSH|next")))).toEqual(["MSH|next"]);
  });

  it("reports once a frame that runs far past the limit without ending", () => {
    const reader = new MllpFrameReader({ maxMessageBytes: 100, runawayBytes: 1000 });
    const events = [
      reader.push(Buffer.from([VT])),
      ...Array.from({ length: 30 }, () => reader.push(Buffer.alloc(100))),
    ];
    expect(events.flat()).toEqual([{ kind: "runaway", size: 1100 }]);
  });
});
