import net from "node:net";
import { Hl7Message } from "@medplum/core";
import { afterEach, describe, expect, it } from "vitest";
import { buildAck, buildAckText } from "./hl7-ack.js";
import { sendMllpMessage } from "./mllp-client.js";
import { CR, FS, VT } from "./mllp-framing.js";
import { type MllpListener, startMllpListener } from "./mllp-listener.js";

const result = (controlId: string, extra = "") =>
  `MSH|^~\\&|VIGIL|VIGIL_EEG|EPIC|ST_MARYS|20260301083000+0000||ORU^R01^ORU_R01|${controlId}|P|2.5.1${extra}\rPID|1||E1^^^ST_MARYS^MR||M\u00fcller^Ana\rOBX|1|TX|IMP||Normal EEG.||||||F`;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function listener(handle: Parameters<typeof startMllpListener>[0]["handle"]): Promise<MllpListener> {
  const started = await startMllpListener({
    port: 0,
    host: "127.0.0.1",
    maxMessageBytes: 1 << 20,
    idleTimeoutMs: 5000,
    handle,
  });
  cleanups.push(() => started.close({ graceMs: 200 }));
  return started;
}

/** A raw TCP peer that does whatever the test says with each connection (and reads what it is sent). */
async function rawPeer(onSocket: (socket: net.Socket) => void): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    onSocket(socket);
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as net.AddressInfo).port;
}

const base = { host: "127.0.0.1", connectTimeoutMs: 1000, ackTimeoutMs: 1000 };

describe("sending a message over MLLP", () => {
  it("resolves with the peer's ACK read: code, acknowledged control id, text and errors", async () => {
    const received: string[] = [];
    const { port } = await listener(async (message, raw) => {
      received.push(raw);
      return buildAck(message, {
        code: "AE",
        errors: [{ code: 204, location: { segment: "PID", field: 3 }, text: "Unknown patient" }],
      });
    });
    const sent = await sendMllpMessage({ ...base, port, message: Hl7Message.parse(result("R1")) });
    expect(sent).toMatchObject({ ok: true, ack: { code: "AE", acknowledgedControlId: "R1", text: "Unknown patient" } });
    expect(sent.ok && sent.ack.errors[0]).toMatchObject({ code: "204", location: "PID^1^3" });
    expect(received[0]).toContain("M\u00fcller^Ana");
  });

  it("says plainly that nothing listens when the connection is refused", async () => {
    const port = await rawPeer(() => {});
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sent = await sendMllpMessage({ ...base, port, message: result("R2") });
    expect(sent).toMatchObject({ ok: false, reason: "refused", mayHaveBeenDelivered: false });
    expect(!sent.ok && sent.message).toMatch(/refused the connection/);
  });

  it("gives up after the ACK timeout, saying the peer did not answer and that it may have the message", async () => {
    const port = await rawPeer(() => {});
    const sent = await sendMllpMessage({ ...base, port, message: result("R3"), ackTimeoutMs: 300 });
    expect(sent).toMatchObject({
      ok: false,
      reason: "ack-timeout",
      message: "The hospital's system did not answer within 0.3 s.",
      mayHaveBeenDelivered: true,
    });
  });

  it("reports a peer that closes before acknowledging", async () => {
    const port = await rawPeer((socket) => socket.once("data", () => socket.destroy()));
    const sent = await sendMllpMessage({ ...base, port, message: result("R4") });
    expect(sent).toMatchObject({ ok: false, reason: "closed", mayHaveBeenDelivered: true });
  });

  it("refuses an answer that is not an ACK, or an ACK of another message", async () => {
    const garbage = await rawPeer((socket) => socket.once("data", () => socket.write("\x0bhello\x1c\r")));
    const other = await rawPeer((socket) =>
      socket.once("data", () =>
        socket.write(
          Buffer.concat([
            Buffer.from([VT]),
            Buffer.from(buildAckText(Hl7Message.parse(result("ZZ")), { code: "AA" })),
            Buffer.from([FS, CR]),
          ]),
        ),
      ),
    );
    const first = await sendMllpMessage({ ...base, port: garbage, message: result("R5") });
    const second = await sendMllpMessage({ ...base, port: other, message: result("R6") });
    expect(first).toMatchObject({ ok: false, reason: "not-an-ack", raw: "hello" });
    expect(second).toMatchObject({ ok: false, reason: "not-an-ack" });
    expect(!second.ok && second.message).toMatch(/acknowledged another message \(ZZ\)/);
  });

  it("times out a connection that never completes (TLS spoken to a silent port)", async () => {
    const port = await rawPeer(() => {});
    const sent = await sendMllpMessage({ ...base, port, tls: {}, message: result("R7"), connectTimeoutMs: 300 });
    expect(sent).toMatchObject({ ok: false, reason: "connect-timeout", mayHaveBeenDelivered: false });
    expect(!sent.ok && sent.message).toMatch(/did not accept a connection within 0.3 s/);
  });

  it("waits past a commit accept for the application ack when asked to", async () => {
    const port = await rawPeer((socket) =>
      socket.once("data", () => {
        const inbound = Hl7Message.parse(result("R8", "|||AL|AL"));
        const wrap = (text: string) => Buffer.concat([Buffer.from([VT]), Buffer.from(text), Buffer.from([FS, CR])]);
        socket.write(wrap(buildAckText(inbound, { code: "CA" })));
        setTimeout(() => socket.write(wrap(buildAckText(inbound, { code: "AA" }))), 50);
      }),
    );
    const first = await sendMllpMessage({ ...base, port, message: result("R8", "|||AL|AL") });
    const application = await sendMllpMessage({
      ...base,
      port,
      message: result("R8", "|||AL|AL"),
      waitForApplicationAck: true,
    });
    expect(first.ok && first.ack.code).toBe("CA");
    expect(application.ok && application.ack.code).toBe("AA");
  });
});
