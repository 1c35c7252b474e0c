import { mkdtempSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Hl7Message } from "@medplum/core";
import type { Client, InterfaceTestResult } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hl7Messages } from "../../db/schema.js";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { auditRows, sampleClient } from "../../testing/kits/clients-kit.js";
import { type Hl7Peer, startHl7Peer } from "../../testing/kits/hl7-peer-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { buildTestMessage, summarizeTestResult } from "./profile-test-message.js";

let harness: TestApp;
let admin: Caller;
let coordinator: Caller;
const peers: Hl7Peer[] = [];

beforeAll(async () => {
  harness = await createTestApp();
  admin = await callerFor(harness, "test-message-admin", ["admin"]);
  coordinator = await callerFor(harness, "test-message-coordinator", ["coordinator"]);
});
afterEach(async () => {
  for (const peer of peers.splice(0)) await peer.stop();
});
afterAll(() => harness.close());

let counter = 0;
async function clientWithProfile(destination: { host: string; port: number } | null): Promise<Client> {
  counter += 1;
  const client = (await admin("POST", "/clients", { body: sampleClient() })).json().data as Client;
  const response = await admin("POST", `/clients/${client.id}/interface-profile/revisions`, {
    body: {
      baseRevision: null,
      sendingApplication: "EPIC",
      sendingFacility: `PING${counter}`,
      mrnAssigningAuthority: `PING${counter}-MRN`,
      receivingApplication: "EPICCARE",
      receivingFacility: `PING${counter}`,
      destination: destination ? { ...destination, tls: false } : null,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return client;
}

async function sendTest(clientId: string) {
  return admin("POST", `/clients/${clientId}/interface-profile/test-message`);
}

async function loggedRow(messageId: string) {
  const [row] = await harness.database.db.select().from(hl7Messages).where(eq(hl7Messages.id, messageId));
  return row;
}

/** A port nothing listens on: a listener's, closed again. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the test message", () => {
  it("is an NMQ^N01 with a clock segment, no patient and no order, addressed to the profile's receiver", () => {
    const text = buildTestMessage(
      { receivingApplication: "EPICCARE", receivingFacility: "UCHMC", hl7Version: "2.5.1" },
      "VIGIL",
      "VTEST1",
      new Date("2026-03-01T08:30:00Z"),
    );
    const message = Hl7Message.parse(text);
    expect(message.getSegment("MSH")?.toString()).toBe(
      "MSH|^~\\&|VIGIL|VIGIL|EPICCARE|UCHMC|20260301083000+0000||NMQ^N01^NMQ_N01|VTEST1|P|2.5.1",
    );
    expect(message.segments.map((segment) => segment.name)).toEqual(["MSH", "NCK"]);
  });
});

describe("sending a test message to a python3-hl7 peer", () => {
  it("reports acceptance (AA) in plain words with the ACK, logs the outbound row and audits it", async () => {
    const record = path.join(mkdtempSync(path.join(tmpdir(), "hl7-peer-")), "received.txt");
    const peer = await startHl7Peer({ code: "AA", record });
    peers.push(peer);
    const client = await clientWithProfile({ host: "127.0.0.1", port: peer.port });
    const response = await sendTest(client.id);
    expect(response.statusCode, response.body).toBe(200);
    const result: InterfaceTestResult = response.json().data;
    expect(result).toMatchObject({ ok: true, ackCode: "AA" });
    expect(result.summary).toMatch(/^The hospital's system accepted the test message \(AA\) in \d+ ms\.$/);
    expect(result.ack).toMatch(/^MSH\|.*\nMSA\|AA\|V/);
    // The peer read what was sent: python3-hl7 parsed it and answered its control id.
    const received = peer.received();
    expect(received).toHaveLength(1);
    const controlId = Hl7Message.parse(received[0] as string)
      .getSegment("MSH")
      ?.getField(10)
      ?.toString();
    expect(result.ack).toContain(`MSA|AA|${controlId}`);
    const row = await loggedRow(result.messageId as string);
    expect(row).toMatchObject({
      direction: "outbound",
      clientId: client.id,
      messageType: "NMQ^N01",
      controlId,
      sendingApplication: "VIGIL",
      status: "acknowledged",
      ackCode: "AA",
      error: null,
      attempts: 1,
    });
    const [audit] = await auditRows(harness, "interface-profile.test-message", client.id);
    expect(audit).toMatchObject({
      actorUsername: "test-message-admin",
      details: { revision: 1, destination: `127.0.0.1:${peer.port}`, ok: true, ackCode: "AA", controlId },
    });
  });

  it("says the hospital's system refused it (AE) with its ERR text, logged as failed", async () => {
    const peer = await startHl7Peer({ code: "AE", errorText: "Unknown sending facility VIGIL" });
    peers.push(peer);
    const client = await clientWithProfile({ host: "127.0.0.1", port: peer.port });
    const result: InterfaceTestResult = (await sendTest(client.id)).json().data;
    expect(result).toMatchObject({
      ok: false,
      ackCode: "AE",
      summary: "The hospital's system refused it (AE): Unknown sending facility VIGIL",
    });
    expect(result.ack).toContain("ERR|||207^Application internal error^HL70357|E||||Unknown sending facility VIGIL");
    expect(await loggedRow(result.messageId as string)).toMatchObject({
      status: "failed",
      ackCode: "AE",
      error: result.summary,
    });
  });

  it("says nothing is listening when the port refuses the connection", async () => {
    const port = await closedPort();
    const client = await clientWithProfile({ host: "127.0.0.1", port });
    const result: InterfaceTestResult = (await sendTest(client.id)).json().data;
    expect(result).toMatchObject({
      ok: false,
      ackCode: null,
      ack: null,
      summary: `Nothing is listening at 127.0.0.1:${port}: the connection was refused.`,
    });
    expect(await loggedRow(result.messageId as string)).toMatchObject({ status: "failed", ackCode: null });
    const [audit] = await auditRows(harness, "interface-profile.test-message", client.id);
    expect(audit?.details).toMatchObject({ ok: false, failure: "refused" });
  });

  it("answers 409 when the profile has no destination, and when there is no profile", async () => {
    const client = await clientWithProfile(null);
    const response = await sendTest(client.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/^This profile has no destination/);
    const bare = (await admin("POST", "/clients", { body: sampleClient() })).json().data as Client;
    expect((await sendTest(bare.id)).statusCode).toBe(409);
  });

  it("is refused to a coordinator (403)", async () => {
    const client = await clientWithProfile(null);
    expect((await coordinator("POST", `/clients/${client.id}/interface-profile/test-message`)).statusCode).toBe(403);
  });
});

describe("the plain-words summary", () => {
  it("says no answer came within the ACK timeout", () => {
    const summary = summarizeTestResult(
      {
        ok: false,
        reason: "ack-timeout",
        message: "The hospital's system did not answer within 10 s.",
        mayHaveBeenDelivered: true,
        elapsedMs: 10_004,
      },
      { host: "10.0.0.5", port: 2575 },
      10_000,
    );
    expect(summary).toBe("No answer within 10 s: 10.0.0.5:2575 took the connection but sent no acknowledgement.");
  });
});
