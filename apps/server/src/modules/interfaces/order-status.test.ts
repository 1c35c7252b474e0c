import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client, InterpretationItem } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { caseOrders, cases, hl7Messages, jobs } from "../../db/schema.js";
import { type JobRunner, startJobRunner } from "../../jobs/job-runner.js";
import { createClient, openCase, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { type ResultPeer, startResultPeer } from "../../testing/kits/hl7-result-peer-kit.js";
import { collectionOf, itemPath, sampleInterpretation } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { resultJob } from "./result-job.js";

/**
 * The order's status back to the hospital (docs/design/HL7.md, "Order status"): ORM^O01 with ORC-1 SC, ORC-5 IP when
 * monitoring starts, CM when the report is signed, CA when Vigil archives the case — only for profiles that ask.
 * Debian's python3-hl7 plays the hospital and reads each message with `hl7.parse`.
 */

let harness: TestApp;
let team: Team;
const peers: ResultPeer[] = [];
const runners: JobRunner[] = [];
const folder = mkdtempSync(path.join(tmpdir(), "vigil-hl7-status-"));
let counter = 0;

beforeAll(async () => {
  harness = await createTestApp({ HL7_SENDING_FACILITY: "NORTHWIND" });
  team = await teamFor(harness, "hl7-status");
}, 180_000);
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
  for (const peer of peers.splice(0)) await peer.stop();
});
afterAll(() => harness.close());

async function peer(options: { code?: "AA" | "AE"; errorText?: string } = {}) {
  counter += 1;
  const started = await startResultPeer({ record: path.join(folder, `received-${counter}.jsonl`), ...options });
  peers.push(started);
  return started;
}

function runOutbound(limit = 3) {
  const runner = startJobRunner(
    harness.database,
    [
      resultJob(
        { sendingFacility: "NORTHWIND", connectTimeoutMs: 2_000, ackTimeoutMs: 5_000 },
        { limit, backoff: { baseMs: 200, maxMs: 400 } },
      ),
    ],
    harness.app.log,
    { pollMs: 100 },
  );
  runners.push(runner);
}

async function clientSendingTo(port: number, orderStatusUpdates: boolean): Promise<Client> {
  counter += 1;
  const client = await createClient(team.coordinator);
  const response = await team.admin("POST", `/clients/${client.id}/interface-profile/revisions`, {
    body: {
      baseRevision: null,
      sendingApplication: "EPIC",
      sendingFacility: `STATUS${counter}`,
      mrnAssigningAuthority: `STATUS${counter}-MRN`,
      receivingApplication: "EPICCARE",
      receivingFacility: `STATUS${counter}`,
      destination: { host: "127.0.0.1", port, tls: false },
      resultStyle: "ORU^R01",
      orderStatusUpdates,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return client;
}

/** A case in intake made from the hospital's order (its case_orders row), a technologist assigned. */
async function orderedCase(clientId: string, placer: string) {
  const opened = await openCase(team.coordinator, clientId);
  await harness.database.db.insert(caseOrders).values({
    caseId: opened.id,
    clientId,
    source: "hl7",
    placerOrderNumber: placer,
    fillerOrderNumber: opened.caseNumber,
    visitNumber: `V-${placer}`,
  });
  const assigned = await team.coordinator("POST", `/cases/${opened.id}/actions`, {
    body: { action: "assign-technologist", technologistId: team.technologist.sub },
  });
  expect(assigned.statusCode, assigned.body).toBe(200);
  return opened;
}

async function startMonitoring(caseId: string) {
  const started = await team.coordinator("POST", `/cases/${caseId}/transitions`, { body: { to: "monitoring" } });
  expect(started.statusCode, started.body).toBe(201);
}

/** Monitoring ended (set as `end-monitoring` leaves it), then the reviewer signs an interpretation. */
async function endAndSign(caseId: string) {
  await harness.database.db
    .update(cases)
    .set({ stage: "preview", recordingEndedAt: new Date() })
    .where(eq(cases.id, caseId));
  const created = await team.reviewer("POST", collectionOf("interpretation", caseId), { body: sampleInterpretation() });
  expect(created.statusCode, created.body).toBe(201);
  const item = created.json().data as InterpretationItem;
  const signed = await team.reviewer("POST", itemPath("interpretation", caseId, item.id), {
    body: { change: "sign", baseRevision: item.revision },
  });
  expect(signed.statusCode, signed.body).toBe(201);
}

async function statusRows(caseId: string) {
  return harness.database.db
    .select()
    .from(hl7Messages)
    .where(
      and(
        eq(hl7Messages.caseId, caseId),
        eq(hl7Messages.direction, "outbound"),
        eq(hl7Messages.messageType, "ORM^O01"),
      ),
    )
    .orderBy(hl7Messages.createdAt);
}

describe("the order's status told to the hospital", () => {
  it("is IP when monitoring starts and CM when the report is signed, each read by the hospital's parser", async () => {
    const hospital = await peer();
    const client = await clientSendingTo(hospital.port, true);
    const subject = await orderedCase(client.id, "ORD-S1");
    expect(await statusRows(subject.id)).toEqual([]);

    await startMonitoring(subject.id);
    // Stored with its MSH-10 in the move's transaction, before any runner looked.
    const [inProcess] = await statusRows(subject.id);
    expect(inProcess).toMatchObject({ status: "queued", orderNumber: "ORD-S1", reportVersionId: null });

    runOutbound();
    await expect.poll(() => hospital.received().length, { timeout: 15_000 }).toBe(1);
    expect(hospital.received()[0]).toMatchObject({
      type: "ORM^O01",
      controlId: inProcess?.controlId,
      orderControl: "SC",
      orderStatus: "IP",
      placer: "ORD-S1",
      filler: subject.caseNumber,
    });
    await expect.poll(async () => (await statusRows(subject.id))[0]?.status, { timeout: 5_000 }).toBe("acknowledged");

    await endAndSign(subject.id);
    await expect.poll(() => hospital.received().length, { timeout: 15_000 }).toBe(3);
    const types = hospital.received().map((message) => `${message.type} ${message.orderStatus ?? ""}`.trim());
    expect(types.slice(1).sort()).toEqual(["ORM^O01 CM", "ORU^R01"]);
    const completed = hospital.received().find((message) => message.orderStatus === "CM");
    expect(completed).toMatchObject({ orderControl: "SC", placer: "ORD-S1", filler: subject.caseNumber });
  }, 60_000);

  it("is CA when a person archives the ordered case, and nothing for a case typed in by hand", async () => {
    const hospital = await peer();
    const client = await clientSendingTo(hospital.port, true);
    const subject = await orderedCase(client.id, "ORD-S2");
    const archived = await team.coordinator("DELETE", `/cases/${subject.id}`);
    expect(archived.statusCode, archived.body).toBe(200);
    const byHand = await openCase(team.coordinator, client.id);
    const assigned = await team.coordinator("POST", `/cases/${byHand.id}/actions`, {
      body: { action: "assign-technologist", technologistId: team.technologist.sub },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    await startMonitoring(byHand.id);
    expect(await statusRows(byHand.id)).toEqual([]);

    runOutbound();
    await expect.poll(() => hospital.received().length, { timeout: 15_000 }).toBe(1);
    expect(hospital.received()[0]).toMatchObject({ orderControl: "SC", orderStatus: "CA", placer: "ORD-S2" });
  }, 60_000);

  it("is not sent when the profile does not ask for it", async () => {
    const hospital = await peer();
    const client = await clientSendingTo(hospital.port, false);
    const subject = await orderedCase(client.id, "ORD-S3");
    await startMonitoring(subject.id);
    expect(await statusRows(subject.id)).toEqual([]);
  }, 60_000);

  it("is failed for good with the hospital's words when it answers AE, and sent again from the log once fixed", async () => {
    const hospital = await peer({ code: "AE", errorText: "Order ORD-S4 is closed" });
    const client = await clientSendingTo(hospital.port, true);
    const subject = await orderedCase(client.id, "ORD-S4");
    await startMonitoring(subject.id);
    const [row] = await statusRows(subject.id);
    runOutbound(5);
    const jobOf = async () =>
      (
        await harness.database.db
          .select()
          .from(jobs)
          .where(eq(jobs.uniqueKey, `hl7-result:${row?.id}`))
      )[0];
    await expect.poll(async () => (await jobOf())?.state, { timeout: 15_000 }).toBe("failed");
    expect(await jobOf()).toMatchObject({ attempts: 1 });
    expect((await statusRows(subject.id))[0]).toMatchObject({
      status: "failed",
      ackCode: "AE",
      error: expect.stringContaining("refused the order status (AE): Order ORD-S4 is closed"),
    });
    expect(hospital.received()).toHaveLength(1);

    // The hospital reopened the order: an administrator sends the status again from the message log, same MSH-10.
    await hospital.stop();
    peers.splice(peers.indexOf(hospital), 1);
    const fixed = await startResultPeer({ record: path.join(folder, "received-fixed.jsonl"), port: hospital.port });
    peers.push(fixed);
    const replayed = await team.admin("POST", `/api/interfaces/hl7/messages/${row?.id}/replay`);
    expect(replayed.statusCode, replayed.body).toBe(200);
    await expect.poll(async () => (await statusRows(subject.id))[0]?.status, { timeout: 15_000 }).toBe("acknowledged");
    expect(fixed.received().map((message) => message.controlId)).toEqual([row?.controlId]);
  }, 90_000);
});
