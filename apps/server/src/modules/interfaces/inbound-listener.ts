import type { Db } from "../../db/client.js";
import { type MllpListener, type MllpListenerOptions, startMllpListener } from "../../hl7/mllp-listener.js";
import { receiveHl7Message, recordRefusedFrame } from "./inbound-service.js";

export type InboundListenerSettings = Pick<
  MllpListenerOptions,
  "port" | "host" | "tls" | "maxMessageBytes" | "idleTimeoutMs" | "log"
>;

/**
 * The hospital-facing MLLP listener of this instance (docs/design/HL7.md, "Inbound"): every instance may run one
 * behind a TCP load balancer, since each message is decided by the message log's unique index, not by which
 * instance took it. Frames the transport refuses before any processing are kept in the log when they name a sender
 * and a control id.
 */
export function startInboundListener(db: Db, settings: InboundListenerSettings): Promise<MllpListener> {
  return startMllpListener({
    ...settings,
    handle: (_message, raw, peer) => receiveHl7Message(db, raw, { address: peer.address }),
    onRefused: (refusal) => recordRefusedFrame(db, refusal),
  });
}
