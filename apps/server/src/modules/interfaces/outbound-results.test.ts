import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client, InterpretationItem, ReportList } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { caseOrders, hl7Messages, jobs } from "../../db/schema.js";
import { type JobRunner, startJobRunner } from "../../jobs/job-runner.js";
import { findFreePort } from "../../testing/free-port.js";
import { caseIn, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { type ResultPeer, startResultPeer } from "../../testing/kits/hl7-result-peer-kit.js";
import { collectionOf, itemPath, sampleInterpretation } from "../../testing/kits/records-kit.js";
import { addAddendum } from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { resultJob } from "./result-job.js";

/**
 * Signed reports into the hospital's chart (docs/design/HL7.md, "Outbound"), against Debian's python3-hl7 playing
 * the hospital: it reads each message with `hl7.parse` and decodes the PDF out of OBX-5.
 */

let harness: TestApp;
let team: Team;
const peers: ResultPeer[] = [];
const runners: JobRunner[] = [];
const folder = mkdtempSync(path.join(tmpdir(), "vigil-hl7-results-"));
let recordCounter = 0;

beforeAll(async () => {
  harness = await createTestApp({ HL7_SENDING_FACILITY: "NORTHWIND" });
  team = await teamFor(harness, "hl7-results");
}, 60_000);
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
  for (const peer of peers.splice(0)) await peer.stop();
});
afterAll(() => harness.close());

async function peer(options: { port?: number; code?: "AA" | "AE"; errorText?: string } = {}) {
  recordCounter += 1;
  const started = await startResultPeer({ record: path.join(folder, `received-${recordCounter}.jsonl`), ...options });
  peers.push(started);
  return started;
}

/** This instance's job runner for the result kind only, polling often (back-off 200 ms) so tests stay short. */
function runResults(limit = 3) {
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
  return runner;
}

let identity = 0;
async function clientSendingTo(port: number, resultStyle: "ORU^R01" | "MDM^T02" = "ORU^R01"): Promise<Client> {
  identity += 1;
  const client = await createClient(team.coordinator);
  const response = await team.admin("POST", `/clients/${client.id}/interface-profile/revisions`, {
    body: {
      baseRevision: null,
      sendingApplication: "EPIC",
      sendingFacility: `RESULTS${identity}`,
      mrnAssigningAuthority: `RESULTS${identity}-MRN`,
      receivingApplication: "EPICCARE",
      receivingFacility: `RESULTS${identity}`,
      destination: { host: "127.0.0.1", port, tls: false },
      resultStyle,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return client;
}

/** A case ordered by the hospital (its case_orders row) with an interpretation the reviewer signed. */
async function signedOrderedCase(clientId: string, placer: string) {
  const subject = await caseIn(harness, team, clientId, "preview");
  await harness.database.db.insert(caseOrders).values({
    caseId: subject.id,
    clientId,
    source: "hl7",
    placerOrderNumber: placer,
    fillerOrderNumber: subject.caseNumber,
    visitNumber: `V-${placer}`,
  });
  const created = await team.reviewer("POST", collectionOf("interpretation", subject.id), {
    body: sampleInterpretation(),
  });
  expect(created.statusCode, created.body).toBe(201);
  const item = created.json().data as InterpretationItem;
  const signed = await team.reviewer("POST", itemPath("interpretation", subject.id, item.id), {
    body: { change: "sign", baseRevision: item.revision },
  });
  expect(signed.statusCode, signed.body).toBe(201);
  return {
    caseId: subject.id,
    caseNumber: subject.caseNumber,
    interpretation: signed.json().data as InterpretationItem,
  };
}

async function reportsOf(caseId: string): Promise<ReportList> {
  const response = await team.coordinator("GET", `/cases/${caseId}/reports`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as ReportList;
}

async function resultRows(caseId: string) {
  return harness.database.db
    .select()
    .from(hl7Messages)
    .where(and(eq(hl7Messages.caseId, caseId), eq(hl7Messages.direction, "outbound")))
    .orderBy(hl7Messages.createdAt);
}

async function jobOf(messageId: string) {
  const [row] = await harness.database.db
    .select()
    .from(jobs)
    .where(eq(jobs.uniqueKey, `hl7-result:${messageId}`));
  return row;
}

describe("a signed report going into the hospital's chart", () => {
  it("arrives as an ORU the hospital's parser reads, its PDF the stored one, then its addendum as corrected", async () => {
    const hospital = await peer();
    const client = await clientSendingTo(hospital.port);
    const { caseId, caseNumber, interpretation } = await signedOrderedCase(client.id, "ORD-1001");

    // Queued in the signing transaction: a row and its job, before any runner looked.
    const [queued] = await resultRows(caseId);
    expect(queued).toMatchObject({ messageType: "ORU^R01", status: "queued", orderNumber: "ORD-1001" });
    expect((await reportsOf(caseId)).items[0]?.ehr).toMatchObject({ status: "waiting", ackCode: null });

    runResults();
    await expect.poll(() => hospital.received().length, { timeout: 15_000 }).toBe(1);
    const [received] = hospital.received();
    const version = (await reportsOf(caseId)).items[0];
    expect(received).toMatchObject({
      type: "ORU^R01",
      controlId: queued?.controlId,
      sendingApplication: "VIGIL",
      placer: "ORD-1001",
      filler: caseNumber,
      resultStatus: "F",
      edType: "application",
      edSha256: version?.pdf.sha256,
      edBytes: version?.pdf.bytes,
    });
    expect(received?.text).toContain("Impression:");
    await expect
      .poll(async () => (await reportsOf(caseId)).items[0]?.ehr?.status, { timeout: 5_000 })
      .toBe("acknowledged");
    expect((await reportsOf(caseId)).items[0]?.ehr).toMatchObject({
      ackCode: "AA",
      error: null,
      at: expect.any(String),
    });

    // The addendum: a corrected result with the same filler number, a new MSH-10, the new PDF.
    await addAddendum(team.reviewer, caseId, interpretation, "Seizure count corrected: three.");
    await expect.poll(() => hospital.received().length, { timeout: 15_000 }).toBe(2);
    const corrected = hospital.received()[1];
    const [addendum] = (await reportsOf(caseId)).items;
    expect(addendum?.version).toBe(2);
    expect(corrected).toMatchObject({ type: "ORU^R01", filler: caseNumber, placer: "ORD-1001", resultStatus: "C" });
    expect(corrected?.controlId).not.toBe(received?.controlId);
    expect(corrected?.edSha256).toBe(addendum?.pdf.sha256);
    expect(corrected?.text).toContain("Seizure count corrected: three.");
  }, 60_000);

  it("waits while the hospital's engine is down, and is delivered once when it comes up", async () => {
    const port = await findFreePort();
    const client = await clientSendingTo(port);
    const { caseId } = await signedOrderedCase(client.id, "ORD-2002");
    runResults(20);
    const [row] = await resultRows(caseId);
    // Refused at first: still waiting, saying why.
    await expect.poll(async () => (await resultRows(caseId))[0]?.error ?? "", { timeout: 10_000 }).toMatch(/refused/);
    expect((await reportsOf(caseId)).items[0]?.ehr?.status).toBe("waiting");
    const hospital = await peer({ port });
    await expect.poll(async () => (await resultRows(caseId))[0]?.status, { timeout: 15_000 }).toBe("acknowledged");
    await expect.poll(async () => (await jobOf(row?.id as string))?.state, { timeout: 5_000 }).toBe("done");
    // Tries after the acknowledgement (none are due, but a repeated one) send nothing more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hospital.received().map((message) => message.controlId)).toEqual([row?.controlId]);
  }, 60_000);

  it("is failed with the hospital's words on AE, and not retried", async () => {
    const hospital = await peer({ code: "AE", errorText: "Order ORD-3003 not found" });
    const client = await clientSendingTo(hospital.port);
    const { caseId } = await signedOrderedCase(client.id, "ORD-3003");
    runResults(5);
    const [row] = await resultRows(caseId);
    await expect.poll(async () => (await jobOf(row?.id as string))?.state, { timeout: 15_000 }).toBe("failed");
    const job = await jobOf(row?.id as string);
    expect(job).toMatchObject({ attempts: 1, lastError: expect.stringContaining("Order ORD-3003 not found") });
    expect((await reportsOf(caseId)).items[0]?.ehr).toMatchObject({
      status: "failed",
      ackCode: "AE",
      error: expect.stringContaining("Order ORD-3003 not found"),
    });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(hospital.received()).toHaveLength(1);
  }, 60_000);

  it("goes as MDM^T02, and its addendum as T08 naming the original document", async () => {
    const hospital = await peer();
    const client = await clientSendingTo(hospital.port, "MDM^T02");
    const { caseId, interpretation } = await signedOrderedCase(client.id, "ORD-4004");
    runResults();
    await expect.poll(() => hospital.received().length, { timeout: 15_000 }).toBe(1);
    await addAddendum(team.reviewer, caseId, interpretation, "Corrected.");
    await expect.poll(() => hospital.received().length, { timeout: 15_000 }).toBe(2);
    const [document, edit] = hospital.received();
    const versions = (await reportsOf(caseId)).items;
    expect(document).toMatchObject({ type: "MDM^T02", placer: "ORD-4004", edSha256: versions[1]?.pdf.sha256 });
    expect(edit).toMatchObject({
      type: "MDM^T08",
      parentDocument: document?.document,
      edSha256: versions[0]?.pdf.sha256,
    });
  }, 60_000);

  it("sends nothing for a client whose profile has no destination", async () => {
    const client = await createClient(team.coordinator);
    const { caseId } = await signedOrderedCase(client.id, "ORD-5005");
    expect(await resultRows(caseId)).toEqual([]);
    expect((await reportsOf(caseId)).items[0]?.ehr).toBeNull();
  }, 60_000);
});
