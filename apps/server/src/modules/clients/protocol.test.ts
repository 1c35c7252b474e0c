import type { Client, ProtocolRevision } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { auditRows, sampleClient, sampleProtocol, unknownId } from "../../testing/kits/clients-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { insertProtocolRevision } from "./protocol-repository.js";

let harness: TestApp;
let coordinator: Caller;
let technologist: Caller;

beforeAll(async () => {
  harness = await createTestApp();
  coordinator = await callerFor(harness, "protocol-coordinator", ["coordinator"]);
  technologist = await callerFor(harness, "protocol-technologist", ["technologist"]);
});
afterAll(() => harness.close());

async function createClient(): Promise<Client> {
  const response = await coordinator("POST", "/clients", { body: sampleClient() });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

async function revise(clientId: string, baseRevision: number | null, overrides = {}) {
  return coordinator("POST", `/clients/${clientId}/protocol/revisions`, {
    body: sampleProtocol({ baseRevision, ...overrides }),
  });
}

describe("GET clients/{id}/protocol", () => {
  it("is empty until the first revision", async () => {
    const client = await createClient();
    const response = await technologist("GET", `/clients/${client.id}/protocol`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ clientId: client.id, current: null, history: [] });
  });

  it("answers 404 for an unknown client", async () => {
    expect((await technologist("GET", `/clients/${unknownId}/protocol`)).statusCode).toBe(404);
  });

  it("returns the current revision and the history, newest first", async () => {
    const client = await createClient();
    await revise(client.id, null);
    await revise(client.id, 1, { impedanceThresholdKohm: 5, changeNote: "Tighter threshold" });
    const data = (await technologist("GET", `/clients/${client.id}/protocol`)).json().data;
    expect(data.current).toMatchObject({ revision: 2, impedanceThresholdKohm: 5, changeNote: "Tighter threshold" });
    expect(data.history.map((entry: ProtocolRevision) => entry.revision)).toEqual([2, 1]);
  });
});

describe("POST clients/{id}/protocol/revisions", () => {
  it("creates revision 1 from a null base, with the author and the threshold as a number", async () => {
    const client = await createClient();
    const response = await revise(client.id, null, { impedanceThresholdKohm: 12.25 });
    expect(response.statusCode, response.body).toBe(201);
    const revision: ProtocolRevision = response.json().data;
    expect(revision).toMatchObject({
      clientId: client.id,
      revision: 1,
      impedanceThresholdKohm: 12.25,
      impedanceCheckIntervalHours: 12,
      reviewTurnaroundHours: 8,
      criticalNotification: { notify: "Neuro ICU charge nurse", withinMinutes: 15 },
      changeNote: "First protocol",
      author: { username: "protocol-coordinator", name: "protocol-coordinator Tester" },
    });
    expect(typeof revision.impedanceThresholdKohm).toBe("number");
    expect(revision.transferForm.fields.map((field) => field.key)).toEqual(["patientName", "mrn"]);
  });

  it("fills in the protocol defaults (10 kΩ, every 24 hours)", async () => {
    const client = await createClient();
    const response = await coordinator("POST", `/clients/${client.id}/protocol/revisions`, {
      body: { baseRevision: null, transferForm: { fields: [] } },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({
      impedanceThresholdKohm: 10,
      impedanceCheckIntervalHours: 24,
      reviewTurnaroundHours: 24,
      statAcknowledgeMinutes: 60,
      criticalNotification: { notify: "", withinMinutes: 30 },
      transferForm: { title: "Transfer into continuous EEG monitoring", instructions: "", fields: [] },
    });
  });

  it("keeps the STAT acknowledgement window of each revision", async () => {
    const client = await createClient();
    await revise(client.id, null, { statAcknowledgeMinutes: 45 });
    await revise(client.id, 1, { statAcknowledgeMinutes: 20 });
    const data = (await technologist("GET", `/clients/${client.id}/protocol`)).json().data;
    expect(data.history.map((entry: ProtocolRevision) => entry.statAcknowledgeMinutes)).toEqual([20, 45]);
  });

  it("reads 60 minutes for a revision written before the STAT window existed", async () => {
    const client = await createClient();
    // Written the way rows were before the column: the database default fills it in.
    await insertProtocolRevision(harness.database.db, {
      clientId: client.id,
      revision: 1,
      impedanceThresholdKohm: "10.00",
      impedanceCheckIntervalHours: 24,
      reviewTurnaroundHours: 24,
      criticalNotifyWithinMinutes: 30,
      transferForm: { title: "Transfer", instructions: "", fields: [] },
      authorUsername: "before-stat-window",
    });
    const data = (await technologist("GET", `/clients/${client.id}/protocol`)).json().data;
    expect(data.current).toMatchObject({ revision: 1, statAcknowledgeMinutes: 60 });
  });

  it("refuses a STAT acknowledgement window outside 5–1440 minutes with 400", async () => {
    const client = await createClient();
    for (const minutes of [4, 1441, 7.5]) {
      const response = await revise(client.id, null, { statAcknowledgeMinutes: minutes });
      expect(response.statusCode).toBe(400);
      const paths = response.json().error.details.issues.map((issue: { path: string }) => issue.path);
      expect(paths).toEqual(["body.statAcknowledgeMinutes"]);
    }
  });

  it("audits protocol.revise with the revision and its base", async () => {
    const client = await createClient();
    await revise(client.id, null);
    await revise(client.id, 1);
    const rows = await auditRows(harness, "protocol.revise", client.id);
    expect(rows.map((row) => row.details)).toEqual([
      expect.objectContaining({ revision: 1, baseRevision: null }),
      expect.objectContaining({ revision: 2, baseRevision: 1 }),
    ]);
  });

  it("refuses a stale base with 409 and the current revision, overwriting nothing", async () => {
    const client = await createClient();
    await revise(client.id, null);
    await revise(client.id, 1, { instructions: "Second" });
    const response = await revise(client.id, 1, { instructions: "Stale" });
    expect(response.statusCode).toBe(409);
    const error = response.json().error;
    expect(error.message).toContain("revision 2");
    expect(error.details).toMatchObject({
      currentRevision: 2,
      baseRevision: 1,
      current: { revision: 2, instructions: "Second" },
    });
    const history = (await technologist("GET", `/clients/${client.id}/protocol`)).json().data.history;
    expect(history.map((entry: ProtocolRevision) => entry.instructions)).toEqual(["Second", expect.any(String)]);
  });

  it("refuses a non-null base for the first revision, and a null base once one exists", async () => {
    const client = await createClient();
    const early = await revise(client.id, 1);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.details).toMatchObject({ current: null, currentRevision: null });
    await revise(client.id, null);
    const late = await revise(client.id, null);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.details.currentRevision).toBe(1);
  });

  it("lets exactly one of two concurrent appends on the same base win", async () => {
    const client = await createClient();
    await revise(client.id, null);
    const answers = await Promise.all([
      revise(client.id, 1, { instructions: "Writer A" }),
      revise(client.id, 1, { instructions: "Writer B" }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const loser = answers.find((answer) => answer.statusCode === 409);
    expect(loser?.json().error.details.currentRevision).toBe(2);
    const history = (await technologist("GET", `/clients/${client.id}/protocol`)).json().data.history;
    expect(history.map((entry: ProtocolRevision) => entry.revision)).toEqual([2, 1]);
    expect(await auditRows(harness, "protocol.revise", client.id)).toHaveLength(2);
  });

  it("turns a lost race on the unique (client, revision) index into the same 409", async () => {
    const client = await createClient();
    await revise(client.id, null);
    let late: ReturnType<typeof revise> | undefined;
    // Another writer has inserted revision 2 but not committed yet when this request reads the protocol: on
    // PostgreSQL it sees revision 1, inserts 2, and waits on the index until the other commits.
    await harness.database.db.transaction(async (tx) => {
      await insertProtocolRevision(tx, {
        clientId: client.id,
        revision: 2,
        impedanceThresholdKohm: "10.00",
        impedanceCheckIntervalHours: 24,
        reviewTurnaroundHours: 24,
        criticalNotifyWithinMinutes: 30,
        transferForm: { title: "Other writer", instructions: "", fields: [] },
        authorUsername: "other-writer",
      });
      late = revise(client.id, 1, { instructions: "Late writer" });
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const response = await (late as ReturnType<typeof revise>);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.details).toMatchObject({
      currentRevision: 2,
      current: { author: { username: "other-writer" } },
    });
    const history = (await technologist("GET", `/clients/${client.id}/protocol`)).json().data.history;
    expect(history.map((entry: ProtocolRevision) => entry.revision)).toEqual([2, 1]);
  });

  it("recognises the driver's unique violation on (client, revision)", async () => {
    const client = await createClient();
    const values = {
      clientId: client.id,
      revision: 1,
      impedanceThresholdKohm: "10.00",
      impedanceCheckIntervalHours: 24,
      reviewTurnaroundHours: 24,
      criticalNotifyWithinMinutes: 30,
      transferForm: { title: "Transfer", instructions: "", fields: [] },
      authorUsername: "direct",
    };
    await insertProtocolRevision(harness.database.db, values);
    const failure = await insertProtocolRevision(harness.database.db, values).catch((error: unknown) => error);
    expect(isUniqueViolation(failure, "protocol_revisions_client_revision_idx")).toBe(true);
    expect(isUniqueViolation(failure, "clients_code_idx")).toBe(false);
    expect(isUniqueViolation(new Error("boom"), "protocol_revisions_client_revision_idx")).toBe(false);
  });

  it("answers 400 naming invalid fields", async () => {
    const client = await createClient();
    const response = await coordinator("POST", `/clients/${client.id}/protocol/revisions`, {
      body: {
        baseRevision: null,
        impedanceThresholdKohm: -1,
        transferForm: {
          fields: [
            { key: "Bad Key", label: "x", type: "text" },
            { key: "ok", label: "", type: "radio" },
          ],
        },
      },
    });
    expect(response.statusCode).toBe(400);
    const paths = response.json().error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "body.impedanceThresholdKohm",
        "body.transferForm.fields.0.key",
        "body.transferForm.fields.1.label",
        "body.transferForm.fields.1.type",
      ]),
    );
  });

  it("answers 400 when transfer field keys repeat", async () => {
    const client = await createClient();
    const field = { key: "mrn", label: "MRN", type: "text" };
    const response = await coordinator("POST", `/clients/${client.id}/protocol/revisions`, {
      body: { baseRevision: null, transferForm: { fields: [field, field] } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain("field keys must be unique");
  });

  it("answers 404 for an unknown client and 409 for an archived one", async () => {
    expect((await revise(unknownId, null)).statusCode).toBe(404);
    const client = await createClient();
    await coordinator("DELETE", `/clients/${client.id}`);
    const response = await revise(client.id, null);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toContain("archived");
  });

  it("refuses a technologist with 403", async () => {
    const client = await createClient();
    const response = await technologist("POST", `/clients/${client.id}/protocol/revisions`, { body: sampleProtocol() });
    expect(response.statusCode).toBe(403);
  });
});

describe("GET clients/{id}/protocol/transfer", () => {
  it("answers 404 with a clear message while the client has no protocol", async () => {
    const client = await createClient();
    const response = await technologist("GET", `/clients/${client.id}/protocol/transfer`);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe(
      `${client.name} has no protocol yet, so there is no transfer form. Add the first protocol revision.`,
    );
  });

  it("returns the transfer form of the current revision", async () => {
    const client = await createClient();
    await revise(client.id, null);
    const second = await revise(client.id, 1, {
      transferForm: {
        title: "ICU transfer",
        instructions: "Call ahead.",
        fields: [{ key: "bed", label: "Bed / unit", type: "text", required: true }],
      },
    });
    const response = await technologist("GET", `/clients/${client.id}/protocol/transfer`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      clientId: client.id,
      clientName: client.name,
      revision: 2,
      revisedAt: second.json().data.createdAt,
      title: "ICU transfer",
      instructions: "Call ahead.",
      fields: [{ key: "bed", label: "Bed / unit", type: "text", required: true }],
    });
  });

  it("answers 404 for an unknown client", async () => {
    const response = await technologist("GET", `/clients/${unknownId}/protocol/transfer`);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toContain(unknownId);
  });
});
