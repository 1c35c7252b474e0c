import net from "node:net";
import tls from "node:tls";
import { Hl7Message } from "@medplum/core";
import { buildAckText, type Hl7Error, immediateAckCode, readAckMode } from "./hl7-ack.js";
import { decodeHl7Bytes, encodeHl7Text, type Hl7Charset, type Hl7Header, readHeader } from "./hl7-text.js";
import { frameMllp, type MllpFrameEvent, MllpFrameReader } from "./mllp-framing.js";

/** Who sent a message: the TCP peer, and over TLS whether its client certificate was verified. */
export type MllpPeer = { address: string; port?: number; tls: boolean; clientCertificateVerified?: boolean };

/**
 * Answers one complete, decoded, parseable message with the ACK to write back. `null` writes nothing (enhanced
 * mode with MSH-15 = NE or ER on success). A throw is answered AE (CE in enhanced mode) with ERR 207.
 */
export type MllpHandler = (message: Hl7Message, raw: string, peer: MllpPeer) => Promise<Hl7Message | string | null>;

/** Why the listener itself refused a frame, before any handler saw it. */
export type MllpRefusalReason =
  | "not-hl7"
  | "bad-delimiters"
  | "unsupported-charset"
  | "invalid-bytes"
  | "oversized"
  | "bad-structure"
  | "missing-field";

export type MllpRefusal = {
  peer: MllpPeer;
  reason: MllpRefusalReason;
  /** Plain words, also the ACK's MSA-3 when one was sent. */
  text: string;
  /** What arrived, as text (byte for byte ISO 8859-1 when it could not be decoded; only the head when oversized). */
  raw: string;
  /** The ACK written back; undefined when the connection was closed instead (no MSH to answer). */
  ack?: string;
  header?: Hl7Header;
};

type MllpLog = {
  debug: (object: object, message: string) => void;
  warn: (object: object, message: string) => void;
  error: (object: object, message: string) => void;
};

export type MllpListenerOptions = {
  port: number;
  host: string;
  /** PEM contents (see `readMllpTlsFiles`); with `requestClientCert` a client must present a certificate `ca` signs. */
  tls?: { cert: string | Buffer; key: string | Buffer; ca?: string | Buffer; requestClientCert?: boolean };
  maxMessageBytes: number;
  /** A connection with nothing arriving for this long (and no handler running) is closed. */
  idleTimeoutMs: number;
  /** The longest one frame may take to arrive, against a sender dripping bytes; default 4 × idle, at least 2 min. */
  frameTimeoutMs?: number;
  /** Connections beyond this are closed on arrival; default 200. */
  maxConnections?: number;
  handle: MllpHandler;
  /** Told of every refused frame before its answer is written (to keep it in the message log). */
  onRefused?: (refusal: MllpRefusal) => void | Promise<void>;
  log?: MllpLog;
};

export type MllpListener = {
  port: number;
  /** Open connections (tests check that none leak). */
  connectionCount: () => number;
  /**
   * Stops accepting, lets each connection finish the message its handler is working on and write its ACK, then
   * closes them; after `graceMs` (default 5 s) whatever remains is cut.
   */
  close: (options?: { graceMs?: number }) => Promise<void>;
};

/** Bytes outside any frame tolerated on one connection before it is closed (a port scanner, TLS spoken to TCP). */
const noiseLimit = 64 * 1024;

const silentLog: MllpLog = { debug: () => {}, warn: () => {}, error: () => {} };

export async function startMllpListener(options: MllpListenerOptions): Promise<MllpListener> {
  const log = options.log ?? silentLog;
  const connections = new Set<MllpConnection>();
  const onSocket = (socket: net.Socket) => {
    const connection = new MllpConnection(socket, options, log);
    connections.add(connection);
    socket.once("close", () => connections.delete(connection));
  };
  const server: net.Server = options.tls
    ? tls.createServer(
        {
          cert: options.tls.cert,
          key: options.tls.key,
          ca: options.tls.ca,
          requestCert: options.tls.requestClientCert === true,
          rejectUnauthorized: options.tls.requestClientCert === true,
          handshakeTimeout: Math.min(options.idleTimeoutMs, 30_000),
          allowHalfOpen: true,
        },
        onSocket,
      )
    : net.createServer({ allowHalfOpen: true }, onSocket);
  server.maxConnections = options.maxConnections ?? 200;
  // Every TCP connection, including those still in a TLS handshake (not yet an MllpConnection), so close() can end
  // them too: a handshake a peer abandoned would otherwise hold server.close() until the handshake timeout.
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("tlsClientError", (error: Error, socket: net.Socket) => {
    log.debug({ peer: socket.remoteAddress, err: error.message }, "MLLP TLS handshake failed");
    // With a listener here Node leaves the socket open; one the peer abandoned would hold close() forever.
    socket.destroy();
  });
  server.on("error", (error) => log.error({ err: error }, "MLLP listener error"));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port, host: options.host }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;

  let closing: Promise<void> | undefined;
  return {
    port,
    connectionCount: () => connections.size,
    close: ({ graceMs = 5000 } = {}) => {
      closing ??= (async () => {
        const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
        await Promise.all([...connections].map((connection) => connection.stop(graceMs)));
        for (const socket of sockets) socket.destroy();
        await serverClosed;
      })();
      return closing;
    },
  };
}

type Answer = { kind: "write"; bytes: Buffer } | { kind: "close" } | { kind: "none" };
type CompleteFrame = Exclude<MllpFrameEvent, { kind: "runaway" }>;

/** One socket: frames in, one message handled at a time (MLLP is a request/answer protocol), ACKs out in order. */
class MllpConnection {
  private readonly reader: MllpFrameReader;
  private readonly queue: CompleteFrame[] = [];
  private readonly peer: MllpPeer;
  private busy = false;
  private peerEnded = false;
  private stopping = false;
  private firstRead = true;
  private idleTimer: NodeJS.Timeout | undefined;
  private frameTimer: NodeJS.Timeout | undefined;
  private readonly closed: Promise<void>;

  constructor(
    private readonly socket: net.Socket,
    private readonly options: MllpListenerOptions,
    private readonly log: MllpLog,
  ) {
    this.reader = new MllpFrameReader({ maxMessageBytes: options.maxMessageBytes });
    const tlsSocket = socket instanceof tls.TLSSocket ? socket : undefined;
    this.peer = {
      address: socket.remoteAddress ?? "",
      port: socket.remotePort,
      tls: tlsSocket !== undefined,
      ...(tlsSocket && options.tls?.requestClientCert ? { clientCertificateVerified: tlsSocket.authorized } : {}),
    };
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("end", () => {
      this.peerEnded = true;
      if (!this.busy) this.finish();
    });
    socket.on("error", (error) => this.log.debug({ peer: this.peer.address, err: error.message }, "MLLP socket error"));
    socket.once("close", () => {
      clearTimeout(this.idleTimer);
      clearTimeout(this.frameTimer);
    });
    this.armIdle();
  }

  /** Ends the connection once the message in hand is answered; cut after `graceMs` in any case. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.queue.length = 0;
    if (!this.busy) this.finish();
    const cut = setTimeout(() => this.socket.destroy(), graceMs);
    await this.closed;
    clearTimeout(cut);
  }

  private onData(chunk: Buffer): void {
    if (this.stopping) return;
    this.armIdle();
    if (!this.peer.tls && this.firstRead && chunk[0] === 0x16 && chunk[1] === 0x03) {
      // A TLS ClientHello on the plain port: closing at once tells the sender's TLS stack, which would otherwise
      // wait for a ServerHello until the idle timeout.
      this.log.debug({ peer: this.peer.address }, "MLLP connection closed: TLS spoken to the plain port");
      this.socket.destroy();
      return;
    }
    this.firstRead = false;
    const events = this.reader.push(chunk);
    if (this.reader.noiseBytes > noiseLimit) {
      this.log.debug({ peer: this.peer.address }, "MLLP connection closed: bytes outside any frame");
      this.socket.destroy();
      return;
    }
    this.watchFrame();
    for (const event of events) {
      if (event.kind === "runaway") {
        this.log.warn({ peer: this.peer.address, bytes: event.size }, "MLLP connection closed: a frame never ended");
        this.socket.destroy();
        return;
      }
      this.queue.push(event);
    }
    if (this.queue.length > 0 && !this.busy) {
      this.socket.pause();
      void this.drain();
    }
  }

  private async drain(): Promise<void> {
    this.busy = true;
    while (this.queue.length > 0 && !this.socket.destroyed && !this.stopping) {
      const event = this.queue.shift() as CompleteFrame;
      const answer = await this.answer(event);
      if (answer.kind === "close") {
        this.socket.destroy();
        break;
      }
      if (answer.kind === "write") await this.write(answer.bytes);
    }
    this.busy = false;
    if (this.socket.destroyed) return;
    if (this.stopping || this.peerEnded) {
      this.finish();
      return;
    }
    this.armIdle();
    this.socket.resume();
  }

  private finish(): void {
    if (this.socket.destroyed) return;
    this.socket.end();
    // A peer that never closes its side must not keep the socket: give it a second to read the last ACK.
    setTimeout(() => this.socket.destroy(), 1000).unref();
  }

  private write(bytes: Buffer): Promise<void> {
    return new Promise((resolve) => {
      // The idle timer runs meanwhile: a peer that stops reading its ACKs is closed like a silent one.
      this.armIdle();
      const done = () => resolve();
      this.socket.once("close", done);
      this.socket.write(frameMllp(bytes), () => {
        this.socket.off("close", done);
        resolve();
      });
    });
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.busy && this.socket.writableLength === 0) return; // a handler at work; its answer re-arms this
      this.log.debug({ peer: this.peer.address }, "MLLP connection closed: idle");
      this.socket.destroy();
    }, this.options.idleTimeoutMs);
  }

  private watchFrame(): void {
    if (!this.reader.inFrame) {
      clearTimeout(this.frameTimer);
      this.frameTimer = undefined;
      return;
    }
    if (this.frameTimer) return;
    const limit = this.options.frameTimeoutMs ?? Math.max(this.options.idleTimeoutMs * 4, 120_000);
    this.frameTimer = setTimeout(() => {
      this.log.debug({ peer: this.peer.address }, "MLLP connection closed: a frame took too long to arrive");
      this.socket.destroy();
    }, limit);
  }

  private async answer(event: CompleteFrame): Promise<Answer> {
    if (event.kind === "oversized") {
      const raw = event.head.toString("latin1");
      const limit = this.options.maxMessageBytes;
      return this.refuse("oversized", raw, readHeader(raw.trimStart()), "latin1", {
        code: 207,
        text: `The message is ${event.size} bytes; this interface accepts at most ${limit} bytes.`,
      });
    }
    const decoded = decodeHl7Bytes(event.bytes);
    if (!decoded.ok) {
      const header = readHeader(decoded.lenient.trimStart());
      const error: Hl7Error =
        decoded.reason === "unsupported-charset"
          ? { code: 103, location: { segment: "MSH", field: 18 }, text: decoded.message }
          : { code: 102, location: locateOffset(decoded.lenient, decoded.offset ?? 0), text: decoded.message };
      // Read byte for byte, so the fields the ACK copies go back as the very bytes that came.
      return this.refuse(decoded.reason, decoded.lenient, header, "latin1", error);
    }
    const raw = decoded.text;
    // Leading white space and trailing segment ends are framing habits of some senders, not content.
    const text = raw.replace(/^[\s\0]+/, "").replace(/[\r\n]+$/, "");
    const header = readHeader(text);
    if (!header) {
      if (!text.startsWith("MSH")) return this.refuse("not-hl7", raw, undefined, decoded.charset);
      return this.refuse("bad-delimiters", raw, undefined, decoded.charset, {
        code: 102,
        location: { segment: "MSH", field: 2 },
        text: "MSH-1 and MSH-2 must be five different characters that are not letters, digits or spaces, such as |^~\\&.",
      });
    }
    let message: Hl7Message;
    try {
      message = Hl7Message.parse(text);
    } catch {
      return this.refuse("bad-structure", raw, header, decoded.charset, {
        code: 102,
        text: "The message could not be parsed.",
      });
    }
    const problem = checkStructure(message);
    if (problem) return this.refuse(problem.reason, raw, header, decoded.charset, problem.error);
    return this.handle(message, raw, header, decoded.charset);
  }

  private async handle(message: Hl7Message, raw: string, header: Hl7Header, charset: Hl7Charset): Promise<Answer> {
    clearTimeout(this.idleTimer);
    let ack: Hl7Message | string | null;
    try {
      ack = await this.options.handle(message, raw, this.peer);
    } catch (error) {
      this.log.error({ err: error, peer: this.peer.address }, "MLLP handler failed; answered with ERR 207");
      ack = buildAckText(header, {
        code: immediateAckCode(readAckMode(header), "error"),
        errors: [{ code: 207, text: "The message could not be processed here; send it again later." }],
      });
    }
    if (ack === null) return { kind: "none" };
    return { kind: "write", bytes: encodeHl7Text(typeof ack === "string" ? ack : ack.toString(), charset) };
  }

  private async refuse(
    reason: MllpRefusalReason,
    raw: string,
    header: Hl7Header | undefined,
    charset: Hl7Charset,
    error?: Hl7Error,
  ): Promise<Answer> {
    // Without an MSH (or with delimiters nothing can be read by) there is no message to acknowledge: unless the
    // frame began with "MSH", it is not HL7 at all, and the connection is closed.
    const answerable = error !== undefined && (header !== undefined || reason === "bad-delimiters");
    const text = error?.text ?? "The frame does not hold an HL7 v2 message (it must begin with MSH).";
    const ack = answerable
      ? buildAckText(header, {
          code: immediateAckCode(header ? readAckMode(header) : { kind: "original" }, "reject"),
          errors: [error],
        })
      : undefined;
    this.log.warn({ peer: this.peer.address, reason, answered: ack !== undefined }, "MLLP frame refused");
    try {
      await this.options.onRefused?.({ peer: this.peer, reason, text, raw, ack, header });
    } catch (failure) {
      this.log.error({ err: failure }, "MLLP onRefused failed");
    }
    return ack === undefined ? { kind: "close" } : { kind: "write", bytes: encodeHl7Text(ack, charset) };
  }
}

const segmentName = /^[A-Z][A-Z0-9]{2}$/;

/** What the transport checks before a handler sees a message: segment names, one MSH, MSH-9 and MSH-10. */
function checkStructure(message: Hl7Message): { reason: MllpRefusalReason; error: Hl7Error } | undefined {
  for (const [index, segment] of message.segments.entries()) {
    if (!segmentName.test(segment.name)) {
      return {
        reason: "bad-structure",
        error: {
          code: 100,
          text: `Segment ${index + 1} does not begin with a segment name (three capitals or digits).`,
        },
      };
    }
    if (index > 0 && segment.name === "MSH") {
      return {
        reason: "bad-structure",
        error: {
          code: 100,
          location: { segment: "MSH", sequence: 2 },
          text: "One frame holds more than one message (a second MSH); send each message in its own MLLP frame.",
        },
      };
    }
  }
  const header = message.getSegment("MSH");
  for (const field of [9, 10]) {
    if (!header?.getComponent(field, 1).trim()) {
      return {
        reason: "missing-field",
        error: { code: 101, location: { segment: "MSH", field }, text: `MSH-${field} is required.` },
      };
    }
  }
  return undefined;
}

/** The segment and field an offset of the text falls in, for ERR-2. */
function locateOffset(text: string, offset: number): Hl7Error["location"] {
  const before = text.slice(0, offset).replace(/^[\s\0]+/, "");
  const lines = before.split(/[\r\n]+/);
  const line = lines[lines.length - 1] ?? "";
  const name = line.slice(0, 3);
  if (!segmentName.test(name)) return undefined;
  const separator = text.replace(/^[\s\0]+/, "").charAt(3) || "|";
  const sameName = lines.filter((candidate) => candidate.startsWith(name)).length;
  const fields = line.split(separator).length - 1;
  return { segment: name, sequence: sameName, field: name === "MSH" ? fields + 1 : fields };
}
