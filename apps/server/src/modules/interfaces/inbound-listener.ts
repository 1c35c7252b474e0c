import { readFileSync } from "node:fs";
import type { Db } from "../../db/client.js";
import { type MllpListener, type MllpListenerOptions, startMllpListener } from "../../hl7/mllp-listener.js";
import { receiveHl7Message, recordRefusedFrame } from "./inbound-service.js";

export type InboundListenerSettings = Pick<
  MllpListenerOptions,
  "port" | "host" | "tls" | "maxMessageBytes" | "idleTimeoutMs" | "log"
>;

/** The listener as the configuration names it (HL7_MLLP_*): TLS as paths of PEM files. */
export type ConfiguredListener = {
  port: number;
  host: string;
  tls: { certFile: string; keyFile: string; caFile: string | undefined } | undefined;
  maxMessageBytes: number;
  idleTimeoutMs: number;
};

/**
 * The hospital-facing MLLP listener of this instance (docs/design/HL7.md, "Inbound"): every instance may run one
 * behind a TCP load balancer, since each message is decided by the message log's unique index, not by which
 * instance took it. Frames the transport refuses before any processing are kept in the log when they name a sender
 * and a control id.
 */
export function startInboundListener(db: Db, settings: InboundListenerSettings): Promise<MllpListener> {
  return startMllpListener({
    handle: (_message, raw, peer) => receiveHl7Message(db, raw, { address: peer.address }),
    onRefused: (refusal) => recordRefusedFrame(db, refusal),
    ...settings,
  });
}

/** `server.ts`: the configured listener, its PEM files read once at start (a missing file stops the start). */
export function startConfiguredInboundListener(
  db: Db,
  listener: ConfiguredListener,
  log: InboundListenerSettings["log"],
): Promise<MllpListener> {
  const { tls, ...rest } = listener;
  return startInboundListener(db, {
    log,
    ...rest,
    ...(tls
      ? {
          tls: {
            cert: readFileSync(tls.certFile),
            key: readFileSync(tls.keyFile),
            ...(tls.caFile ? { ca: readFileSync(tls.caFile), requestClientCert: true } : {}),
          },
        }
      : {}),
  });
}
