import type { Client, InterfaceProfileRevision } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { auditRows, sampleClient, unknownId } from "../../testing/kits/clients-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { findProfileForIdentity, getCurrentInterfaceProfile } from "./profile-service.js";

let harness: TestApp;
let admin: Caller;
let coordinator: Caller;
let technologist: Caller;

beforeAll(async () => {
  harness = await createTestApp();
  admin = await callerFor(harness, "profile-admin", ["admin"]);
  coordinator = await callerFor(harness, "profile-coordinator", ["coordinator"]);
  technologist = await callerFor(harness, "profile-technologist", ["technologist"]);
});
afterAll(() => harness.close());

async function createClient(): Promise<Client> {
  const response = await coordinator("POST", "/clients", { body: sampleClient() });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

let identityCounter = 0;
function sampleProfile(overrides: Record<string, unknown> = {}) {
  identityCounter += 1;
  return {
    sendingApplication: "EPIC",
    sendingFacility: `HOSP${identityCounter}`,
    mrnAssigningAuthority: `HOSP${identityCounter}-MRN`,
    receivingApplication: "EPICCARE",
    receivingFacility: `HOSP${identityCounter}`,
    changeNote: "First profile",
    ...overrides,
  };
}

function revise(clientId: string, baseRevision: number | null, overrides: Record<string, unknown> = {}) {
  return admin("POST", `/clients/${clientId}/interface-profile/revisions`, {
    body: { ...sampleProfile(), baseRevision, ...overrides },
  });
}

describe("reading a client's interface profile", () => {
  it("is empty until the first revision, for a coordinator too", async () => {
    const client = await createClient();
    const response = await coordinator("GET", `/clients/${client.id}/interface-profile`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({ clientId: client.id, current: null, history: [] });
  });

  it("answers 404 for an unknown client", async () => {
    expect((await coordinator("GET", `/clients/${unknownId}/interface-profile`)).statusCode).toBe(404);
  });

  it("is refused to a technologist (403)", async () => {
    const client = await createClient();
    expect((await technologist("GET", `/clients/${client.id}/interface-profile`)).statusCode).toBe(403);
  });
});

describe("revising a client's interface profile", () => {
  it("creates revision 1 with the defaults (v2.5.1, ORU^R01, PV1-19, no destination) and its author", async () => {
    const client = await createClient();
    const response = await revise(client.id, null);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({
      clientId: client.id,
      revision: 1,
      enabled: true,
      sendingApplication: "EPIC",
      visitNumberSource: "PV1-19",
      destination: null,
      resultStyle: "ORU^R01",
      hl7Version: "2.5.1",
      orderStatusUpdates: false,
      changeNote: "First profile",
      author: { username: "profile-admin", name: "profile-admin Tester" },
    });
  });

  it("appends revision 2 on base 1 and keeps both, newest first", async () => {
    const client = await createClient();
    const first = (await revise(client.id, null)).json().data as InterfaceProfileRevision;
    const second = await revise(client.id, 1, {
      sendingFacility: first.sendingFacility,
      resultStyle: "MDM^T02",
      destination: { host: "engine.hospital.example", port: 6661, tls: true },
      changeNote: "Documents instead of results",
    });
    expect(second.statusCode, second.body).toBe(201);
    const data = (await coordinator("GET", `/clients/${client.id}/interface-profile`)).json().data;
    expect(data.current).toMatchObject({
      revision: 2,
      resultStyle: "MDM^T02",
      destination: { host: "engine.hospital.example", port: 6661, tls: true, caCertificate: null },
    });
    expect(data.history.map((entry: InterfaceProfileRevision) => entry.revision)).toEqual([2, 1]);
    expect(data.history[1]).toMatchObject({ resultStyle: "ORU^R01", destination: null });
  });

  it("answers a stale base with 409 carrying the current revision, and writes nothing", async () => {
    const client = await createClient();
    await revise(client.id, null);
    await revise(client.id, 1, { changeNote: "second" });
    const stale = await revise(client.id, 1, { changeNote: "based on 1" });
    expect(stale.statusCode).toBe(409);
    const error = stale.json().error;
    expect(error.message).toMatch(/it is at revision 2, and you based your changes on revision 1/);
    expect(error.details).toMatchObject({ currentRevision: 2, baseRevision: 1, current: { changeNote: "second" } });
    const first = await revise(client.id, null);
    expect(first.statusCode).toBe(409);
    const history = (await coordinator("GET", `/clients/${client.id}/interface-profile`)).json().data.history;
    expect(history).toHaveLength(2);
  });

  it("lets exactly one of two appends on the same base through", async () => {
    const client = await createClient();
    const answers = await Promise.all([revise(client.id, null), revise(client.id, null)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
  });

  it("refuses an identity another client's profile owns, whatever its case, naming that client", async () => {
    const owner = await createClient();
    const other = await createClient();
    await revise(owner.id, null, { sendingApplication: "Epic", sendingFacility: "Shared-Fac" });
    const taken = await revise(other.id, null, { sendingApplication: "EPIC", sendingFacility: "shared-fac" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toBe(
      `Messages from EPIC at shared-fac (MSH-3 and MSH-4) already belong to ${owner.name}'s interface profile. Each sending identity identifies one client: ask the hospital which application and facility codes this client's messages carry.`,
    );
    // Once the owner's latest revision names another identity, the first one is free.
    await revise(owner.id, 1, { sendingApplication: "Epic", sendingFacility: "Moved-Fac" });
    expect((await revise(other.id, null, { sendingFacility: "SHARED-FAC" })).statusCode).toBe(201);
  });

  it("explains each invalid field in a 400 by its path", async () => {
    const client = await createClient();
    const response = await revise(client.id, null, {
      sendingApplication: "EP|IC",
      mrnAssigningAuthority: "",
      destination: { host: "engine hospital", port: 70_000, tls: false },
      resultStyle: "ORU^R30",
    });
    expect(response.statusCode).toBe(400);
    const issues = response.json().error.details.issues as Array<{ path: string; message: string }>;
    const byPath: Record<string, string> = {};
    for (const issue of issues) byPath[issue.path] = `${byPath[issue.path] ?? ""} ${issue.message}`.trim();
    expect(byPath["body.sendingApplication"]).toMatch(/must not contain \| \^ ~/);
    expect(byPath["body.mrnAssigningAuthority"]).toMatch(/is required/);
    expect(byPath["body.destination.host"]).toMatch(/must be a host name or an IP address/);
    expect(byPath["body.destination.port"]).toMatch(/must be between 1 and 65535/);
    expect(Object.keys(byPath)).toContain("body.resultStyle");
  });

  it("is refused to a coordinator (403) and to an archived client (409)", async () => {
    const client = await createClient();
    const asCoordinator = await coordinator("POST", `/clients/${client.id}/interface-profile/revisions`, {
      body: { ...sampleProfile(), baseRevision: null },
    });
    expect(asCoordinator.statusCode).toBe(403);
    expect((await admin("DELETE", `/clients/${client.id}`)).statusCode).toBe(200);
    expect((await revise(client.id, null)).statusCode).toBe(409);
  });

  it("audits interface-profile.revise with the base and what changed, the CA reduced to its presence", async () => {
    const client = await createClient();
    const first = (await revise(client.id, null)).json().data as InterfaceProfileRevision;
    const ca = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";
    await revise(client.id, 1, {
      sendingFacility: first.sendingFacility,
      destination: { host: "10.1.2.3", port: 2575, tls: true, caCertificate: ca },
      changeNote: "Destination",
    });
    const rows = await auditRows(harness, "interface-profile.revise", client.id);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({
      actorUsername: "profile-admin",
      details: {
        revision: 2,
        baseRevision: 1,
        changeNote: "Destination",
        changes: {
          destination: { from: null, to: { host: "10.1.2.3", port: 2575, tls: true, ca: true } },
          mrnAssigningAuthority: { from: first.mrnAssigningAuthority, to: expect.any(String) },
        },
      },
    });
    expect(JSON.stringify(rows[1]?.details)).not.toContain("MIIB");
  });
});

describe("the profile service's lookups for the other interface parts", () => {
  it("finds the client and latest revision of an identity without case, and nothing for an unknown one", async () => {
    const client = await createClient();
    await revise(client.id, null, { sendingApplication: "CERNER", sendingFacility: "Lookup-Fac" });
    await revise(client.id, 1, { sendingApplication: "CERNER", sendingFacility: "Lookup-Fac", enabled: false });
    const found = await findProfileForIdentity(harness.database.db, "cerner", "LOOKUP-FAC");
    expect(found).toMatchObject({ clientId: client.id, profile: { revision: 2, enabled: false } });
    expect(await findProfileForIdentity(harness.database.db, "CERNER", "Nobody")).toBeUndefined();
    expect(await getCurrentInterfaceProfile(harness.database.db, client.id)).toMatchObject({ revision: 2 });
    expect(await getCurrentInterfaceProfile(harness.database.db, (await createClient()).id)).toBeUndefined();
  });
});
