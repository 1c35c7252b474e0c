import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAck } from "./hl7-ack.js";
import { sendMllpMessage } from "./mllp-client.js";
import { type MllpListener, type MllpPeer, startMllpListener } from "./mllp-listener.js";

/** A test CA, a server certificate for localhost and 127.0.0.1, and a client certificate, made with the openssl CLI. */
function makeCertificates() {
  const folder = mkdtempSync(path.join(tmpdir(), "vigil-mllp-tls-"));
  const file = (name: string) => path.join(folder, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: folder, stdio: "pipe" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl("req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=Vigil test CA");
  for (const [name, subject, names] of [
    ["server", "/CN=localhost", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
    ["client", "/CN=St Marys interface engine", "extendedKeyUsage=clientAuth"],
  ] as const) {
    openssl("req", ...ec, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", subject);
    writeFileSync(file(`${name}.ext`), `${names}\n`);
    openssl(
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      `${name}.crt`,
      "-days",
      "2",
      "-extfile",
      `${name}.ext`,
    );
  }
  const read = (name: string) => readFileSync(file(name), "utf8");
  return {
    ca: read("ca.crt"),
    server: { cert: read("server.crt"), key: read("server.key") },
    client: { cert: read("client.crt"), key: read("client.key") },
  };
}

const message = (controlId: string) =>
  `MSH|^~\\&|EPIC|ST_MARYS|VIGIL|EEG|20260301||ADT^A08^ADT_A01|${controlId}|P|2.5.1\rPID|1||E1^^^ST_MARYS^MR`;
const base = { host: "127.0.0.1", connectTimeoutMs: 3000, ackTimeoutMs: 3000 };

let certificates: ReturnType<typeof makeCertificates>;
const peers: MllpPeer[] = [];
const listeners: MllpListener[] = [];

async function listen(tls: Parameters<typeof startMllpListener>[0]["tls"]) {
  const listener = await startMllpListener({
    port: 0,
    host: "127.0.0.1",
    tls,
    maxMessageBytes: 1 << 20,
    idleTimeoutMs: 3000,
    handle: async (inbound, _raw, peer) => {
      peers.push(peer);
      return buildAck(inbound, { code: "AA" });
    },
  });
  listeners.push(listener);
  return listener.port;
}

beforeAll(() => {
  certificates = makeCertificates();
});
afterAll(async () => {
  await Promise.all(listeners.map((listener) => listener.close({ graceMs: 200 })));
});

describe("MLLP over TLS", () => {
  it("delivers and acknowledges over TLS when the sender trusts the listener's CA", async () => {
    const port = await listen(certificates.server);
    const sent = await sendMllpMessage({
      ...base,
      port,
      tls: { ca: certificates.ca, servername: "localhost" },
      message: message("T1"),
    });
    expect(sent).toMatchObject({ ok: true, ack: { code: "AA", acknowledgedControlId: "T1" } });
    expect(peers.at(-1)).toMatchObject({ tls: true, address: "127.0.0.1" });
  });

  it("checks the certificate against an IP address too", async () => {
    const port = await listen(certificates.server);
    const sent = await sendMllpMessage({ ...base, port, tls: { ca: certificates.ca }, message: message("T2") });
    expect(sent.ok).toBe(true);
  });

  it("refuses, in words, a certificate not signed by a trusted authority or made for another host", async () => {
    const port = await listen(certificates.server);
    const untrusted = await sendMllpMessage({ ...base, port, tls: {}, message: message("T3") });
    expect(untrusted).toMatchObject({ ok: false, reason: "tls", mayHaveBeenDelivered: false });
    expect(!untrusted.ok && untrusted.message).toMatch(/not signed by a trusted authority|self-signed/);
    const elsewhere = await sendMllpMessage({
      ...base,
      port,
      tls: { ca: certificates.ca, servername: "hl7.example.org" },
      message: message("T4"),
    });
    expect(elsewhere).toMatchObject({ ok: false, reason: "tls" });
    expect(!elsewhere.ok && elsewhere.message).toMatch(/another host name/);
  });

  it("with a client CA, serves senders presenting a certificate it signed and turns away the others", async () => {
    const port = await listen({ ...certificates.server, ca: certificates.ca, requestClientCert: true });
    const without = await sendMllpMessage({ ...base, port, tls: { ca: certificates.ca }, message: message("T5") });
    expect(without.ok).toBe(false);
    const withCertificate = await sendMllpMessage({
      ...base,
      port,
      tls: { ca: certificates.ca, ...certificates.client },
      message: message("T6"),
    });
    expect(withCertificate).toMatchObject({ ok: true, ack: { acknowledgedControlId: "T6" } });
    expect(peers.at(-1)).toMatchObject({ tls: true, clientCertificateVerified: true });
  });

  it("turns away plain MLLP on the TLS port, and TLS on the plain port, at once", async () => {
    const tlsPort = await listen(certificates.server);
    const plainPort = await listen(undefined);
    const plainToTls = await sendMllpMessage({ ...base, port: tlsPort, message: message("T7") });
    expect(plainToTls).toMatchObject({ ok: false, reason: "closed" });
    const started = Date.now();
    const tlsToPlain = await sendMllpMessage({
      ...base,
      port: plainPort,
      tls: { ca: certificates.ca },
      message: message("T8"),
    });
    expect(tlsToPlain).toMatchObject({ ok: false, reason: "tls" });
    expect(!tlsToPlain.ok && tlsToPlain.message).toMatch(/closed during the TLS handshake/);
    expect(Date.now() - started).toBeLessThan(2000);
    // Neither listener was hurt: both still serve.
    const again = await sendMllpMessage({ ...base, port: plainPort, message: message("T9") });
    expect(again.ok).toBe(true);
    const probe = net.connect(tlsPort, "127.0.0.1");
    await new Promise((resolve) => probe.once("connect", resolve));
    probe.destroy();
  });
});
