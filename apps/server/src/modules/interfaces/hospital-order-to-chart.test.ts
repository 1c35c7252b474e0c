import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Case, InterpretationItem, ReportList } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MllpListener } from "../../hl7/mllp-listener.js";
import { type JobRunner, startJobRunner } from "../../jobs/job-runner.js";
import { createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { type ResultPeer, startResultPeer } from "../../testing/kits/hl7-result-peer-kit.js";
import { fixtureMessage, orderOfPlacer, readAckText } from "../../testing/kits/inbound-kit.js";
import { collectionOf, itemPath, sampleInterpretation } from "../../testing/kits/records-kit.js";
import { addAddendum } from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { startInboundListener } from "./inbound-listener.js";
import { resultJob } from "./result-job.js";

/**
 * The whole chain the hospital sees, with its side played by code the team did not write: Debian's `mllp_send` sends
 * an ORM to Vigil's MLLP listener; the case it makes is taken to a signed report through the routes the screens use;
 * the `hl7-result` job delivers the ORU to python3-hl7's asyncio MLLP server, whose `hl7.parse` reads it and decodes
 * OBX-5 to the stored PDF; an addendum arrives as a corrected result (OBR-25 C) with the same filler number.
 * (The browser journey `a-hospital-order-sent-over-mllp-appears-in-intake` covers the intake screen.)
 */

const run = promisify(execFile);
const folder = mkdtempSync(path.join(tmpdir(), "vigil-hl7-chain-"));
let harness: TestApp;
let team: Team;
let listener: MllpListener;
let hospital: ResultPeer;
let runner: JobRunner;

beforeAll(async () => {
  harness = await createTestApp({ HL7_SENDING_FACILITY: "NORTHWIND" });
  team = await teamFor(harness, "hl7-chain");
  listener = await startInboundListener(harness.database.db, {
    host: "127.0.0.1",
    port: 0,
    maxMessageBytes: 1_000_000,
    idleTimeoutMs: 10_000,
  });
  hospital = await startResultPeer({ record: path.join(folder, "chart.jsonl") });
  runner = startJobRunner(
    harness.database,
    [
      resultJob(
        { sendingFacility: "NORTHWIND", connectTimeoutMs: 2_000, ackTimeoutMs: 5_000 },
        { limit: 3, backoff: { baseMs: 200, maxMs: 400 } },
      ),
    ],
    harness.app.log,
    { pollMs: 100 },
  );
}, 180_000);
afterAll(async () => {
  await runner?.stop();
  await hospital?.stop();
  await listener?.close({ graceMs: 1000 });
  await harness?.close();
});

async function ok<T>(response: Promise<{ statusCode: number; body: string; json: () => { data: T } }>, status = 200) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(status);
  return settled.json().data;
}

describe("a hospital order through to the hospital's chart", () => {
  it("ORM by mllp_send → case in intake → signed report → ORU read by python3-hl7 → addendum as corrected", async () => {
    const client = await createClient(team.coordinator);
    await ok(
      team.admin("POST", `/clients/${client.id}/interface-profile/revisions`, {
        body: {
          baseRevision: null,
          sendingApplication: "EPIC",
          sendingFacility: "CHAIN",
          mrnAssigningAuthority: "CHAIN-MRN",
          receivingApplication: "EPICCARE",
          receivingFacility: "CHAIN",
          destination: { host: "127.0.0.1", port: hospital.port, tls: false },
          resultStyle: "ORU^R01",
        },
      }),
      201,
    );

    // The hospital's order, sent by mllp_send exactly as an interface analyst would.
    const file = path.join(folder, "order.hl7");
    const order = fixtureMessage("epic-orm-o01", {
      FACILITY: "CHAIN",
      AUTHORITY: "CHAIN-MRN",
      CONTROL: "CHAIN0001",
      PLACER: "ORD-CHAIN-1",
      MRN: "C700001",
      LAST: "O'BRIEN",
      FIRST: "MAEVE",
    });
    writeFileSync(file, `${order.split("\r").join("\n")}\n`);
    const sent = await run("/usr/bin/mllp_send", ["--loose", "-f", file, "-p", String(listener.port), "127.0.0.1"], {
      timeout: 15_000,
    });
    const ack = readAckText(sent.stdout.trim());
    expect(ack.code).toBe("AA");
    const [row] = await orderOfPlacer(harness.database.db, "ORD-CHAIN-1");
    const caseId = row?.caseId as string;
    const intake = await ok<Case>(team.coordinator("GET", `/cases/${caseId}`));
    expect(intake).toMatchObject({
      stage: "intake",
      clientId: client.id,
      patient: { mrn: "C700001", lastName: "O'BRIEN", firstName: "MAEVE" },
      order: { placerOrderNumber: "ORD-CHAIN-1", fillerOrderNumber: intake.caseNumber },
    });
    expect(ack.text).toContain(`Order ORD-CHAIN-1 received as ${intake.caseNumber}`);

    // Monitoring, its end and the signed report, through the routes the screens call.
    await ok(
      team.coordinator("POST", `/cases/${caseId}/actions`, {
        body: { action: "assign-technologist", technologistId: team.technologist.sub },
      }),
    );
    const monitoring = await ok<{ case: Case }>(
      team.technologist("POST", `/cases/${caseId}/transitions`, { body: { to: "monitoring" } }),
      201,
    );
    const started = new Date(monitoring.case.recordingStartedAt as string);
    const ended = await ok<Case>(
      team.technologist("PATCH", `/cases/${caseId}`, {
        body: { recordingEndedAt: new Date().toISOString() },
        ifMatch: monitoring.case.version,
      }),
    );
    expect(ended.recordingEndedAt).not.toBeNull();
    await ok(team.technologist("POST", `/cases/${caseId}/transitions`, { body: { to: "preview" } }), 201);
    const draft = await ok<InterpretationItem>(
      team.reviewer("POST", collectionOf("interpretation", caseId), {
        body: sampleInterpretation({ periodFrom: started.toISOString(), periodTo: ended.recordingEndedAt as string }),
      }),
      201,
    );
    const signed = await ok<InterpretationItem>(
      team.reviewer("POST", itemPath("interpretation", caseId, draft.id), {
        body: { change: "sign", baseRevision: draft.revision },
      }),
      201,
    );

    // The ORU, as python3-hl7 read it: the PDF out of OBX-5 is the stored version, byte for byte.
    await expect.poll(() => hospital.received().length, { timeout: 20_000 }).toBe(1);
    const [version] = (await ok<ReportList>(team.coordinator("GET", `/cases/${caseId}/reports`))).items;
    const [result] = hospital.received();
    expect(result).toMatchObject({
      type: "ORU^R01",
      mrn: "C700001",
      patientFamily: "O'BRIEN",
      placer: "ORD-CHAIN-1",
      filler: intake.caseNumber,
      resultStatus: "F",
      edType: "application",
      edSha256: version?.pdf.sha256,
      edBytes: version?.pdf.bytes,
    });
    await expect
      .poll(async () => (await ok<ReportList>(team.coordinator("GET", `/cases/${caseId}/reports`))).items[0]?.ehr, {
        timeout: 5_000,
      })
      .toMatchObject({ status: "acknowledged", ackCode: "AA" });

    // The addendum replaces the result in the chart: corrected, the same filler number, its own PDF.
    await addAddendum(team.reviewer, caseId, signed, "Seizure count corrected: three.");
    await expect.poll(() => hospital.received().length, { timeout: 20_000 }).toBe(2);
    const [addendum] = (await ok<ReportList>(team.coordinator("GET", `/cases/${caseId}/reports`))).items;
    const corrected = hospital.received()[1];
    expect(addendum?.version).toBe(2);
    expect(corrected).toMatchObject({
      type: "ORU^R01",
      resultStatus: "C",
      filler: intake.caseNumber,
      placer: "ORD-CHAIN-1",
      edSha256: addendum?.pdf.sha256,
    });
    expect(corrected?.controlId).not.toBe(result?.controlId);
    expect(corrected?.text).toContain("Seizure count corrected: three.");
  }, 90_000);
});
