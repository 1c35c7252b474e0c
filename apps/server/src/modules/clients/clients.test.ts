import type { CaseStage, Client } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases } from "../../db/schema.js";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { auditRows, sampleClient, unknownId } from "../../testing/kits/clients-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let admin: Caller;
let coordinator: Caller;
let technologist: Caller;
let developer: Caller;

beforeAll(async () => {
  harness = await createTestApp();
  admin = await callerFor(harness, "clients-admin", ["admin"]);
  coordinator = await callerFor(harness, "clients-coordinator", ["coordinator"]);
  technologist = await callerFor(harness, "clients-technologist", ["technologist"]);
  developer = await callerFor(harness, "clients-developer", ["developer"]);
});
afterAll(() => harness.close());

async function createClient(overrides: Parameters<typeof sampleClient>[0] = {}): Promise<Client> {
  const response = await coordinator("POST", "/clients", { body: sampleClient(overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

let caseCounter = 0;
async function addCase(clientId: string, stage: CaseStage) {
  caseCounter += 1;
  const [row] = await harness.database.db
    .insert(cases)
    .values({ caseNumber: `CM-2026-9${String(caseCounter).padStart(5, "0")}`, clientId, studyType: "icu-ceeg", stage })
    .returning();
  return row as typeof cases.$inferSelect;
}

describe("POST clients", () => {
  it("creates a client at version 1 with an ETag, an upper-cased code and no open cases", async () => {
    const response = await coordinator("POST", "/clients", {
      body: sampleClient({ name: "Northgate Hospital", code: "ngh-1", notes: "  ICU on 4th floor  " }),
    });
    expect(response.statusCode).toBe(201);
    const client: Client = response.json().data;
    expect(client).toMatchObject({
      name: "Northgate Hospital",
      code: "NGH-1",
      status: "active",
      timezone: "America/Chicago",
      notes: "ICU on 4th floor",
      addressLine1: null,
      archivedAt: null,
      openCaseCount: 0,
      version: 1,
    });
    expect(response.headers.etag).toBe('"1"');
  });

  it("records client.create in the audit log with the actor", async () => {
    const client = await createClient();
    const [row] = await auditRows(harness, "client.create", client.id);
    expect(row).toMatchObject({
      outcome: "success",
      actorUsername: "clients-coordinator",
      targetType: "client",
      details: { name: client.name, code: client.code },
    });
  });

  it("writes the audit row in the same transaction as the change", async () => {
    const client = await createClient();
    const updated = await coordinator("PUT", `/clients/${client.id}`, {
      ifMatch: 1,
      body: sampleClient({ code: client.code }),
    });
    // now() is the transaction's start time: equal timestamps mean one transaction.
    expect((await auditRows(harness, "client.create", client.id))[0]?.at.toISOString()).toBe(client.createdAt);
    expect((await auditRows(harness, "client.update", client.id))[0]?.at.toISOString()).toBe(
      updated.json().data.updatedAt,
    );
  });

  it("writes no audit row for a refused change", async () => {
    const client = await createClient({ code: "AUDIT-1" });
    await coordinator("POST", "/clients", { body: sampleClient({ code: "AUDIT-1" }) });
    await coordinator("PUT", `/clients/${client.id}`, { ifMatch: 7, body: sampleClient({ code: client.code }) });
    const created = (await auditRows(harness, "client.create")).filter(
      (row) => (row.details as { code: string }).code === "AUDIT-1",
    );
    expect(created).toHaveLength(1);
    expect(await auditRows(harness, "client.update", client.id)).toEqual([]);
  });

  it("refuses a taken code, whatever its case, with 409 naming the code field", async () => {
    await createClient({ code: "TAKEN-1" });
    const response = await coordinator("POST", "/clients", { body: sampleClient({ code: "taken-1" }) });
    expect(response.statusCode).toBe(409);
    const error = response.json().error;
    expect(error.code).toBe("conflict");
    expect(error.message).toContain("TAKEN-1");
    expect(error.details.field).toBe("code");
    expect(error.details.issues[0].path).toBe("body.code");
  });

  it("refuses a second client created at the same moment with the same code", async () => {
    const body = sampleClient({ code: "RACE-1" });
    const answers = await Promise.all([
      coordinator("POST", "/clients", { body }),
      coordinator("POST", "/clients", { body }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
  });

  it("answers 400 naming each invalid field", async () => {
    const response = await coordinator("POST", "/clients", {
      body: { name: "", code: "x", timezone: "Mars/Olympus", phone: "555-0100" },
    });
    expect(response.statusCode).toBe(400);
    const issues: { path: string; message: string }[] = response.json().error.details.issues;
    const byPath = Object.fromEntries(issues.map((issue) => [issue.path, issue.message]));
    expect(byPath["body.name"]).toBe("is required");
    expect(byPath["body.code"]).toBe("must be 2–16 letters, digits or dashes");
    expect(byPath["body.timezone"]).toBe("must be an IANA time zone such as America/Chicago");
    expect(byPath["body.phone"]).toContain("international form");
  });

  it("refuses a name with a line break (it would reach e-mail and SMS bodies) with 400 naming body.name", async () => {
    const response = await coordinator("POST", "/clients", {
      body: sampleClient({ name: "Inject Hosp\r\nBcc: x@example.org" }),
    });
    expect(response.statusCode, response.body).toBe(400);
    const issues: { path: string; message: string }[] = response.json().error.details.issues;
    expect(issues).toEqual([
      { path: "body.name", message: "must be a single line, without line breaks, tabs or other control characters" },
    ]);
    expect(response.json().error.message).toContain("body.name");
  });

  it("lets a technologist read but not create (403)", async () => {
    const response = await technologist("POST", "/clients", { body: sampleClient() });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe("Access denied");
  });
});

describe("GET clients/{id}", () => {
  it("returns the client with its version as ETag and its open case count", async () => {
    const client = await createClient();
    await addCase(client.id, "monitoring");
    await addCase(client.id, "preview");
    await addCase(client.id, "closed");
    const response = await technologist("GET", `/clients/${client.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBe('"1"');
    expect(response.json().data).toMatchObject({ id: client.id, openCaseCount: 2 });
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    const missing = await technologist("GET", `/clients/${unknownId}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toContain(unknownId);
    const malformed = await technologist("GET", "/clients/not-an-id");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.details.issues[0]).toEqual({ path: "params.id", message: "must be a valid id" });
  });

  it("refuses callers without clients:read", async () => {
    const client = await createClient();
    expect((await developer("GET", `/clients/${client.id}`)).statusCode).toBe(403);
  });
});

describe("PUT clients/{id}", () => {
  it("replaces the fields with the right If-Match, moves to the next version and audits the changes", async () => {
    const client = await createClient({ city: "Chicago" });
    const response = await coordinator("PUT", `/clients/${client.id}`, {
      ifMatch: '"1"',
      body: sampleClient({ name: "Renamed Hospital", code: client.code, city: "Evanston", status: "inactive" }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers.etag).toBe('"2"');
    expect(response.json().data).toMatchObject({
      name: "Renamed Hospital",
      city: "Evanston",
      status: "inactive",
      version: 2,
    });
    const [row] = await auditRows(harness, "client.update", client.id);
    expect(row?.details).toMatchObject({
      version: 2,
      changes: {
        name: { from: client.name, to: "Renamed Hospital" },
        city: { from: "Chicago", to: "Evanston" },
        status: { from: "active", to: "inactive" },
      },
    });
    expect((row?.details as { changes: object }).changes).not.toHaveProperty("timezone");
  });

  it("accepts a bare version number in If-Match", async () => {
    const client = await createClient();
    const response = await coordinator("PUT", `/clients/${client.id}`, {
      ifMatch: 1,
      body: sampleClient({ code: client.code }),
    });
    expect(response.statusCode).toBe(200);
  });

  it("answers 428 without If-Match and changes nothing", async () => {
    const client = await createClient();
    const response = await coordinator("PUT", `/clients/${client.id}`, { body: sampleClient({ code: client.code }) });
    expect(response.statusCode).toBe(428);
    expect(response.json().error.code).toBe("precondition_required");
    expect((await coordinator("GET", `/clients/${client.id}`)).json().data.name).toBe(client.name);
  });

  it("answers 412 with the current client when the version is stale, and changes nothing", async () => {
    const client = await createClient();
    const first = await coordinator("PUT", `/clients/${client.id}`, {
      ifMatch: '"1"',
      body: sampleClient({ code: client.code, name: "First writer" }),
    });
    expect(first.statusCode).toBe(200);
    const second = await coordinator("PUT", `/clients/${client.id}`, {
      ifMatch: '"1"',
      body: sampleClient({ code: client.code, name: "Second writer" }),
    });
    expect(second.statusCode).toBe(412);
    const error = second.json().error;
    expect(error.code).toBe("precondition_failed");
    expect(error.details.currentVersion).toBe(2);
    expect(error.details.current).toMatchObject({ name: "First writer", version: 2 });
    expect(second.headers.etag).toBe('"2"');
    expect((await coordinator("GET", `/clients/${client.id}`)).json().data.name).toBe("First writer");
  });

  it("answers 400 naming If-Match when it is not a version", async () => {
    const client = await createClient();
    const response = await coordinator("PUT", `/clients/${client.id}`, {
      ifMatch: "yesterday",
      body: sampleClient({ code: client.code }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.issues[0].path).toBe("headers.if-match");
  });

  it("refuses taking another client's code with 409 naming the code field", async () => {
    const other = await createClient({ code: "OTHER-1" });
    const client = await createClient();
    const response = await coordinator("PUT", `/clients/${client.id}`, {
      ifMatch: 1,
      body: sampleClient({ code: other.code.toLowerCase() }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.details.field).toBe("code");
  });

  it("answers 404 for an unknown client", async () => {
    const response = await coordinator("PUT", `/clients/${unknownId}`, { ifMatch: 1, body: sampleClient() });
    expect(response.statusCode).toBe(404);
  });

  it("refuses a technologist with 403", async () => {
    const client = await createClient();
    const response = await technologist("PUT", `/clients/${client.id}`, { ifMatch: 1, body: sampleClient() });
    expect(response.statusCode).toBe(403);
  });
});

describe("DELETE clients/{id} (archive) and POST clients/{id}/restore", () => {
  it("refuses to archive a client with open cases with a clear 409", async () => {
    const client = await createClient();
    await addCase(client.id, "intake");
    await addCase(client.id, "closed");
    const response = await coordinator("DELETE", `/clients/${client.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(`${client.name} has 1 open case; close it before archiving the client.`);
    expect(response.json().error.details).toEqual({ openCaseCount: 1 });
    expect((await coordinator("GET", `/clients/${client.id}`)).json().data.archivedAt).toBeNull();
  });

  it("archives a client whose cases are all closed, hides it from lists and pickers, and audits it", async () => {
    const client = await createClient({ name: "Zeta Archive Hospital" });
    await addCase(client.id, "closed");
    const response = await coordinator("DELETE", `/clients/${client.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.archivedAt).not.toBeNull();
    expect(response.json().data.version).toBe(2);

    const listed = await coordinator("GET", "/clients?search=Zeta%20Archive");
    expect(listed.json().data.total).toBe(0);
    const ids = await coordinator("GET", "/clients/ids");
    expect(ids.json().data.map((entry: { id: string }) => entry.id)).not.toContain(client.id);
    const archived = await coordinator("GET", "/clients?status=archived&search=Zeta%20Archive");
    expect(archived.json().data.items.map((item: Client) => item.id)).toEqual([client.id]);
    // Still readable by id: its cases and history point at it.
    expect((await technologist("GET", `/clients/${client.id}`)).statusCode).toBe(200);
    expect(await auditRows(harness, "client.archive", client.id)).toHaveLength(1);
  });

  it("refuses writes to an archived client with 409", async () => {
    const client = await createClient();
    await coordinator("DELETE", `/clients/${client.id}`);
    const update = await coordinator("PUT", `/clients/${client.id}`, {
      ifMatch: 2,
      body: sampleClient({ code: client.code }),
    });
    expect(update.statusCode).toBe(409);
    expect(update.json().error.message).toContain("archived");
    const again = await coordinator("DELETE", `/clients/${client.id}`);
    expect(again.statusCode).toBe(409);
  });

  it("lets an administrator restore an archived client, and audits it", async () => {
    const client = await createClient();
    await coordinator("DELETE", `/clients/${client.id}`);
    const response = await admin("POST", `/clients/${client.id}/restore`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ archivedAt: null, version: 3 });
    expect(response.headers.etag).toBe('"3"');
    expect(await auditRows(harness, "client.restore", client.id)).toHaveLength(1);
  });

  it("refuses restore by a coordinator with 403", async () => {
    const client = await createClient();
    await coordinator("DELETE", `/clients/${client.id}`);
    const response = await coordinator("POST", `/clients/${client.id}/restore`);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe("Access denied");
  });

  it("answers 409 when restoring a client that is not archived and 404 for an unknown one", async () => {
    const client = await createClient();
    expect((await admin("POST", `/clients/${client.id}/restore`)).statusCode).toBe(409);
    expect((await admin("POST", `/clients/${unknownId}/restore`)).statusCode).toBe(404);
    expect((await coordinator("DELETE", `/clients/${unknownId}`)).statusCode).toBe(404);
  });

  it("refuses archiving by a technologist with 403", async () => {
    const client = await createClient();
    expect((await technologist("DELETE", `/clients/${client.id}`)).statusCode).toBe(403);
  });
});

describe("GET clients", () => {
  let prefix: string;
  beforeAll(async () => {
    prefix = "Listing";
    await createClient({ name: `${prefix} Alpha`, code: "LST-ALPHA" });
    await createClient({ name: `${prefix} bravo`, code: "LST-BRAVO", status: "inactive" });
    await createClient({ name: `${prefix} Charlie`, code: "LST-CHARLIE" });
    const gone = await createClient({ name: `${prefix} Delta`, code: "LST-DELTA" });
    await coordinator("DELETE", `/clients/${gone.id}`);
  });

  const names = (response: { json: () => { data: { items: Client[] } } }) =>
    response.json().data.items.map((item) => item.name);

  it("pages and sorts by name, case-insensitively, hiding archived clients", async () => {
    const first = await technologist("GET", `/clients?search=${prefix}&limit=2`);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(names(first)).toEqual([`${prefix} Alpha`, `${prefix} bravo`]);
    const second = await technologist("GET", `/clients?search=${prefix}&limit=2&offset=2`);
    expect(names(second)).toEqual([`${prefix} Charlie`]);
  });

  it("sorts descending on request", async () => {
    const response = await technologist("GET", `/clients?search=${prefix}&sort=code&order=desc`);
    expect(names(response)).toEqual([`${prefix} Charlie`, `${prefix} bravo`, `${prefix} Alpha`]);
  });

  it("searches by code as well as by name, case-insensitively", async () => {
    expect(names(await technologist("GET", "/clients?search=lst-char"))).toEqual([`${prefix} Charlie`]);
  });

  it("treats % and _ in a search as plain characters", async () => {
    expect((await technologist("GET", "/clients?search=%25")).json().data.total).toBe(0);
  });

  it("filters by status", async () => {
    expect(names(await technologist("GET", `/clients?search=${prefix}&status=inactive`))).toEqual([`${prefix} bravo`]);
    expect(names(await technologist("GET", `/clients?search=${prefix}&status=active`))).toEqual([
      `${prefix} Alpha`,
      `${prefix} Charlie`,
    ]);
    expect(names(await technologist("GET", `/clients?search=${prefix}&status=archived`))).toEqual([`${prefix} Delta`]);
  });

  it("fills in the open case count of each client on the page", async () => {
    const client = await createClient({ name: "Counted Clinic" });
    await addCase(client.id, "reviewed");
    const response = await technologist("GET", "/clients?search=Counted%20Clinic");
    expect(response.json().data.items[0].openCaseCount).toBe(1);
  });

  it("answers 400 naming a bad query parameter", async () => {
    const response = await technologist("GET", "/clients?limit=500&status=gone");
    expect(response.statusCode).toBe(400);
    const paths = response.json().error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["querystring.limit", "querystring.status"]));
  });
});

describe("GET clients/ids", () => {
  it("lists id, name and code of active, non-archived clients only", async () => {
    const active = await createClient({ name: "Picker Active" });
    const inactive = await createClient({ name: "Picker Inactive", status: "inactive" });
    const response = await technologist("GET", "/clients/ids");
    expect(response.statusCode).toBe(200);
    const entries: { id: string; name: string; code: string }[] = response.json().data;
    expect(entries).toContainEqual({ id: active.id, name: "Picker Active", code: active.code });
    expect(entries.map((entry) => entry.id)).not.toContain(inactive.id);
  });
});

describe("GET clients/{id}/cases", () => {
  it("pages the client's cases newest first and filters by stage", async () => {
    const client = await createClient();
    const older = await addCase(client.id, "intake");
    await new Promise((resolve) => setTimeout(resolve, 5));
    const newer = await addCase(client.id, "closed");
    const response = await technologist("GET", `/clients/${client.id}/cases`);
    expect(response.statusCode).toBe(200);
    const page = response.json().data;
    expect(page.total).toBe(2);
    expect(page.items.map((item: { id: string }) => item.id)).toEqual([newer.id, older.id]);
    expect(page.items[1]).toMatchObject({ caseNumber: older.caseNumber, stage: "intake", studyType: "icu-ceeg" });
    const closed = await technologist("GET", `/clients/${client.id}/cases?stage=closed`);
    expect(closed.json().data.items.map((item: { id: string }) => item.id)).toEqual([newer.id]);
  });

  it("is an empty page for a client without cases and 404 for an unknown client", async () => {
    const client = await createClient();
    expect((await technologist("GET", `/clients/${client.id}/cases`)).json().data).toEqual({
      items: [],
      total: 0,
      limit: 50,
      offset: 0,
    });
    expect((await technologist("GET", `/clients/${unknownId}/cases`)).statusCode).toBe(404);
  });

  it("needs cases:read", async () => {
    const client = await createClient();
    expect((await developer("GET", `/clients/${client.id}/cases`)).statusCode).toBe(403);
  });
});
