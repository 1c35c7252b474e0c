import type { AddressInfo } from "node:net";
import type { FhirPushSettingsView, Hl7MessageSummary, InterpretationItem } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, hl7Messages, reportDisclosures, vigilSigningKeys } from "../../db/schema.js";
import { type JobRunner, startJobRunner } from "../../jobs/job-runner.js";
import { caseIn, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { type FhirReceiver, startFhirReceiver } from "../../testing/kits/fhir-receiver-kit.js";
import { fhirPackageErrors, medplumErrors } from "../../testing/kits/fhir-validators-kit.js";
import { collectionOf, itemPath, sampleInterpretation } from "../../testing/kits/records-kit.js";
import { addAddendum } from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { fhirPushJob } from "./fhir-push-job.js";

/**
 * Signed reports pushed to the hospital's FHIR server (docs/design/FHIR.md, "Push"), against Medplum's FhirRouter
 * and in-memory repository playing the hospital, whose token endpoint verifies Vigil's assertion with `jose` against
 * the JWKS Vigil publishes (fetched over HTTP from this app, listening for the purpose).
 */

let harness: TestApp;
let team: Team;
let jwksUrl: string;
const runners: JobRunner[] = [];
const receivers: FhirReceiver[] = [];
const systemClientId = "vigil-at-mercy";
const messages = "/api/interfaces/hl7/messages";

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "fhir-push");
  await harness.app.listen({ port: 0, host: "127.0.0.1" });
  jwksUrl = `http://127.0.0.1:${(harness.app.server.address() as AddressInfo).port}/fhir/.well-known/jwks.json`;
}, 60_000);
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
  for (const receiver of receivers.splice(0)) await receiver.close();
});
afterAll(() => harness.close());

async function receiver() {
  const started = await startFhirReceiver({ jwksUrl, clientId: systemClientId });
  receivers.push(started);
  return started;
}

function runPushes(limit = 3) {
  const runner = startJobRunner(
    harness.database,
    [
      fhirPushJob(
        {
          publicUrl: "http://vigil.test",
          company: { name: "Vigil" },
          sendingFacility: "VIGIL",
          requestTimeoutMs: 5_000,
        },
        { limit, backoff: { baseMs: 200, maxMs: 400 } },
      ),
    ],
    harness.app.log,
    { pollMs: 100 },
  );
  runners.push(runner);
  return runner;
}

async function clientPushingTo(hospital: FhirReceiver) {
  const client = await createClient(team.coordinator);
  const saved = await team.admin("PUT", `/clients/${client.id}/fhir-push`, {
    body: {
      baseVersion: null,
      enabled: true,
      baseUrl: hospital.baseUrl,
      tokenUrl: null,
      systemClientId,
      scopes: ["system/DiagnosticReport.cu", "system/DocumentReference.cu", "system/Binary.c", "system/Patient.rs"],
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return client;
}

async function signedCase(clientId: string) {
  const subject = await caseIn(harness, team, clientId, "preview");
  const created = await team.reviewer("POST", collectionOf("interpretation", subject.id), {
    body: sampleInterpretation(),
  });
  expect(created.statusCode, created.body).toBe(201);
  const item = created.json().data as InterpretationItem;
  const signed = await team.reviewer("POST", itemPath("interpretation", subject.id, item.id), {
    body: { change: "sign", baseRevision: item.revision },
  });
  expect(signed.statusCode, signed.body).toBe(201);
  return { caseId: subject.id, interpretation: signed.json().data as InterpretationItem };
}

async function pushRows(caseId: string) {
  return harness.database.db
    .select()
    .from(hl7Messages)
    .where(and(eq(hl7Messages.caseId, caseId), eq(hl7Messages.messageType, "FHIR transaction")))
    .orderBy(hl7Messages.createdAt);
}

/** The hospital's own Patient for the case's MRN, under the MRN system Vigil uses for a client without a profile. */
async function hospitalPatient(hospital: FhirReceiver, clientId: string, mrn: string) {
  return hospital.repo.createResource({
    resourceType: "Patient",
    identifier: [{ system: `http://vigil.test/fhir/sid/clients/${clientId}/mrn`, value: mrn }],
    name: [{ family: "Hospital-side" }],
  });
}

describe("a signed report pushed to the hospital's FHIR server", () => {
  it("is accepted as one transaction, valid, and its addendum updates the same DiagnosticReport", async () => {
    const hospital = await receiver();
    const client = await clientPushingTo(hospital);
    const view = (await team.coordinator("GET", `/clients/${client.id}/fhir-push`)).json().data as FhirPushSettingsView;
    expect(view.jwksUrl).toBe("http://vigil.test/fhir/.well-known/jwks.json");
    const { caseId, interpretation } = await signedCase(client.id);

    // Queued in the signing transaction, before any runner looked.
    const [queued] = await pushRows(caseId);
    expect(queued).toMatchObject({ direction: "outbound", status: "queued", attempts: 0 });
    const patient = await hospitalPatient(hospital, client.id, queued?.patientMrn ?? "");

    runPushes();
    await expect.poll(async () => (await pushRows(caseId))[0]?.status, { timeout: 20_000 }).toBe("acknowledged");
    const [first] = await hospital.search(`DiagnosticReport?identifier=urn:uuid:${interpretation.id}`);
    expect(first).toMatchObject({ status: "final", identifier: [{ value: `urn:uuid:${interpretation.id}` }] });

    // Vigil's assertion: ES384, a key Vigil publishes, iss = sub = the client id Vigil was given.
    const [key] = await harness.database.db.select().from(vigilSigningKeys);
    expect(hospital.assertions[0]).toMatchObject({
      header: { alg: "ES384", kid: key?.kid },
      claims: { iss: systemClientId, sub: systemClientId, aud: hospital.tokenUrl },
    });

    await addAddendum(team.reviewer, caseId, interpretation, "Addendum: reviewed the last hour again.");
    await expect
      .poll(async () => (await pushRows(caseId)).map((row) => row.status), { timeout: 20_000 })
      .toEqual(["acknowledged", "acknowledged"]);

    const reports = await hospital.search(`DiagnosticReport?identifier=urn:uuid:${interpretation.id}`);
    expect(reports).toHaveLength(1);
    const [report] = reports as { id: string; status: string; meta: { versionId: string }; [key: string]: unknown }[];
    expect(report?.id).toBe(first?.id);
    expect(report?.status).toBe("amended");
    expect(report?.meta.versionId).not.toBe((first as { meta: { versionId: string } }).meta.versionId);
    const history = await hospital.repo.readHistory("DiagnosticReport", report?.id ?? "");
    expect(history.entry?.map((entry) => (entry.resource as { status?: string } | undefined)?.status)).toEqual([
      "amended",
      "final",
    ]);

    // The patient is the hospital's own, by its MRN; the PDF and the two versions' documents are there.
    expect((report?.subject as { reference: string }).reference).toMatch(/^Patient\?identifier=/);
    const subjects = await hospital.search((report?.subject as { reference: string }).reference);
    expect(subjects.map((found) => found.id)).toEqual([patient.id]);
    const allDocuments = await hospital.search("DocumentReference");
    expect(allDocuments.map((document) => document.docStatus).sort()).toEqual(["amended", "final"]);
    const binaryUrl = (report?.presentedForm as { url: string }[])[0]?.url ?? "";
    expect(binaryUrl).toMatch(/^Binary\//);
    const binary = (await hospital.repo.readResource("Binary", binaryUrl.slice("Binary/".length))) as {
      data?: string;
    };
    expect(
      Buffer.from(binary.data ?? "", "base64")
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    for (const resource of [report, ...allDocuments, binary]) {
      expect(medplumErrors(resource), JSON.stringify(resource).slice(0, 200)).toEqual([]);
      expect(fhirPackageErrors(resource)).toEqual([]);
    }

    // Each version pushed is one disclosure in the patient's accounting.
    const disclosed = await harness.database.db
      .select()
      .from(reportDisclosures)
      .where(and(eq(reportDisclosures.caseId, caseId), eq(reportDisclosures.kind, "fhir-pushed")));
    expect(disclosed).toHaveLength(2);
    expect(disclosed[0]?.recipient).toBe(`Hospital FHIR server ${hospital.baseUrl}`);
  }, 90_000);

  it("is retried while the server is down, failed at once when refused, shown in the log and sent again from it", async () => {
    const hospital = await receiver();
    const client = await clientPushingTo(hospital);
    hospital.mode.fhir = "down";
    const { caseId } = await signedCase(client.id);
    const [queued] = await pushRows(caseId);
    await hospitalPatient(hospital, client.id, queued?.patientMrn ?? "");

    runPushes(2);
    await expect.poll(async () => (await pushRows(caseId))[0]?.status, { timeout: 20_000 }).toBe("failed");
    const [down] = await pushRows(caseId);
    expect(down).toMatchObject({ attempts: 2, ackCode: "503" });
    expect(down?.error).toContain("answered 503: error transient: the server is restarting");

    const log = await team.coordinator("GET", `${messages}?clientId=${client.id}`);
    expect(log.statusCode, log.body).toBe(200);
    const [shown] = (log.json().data as { items: Hl7MessageSummary[] }).items;
    expect(shown).toMatchObject({
      direction: "outbound",
      messageType: "FHIR transaction",
      status: "failed",
      ackCode: "503",
    });

    // A refusal (4xx) is not retried: the same Bundle would be refused again.
    hospital.mode.fhir = "refuse";
    const replayed = await team.admin("POST", `${messages}/${down?.id}/replay`);
    expect(replayed.statusCode, replayed.body).toBe(200);
    await expect.poll(async () => (await pushRows(caseId))[0]?.status, { timeout: 20_000 }).toBe("failed");
    const [refused] = await pushRows(caseId);
    expect(refused).toMatchObject({ attempts: 3, ackCode: "422" });
    expect(refused?.error).toContain("no such patient in this hospital");

    hospital.mode.fhir = "accept";
    const again = await team.admin("POST", `${messages}/${down?.id}/replay`);
    expect(again.statusCode, again.body).toBe(200);
    await expect.poll(async () => (await pushRows(caseId))[0]?.status, { timeout: 20_000 }).toBe("acknowledged");
    expect(await hospital.search("DiagnosticReport")).toHaveLength(1);
    expect(hospital.bundles).toBe(4);
  }, 90_000);

  it("has settings administrators change on the version they read, audited, and coordinators only read", async () => {
    const client = await createClient(team.coordinator);
    const path = `/clients/${client.id}/fhir-push`;
    const body = {
      baseVersion: null,
      enabled: true,
      baseUrl: "https://ehr.example.org/fhir/",
      tokenUrl: null,
      systemClientId,
      scopes: ["system/DiagnosticReport.cu"],
    };
    expect((await team.coordinator("PUT", path, { body })).statusCode).toBe(403);
    const plain = await team.admin("PUT", path, { body: { ...body, baseUrl: "http://ehr.example.org/fhir" } });
    expect(plain.statusCode).toBe(400);
    expect(plain.body).toContain("plain http only for localhost");
    const first = await team.admin("PUT", path, { body });
    expect(first.statusCode, first.body).toBe(200);
    // The trailing slash is dropped: the Bundle is posted to the base itself.
    expect((first.json().data as FhirPushSettingsView).settings).toMatchObject({
      version: 1,
      baseUrl: "https://ehr.example.org/fhir",
    });
    const second = await team.admin("PUT", path, { body: { ...body, baseVersion: 1, enabled: false } });
    expect(second.statusCode, second.body).toBe(200);
    const stale = await team.admin("PUT", path, { body: { ...body, baseVersion: 1 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain("they are at version 2");
    const audited = await harness.database.db.select().from(auditEvents).where(eq(auditEvents.targetId, client.id));
    const actions = audited.map((event) => event.action).filter((action) => action.startsWith("fhir-push."));
    expect(actions.sort()).toEqual(["fhir-push.configure", "fhir-push.revise"]);
  });
});
