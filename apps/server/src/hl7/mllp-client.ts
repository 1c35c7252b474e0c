import net from "node:net";
import tls from "node:tls";
import { Hl7Message } from "@medplum/core";
import { type ReadAck, readAck } from "./hl7-ack.js";
import { charsetNamed, decodeHl7Bytes, encodeHl7Text, headerField, readHeader } from "./hl7-text.js";
import { frameMllp, MllpFrameReader } from "./mllp-framing.js";

export type MllpSendOptions = {
  host: string;
  port: number;
  /** TLS on: `ca` (PEM) to trust instead of the system's roots; `servername` when the certificate names another host. */
  tls?: { ca?: string | Buffer; servername?: string; cert?: string | Buffer; key?: string | Buffer };
  message: Hl7Message | string;
  connectTimeoutMs: number;
  ackTimeoutMs: number;
  /** Enhanced mode: a commit accept (CA) is not the end; wait for the application ack on the same connection. */
  waitForApplicationAck?: boolean;
  /** An answer larger than this is not an ACK; default 1 MiB. */
  maxAckBytes?: number;
};

export type MllpSendFailureReason =
  | "refused"
  | "unreachable"
  | "connect-timeout"
  | "tls"
  | "ack-timeout"
  | "closed"
  | "not-an-ack";

export type MllpSendResult =
  | { ok: true; ack: ReadAck; ackMessage: Hl7Message; raw: string; elapsedMs: number }
  | {
      ok: false;
      reason: MllpSendFailureReason;
      /** Plain words, shown as they are to the people who send the message. */
      message: string;
      /** The transport's own words (an error code, a certificate problem), for the log. */
      detail?: string;
      /** Bytes of the message left this machine: the peer may have it (send again with the same MSH-10). */
      mayHaveBeenDelivered: boolean;
      /** What came back, when something did that was not an acknowledgement. */
      raw?: string;
      elapsedMs: number;
    };

type Failure = Extract<MllpSendResult, { ok: false }>;

/**
 * Sends one message over MLLP (plain TCP or TLS) and waits for its acknowledgement. Never rejects: every way it can
 * go wrong is a `reason` with a sentence for the screen.
 */
export function sendMllpMessage(options: MllpSendOptions): Promise<MllpSendResult> {
  const started = Date.now();
  const text = typeof options.message === "string" ? options.message : options.message.toString();
  const header = readHeader(text);
  const controlId = header ? headerField(header, 10) : "";
  // Written in the charset its own MSH-18 declares (UTF-8 when none).
  const charset = charsetNamed(header ? (headerField(header, 18).split(header.delimiters.repetition)[0] ?? "") : "");
  const bytes = encodeHl7Text(text, charset ?? "utf-8");
  const where = `The hospital's system at ${options.host}:${options.port}`;
  const reader = new MllpFrameReader({ maxMessageBytes: options.maxAckBytes ?? 1024 * 1024 });

  return new Promise((resolve) => {
    let sent = false;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const socket = options.tls
      ? tls.connect({
          host: options.host,
          port: options.port,
          ca: options.tls.ca,
          cert: options.tls.cert,
          key: options.tls.key,
          servername: options.tls.servername ?? (net.isIP(options.host) ? undefined : options.host),
        })
      : net.connect({ host: options.host, port: options.port });

    const settle = (result: MllpSendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
      resolve(result);
    };
    const fail = (reason: MllpSendFailureReason, message: string, extra: Partial<Failure> = {}) =>
      settle({ ok: false, reason, message, mayHaveBeenDelivered: sent, elapsedMs: Date.now() - started, ...extra });

    timer = setTimeout(
      () =>
        fail("connect-timeout", `${where} did not accept a connection within ${seconds(options.connectTimeoutMs)}.`),
      options.connectTimeoutMs,
    );
    socket.once(options.tls ? "secureConnect" : "connect", () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => fail("ack-timeout", `The hospital's system did not answer within ${seconds(options.ackTimeoutMs)}.`),
        options.ackTimeoutMs,
      );
      sent = true;
      socket.write(frameMllp(bytes));
    });
    socket.on("data", (chunk: Buffer) => {
      for (const event of reader.push(chunk)) {
        if (event.kind !== "frame") {
          fail("not-an-ack", `${where} answered with more than an acknowledgement can hold.`);
          return;
        }
        const decoded = decodeHl7Bytes(event.bytes);
        const raw = decoded.ok ? decoded.text : decoded.lenient;
        let ackMessage: Hl7Message | undefined;
        try {
          ackMessage = Hl7Message.parse(raw.replace(/^[\s\0]+/, "").replace(/[\r\n]+$/, ""));
        } catch {
          ackMessage = undefined;
        }
        const ack = ackMessage ? readAck(ackMessage) : undefined;
        if (!ackMessage || !ack) {
          fail("not-an-ack", `${where} answered with something that is not an HL7 acknowledgement.`, { raw });
          return;
        }
        if (controlId && ack.acknowledgedControlId !== controlId) {
          fail(
            "not-an-ack",
            `${where} acknowledged another message (${ack.acknowledgedControlId || "no control id"}).`,
            {
              raw,
            },
          );
          return;
        }
        if (ack.code === "CA" && options.waitForApplicationAck) continue;
        settle({ ok: true, ack, ackMessage, raw, elapsedMs: Date.now() - started });
        return;
      }
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      const code = error.code ?? "";
      if (code === "ECONNREFUSED") {
        fail("refused", `${where} refused the connection: nothing listens on that port, or a firewall turns it away.`, {
          detail: code,
        });
      } else if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
        fail("unreachable", `The host name ${options.host} could not be found.`, { detail: code });
      } else if (code === "EHOSTUNREACH" || code === "ENETUNREACH" || code === "EADDRNOTAVAIL") {
        fail("unreachable", `${where} cannot be reached from here (no route to it).`, { detail: code });
      } else if (options.tls && !sent) {
        fail("tls", `The secure connection to ${options.host}:${options.port} failed: ${tlsWords(error)}.`, {
          detail: `${code} ${error.message}`.trim(),
        });
      } else {
        fail("closed", `${where} closed the connection before acknowledging the message.`, {
          detail: `${code} ${error.message}`.trim(),
        });
      }
    });
    socket.on("close", () => {
      if (!sent && options.tls) fail("tls", `The secure connection to ${options.host}:${options.port} failed.`);
      fail("closed", `${where} closed the connection before acknowledging the message.`);
    });
  });
}

function seconds(ms: number): string {
  const value = ms / 1000;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}

/** A TLS failure in words an administrator can act on. */
function tlsWords(error: NodeJS.ErrnoException): string {
  const code = error.code ?? "";
  if (code === "DEPTH_ZERO_SELF_SIGNED_CERT" || code === "SELF_SIGNED_CERT_IN_CHAIN") {
    return "its certificate is self-signed and not trusted here (add its CA to the destination)";
  }
  if (code === "UNABLE_TO_VERIFY_LEAF_SIGNATURE" || code === "UNABLE_TO_GET_ISSUER_CERT_LOCALLY") {
    return "its certificate is not signed by a trusted authority (add its CA to the destination)";
  }
  if (code === "CERT_HAS_EXPIRED") return "its certificate has expired";
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID") return "its certificate is for another host name";
  if (/wrong version number|packet length too long|unknown protocol/i.test(error.message)) {
    return "it does not speak TLS on that port";
  }
  if (code === "ECONNRESET" || /disconnected before secure TLS connection/i.test(error.message)) {
    return "the connection closed during the TLS handshake (is TLS on at that port, and does it want a client certificate?)";
  }
  return error.message;
}
