/**
 * MLLP (HL7's Minimal Lower Layer Protocol, release 1): a message travels as <VT> bytes <FS><CR>. The reader below
 * is a byte state machine, so frames are found wherever TCP splits or joins them: two frames in one read, a frame in
 * a thousand reads, an FS and its CR in different reads. (@medplum/hl7's Hl7Connection looks only at the end of
 * each read and merged or lost frames in those cases; docs/design/HL7.md, "Transport".)
 */
export const VT = 0x0b;
export const FS = 0x1c;
export const CR = 0x0d;

/** What the reader found in the bytes pushed so far. */
export type MllpFrameEvent =
  /** One complete frame's content (between VT and FS). */
  | { kind: "frame"; bytes: Buffer }
  /** A complete frame larger than the limit: only its head was kept (enough to read the MSH segment). */
  | { kind: "oversized"; head: Buffer; size: number }
  /** A frame still running far past the limit: the caller should close the connection. */
  | { kind: "runaway"; size: number };

export type MllpFrameReaderOptions = {
  maxMessageBytes: number;
  /** How much of an oversized frame is kept to answer it (its MSH segment); default 64 KiB. */
  headBytes?: number;
  /** Past this many bytes without an FS the frame is given up (`runaway`); default twice the limit plus 1 MiB. */
  runawayBytes?: number;
};

type State = "outside" | "inside" | "after-fs";

/** Bytes allowed between frames without counting as noise: some senders end a frame with CR LF or a newline. */
function isSpacing(byte: number): boolean {
  return byte === CR || byte === 0x0a || byte === 0x20 || byte === 0x09 || byte === 0x00;
}

export class MllpFrameReader {
  private state: State = "outside";
  private chunks: Buffer[] = [];
  private size = 0;
  private oversized = false;
  private runawayReported = false;
  private readonly headBytes: number;
  private readonly runawayBytes: number;
  /** Bytes outside any frame that were not spacing (a sender's noise, a port scanner, TLS spoken to plain TCP). */
  noiseBytes = 0;

  constructor(private readonly options: MllpFrameReaderOptions) {
    this.headBytes = Math.min(options.headBytes ?? 64 * 1024, options.maxMessageBytes);
    this.runawayBytes = options.runawayBytes ?? options.maxMessageBytes * 2 + 1024 * 1024;
  }

  /** A frame has begun (VT seen) and not yet ended. */
  get inFrame(): boolean {
    return this.state === "inside";
  }

  push(chunk: Buffer): MllpFrameEvent[] {
    const events: MllpFrameEvent[] = [];
    let position = 0;
    while (position < chunk.length) {
      if (this.state === "after-fs") {
        // The CR after FS may arrive in the next read; it belongs to the frame already delivered.
        if (chunk[position] === CR) position++;
        this.state = "outside";
        continue;
      }
      if (this.state === "outside") {
        const start = chunk.indexOf(VT, position);
        const end = start === -1 ? chunk.length : start;
        for (let index = position; index < end; index++) {
          if (!isSpacing(chunk[index] as number)) this.noiseBytes++;
        }
        if (start === -1) return events;
        this.beginFrame();
        position = start + 1;
        continue;
      }
      // Inside a frame: the next FS ends it; a VT before it means the sender gave up that frame and began another.
      const fs = chunk.indexOf(FS, position);
      const vt = chunk.indexOf(VT, position);
      const stop = fs === -1 ? vt : vt === -1 ? fs : Math.min(fs, vt);
      if (stop === -1) {
        this.append(chunk.subarray(position), events);
        return events;
      }
      this.append(chunk.subarray(position, stop), events);
      if (stop === vt) {
        this.noiseBytes += this.size;
        this.beginFrame();
      } else {
        events.push(this.endFrame());
        this.state = "after-fs";
      }
      position = stop + 1;
    }
    return events;
  }

  private beginFrame(): void {
    this.state = "inside";
    this.chunks = [];
    this.size = 0;
    this.oversized = false;
    this.runawayReported = false;
  }

  private append(bytes: Buffer, events: MllpFrameEvent[]): void {
    if (bytes.length === 0) return;
    const kept = this.oversized ? this.chunks.reduce((total, chunk) => total + chunk.length, 0) : this.size;
    this.size += bytes.length;
    if (!this.oversized && this.size <= this.options.maxMessageBytes) {
      // Copied: the socket's buffer may be reused, and a slice would pin the whole read in memory.
      this.chunks.push(Buffer.from(bytes));
      return;
    }
    if (!this.oversized) {
      this.oversized = true;
      // A copy: a view would keep the whole concatenation alive.
      this.chunks = [Buffer.from(Buffer.concat(this.chunks).subarray(0, this.headBytes))];
    }
    const room = this.headBytes - Math.min(kept, this.headBytes);
    if (room > 0) this.chunks.push(Buffer.from(bytes.subarray(0, room)));
    if (this.size > this.runawayBytes && !this.runawayReported) {
      this.runawayReported = true;
      events.push({ kind: "runaway", size: this.size });
    }
  }

  private endFrame(): MllpFrameEvent {
    const bytes = Buffer.concat(this.chunks);
    this.chunks = [];
    if (this.oversized) return { kind: "oversized", head: bytes.subarray(0, this.headBytes), size: this.size };
    return { kind: "frame", bytes };
  }
}

/** Wraps one message's bytes in an MLLP frame. */
export function frameMllp(content: Buffer): Buffer {
  const framed = Buffer.allocUnsafe(content.length + 3);
  framed[0] = VT;
  content.copy(framed, 1);
  framed[content.length + 1] = FS;
  framed[content.length + 2] = CR;
  return framed;
}
