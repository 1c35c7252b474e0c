import type { Client, Contact } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { auditRows, sampleClient, unknownId } from "../../testing/kits/clients-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let coordinator: Caller;
let technologist: Caller;

beforeAll(async () => {
  harness = await createTestApp();
  coordinator = await callerFor(harness, "contacts-coordinator", ["coordinator"]);
  technologist = await callerFor(harness, "contacts-technologist", ["technologist"]);
});
afterAll(() => harness.close());

async function createClient(): Promise<Client> {
  const response = await coordinator("POST", "/clients", { body: sampleClient() });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

const sampleContact = (overrides: Record<string, unknown> = {}) => ({
  name: "Dr. Ana Ortiz",
  role: "ICU attending",
  email: "ana.ortiz@riverside.example",
  phone: "+13125550111",
  ...overrides,
});

async function addContact(clientId: string, overrides: Record<string, unknown> = {}): Promise<Contact> {
  const response = await coordinator("POST", `/clients/${clientId}/contacts`, { body: sampleContact(overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

const listOf = async (clientId: string): Promise<Contact[]> =>
  (await technologist("GET", `/clients/${clientId}/contacts`)).json().data;

describe("POST clients/{id}/contacts", () => {
  it("adds a contact at version 1 with defaults, and audits contact.create", async () => {
    const client = await createClient();
    const response = await coordinator("POST", `/clients/${client.id}/contacts`, { body: sampleContact() });
    expect(response.statusCode).toBe(201);
    expect(response.headers.etag).toBe('"1"');
    const contact: Contact = response.json().data;
    expect(contact).toMatchObject({
      clientId: client.id,
      name: "Dr. Ana Ortiz",
      isPrimary: false,
      notifyOnCritical: false,
      notes: null,
      version: 1,
    });
    const [row] = await auditRows(harness, "contact.create", contact._id);
    expect(row).toMatchObject({ targetType: "contact", details: { clientId: client.id, name: "Dr. Ana Ortiz" } });
  });

  it("keeps at most one primary contact: a new primary clears the previous one", async () => {
    const client = await createClient();
    const first = await addContact(client.id, { name: "First", isPrimary: true });
    const second = await addContact(client.id, { name: "Second", isPrimary: true });
    const contacts = await listOf(client.id);
    expect(contacts.filter((contact) => contact.isPrimary).map((contact) => contact._id)).toEqual([second._id]);
    const demoted = contacts.find((contact) => contact._id === first._id);
    expect(demoted).toMatchObject({ isPrimary: false, version: 2 });
    const [row] = await auditRows(harness, "contact.create", second._id);
    expect(row?.details).toMatchObject({ previousPrimary: [first._id] });
  });

  it("keeps one primary when two are added at the same moment", async () => {
    const client = await createClient();
    await Promise.all([
      addContact(client.id, { name: "Racer A", isPrimary: true }),
      addContact(client.id, { name: "Racer B", isPrimary: true }),
    ]);
    expect((await listOf(client.id)).filter((contact) => contact.isPrimary)).toHaveLength(1);
  });

  it("answers 400 naming invalid fields", async () => {
    const client = await createClient();
    const response = await coordinator("POST", `/clients/${client.id}/contacts`, {
      body: { name: " ", email: "not-an-email", phone: "0101" },
    });
    expect(response.statusCode).toBe(400);
    const byPath = Object.fromEntries(
      response
        .json()
        .error.details.issues.map((issue: { path: string; message: string }) => [issue.path, issue.message]),
    );
    expect(byPath).toMatchObject({
      "body.name": "is required",
      "body.email": "must be an email address",
      "body.phone": "must be a phone number in international form, e.g. +15555550100",
    });
  });

  it("refuses a name or role with a control character with 400 naming the field, and keeps notes' line breaks", async () => {
    const client = await createClient();
    const refused = await coordinator("POST", `/clients/${client.id}/contacts`, {
      body: sampleContact({ name: "Ana\nBcc: x@example.org", role: "Neuro\tlogist" }),
    });
    expect(refused.statusCode).toBe(400);
    const paths = refused.json().error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(["body.name", "body.role"]);
    const kept = await coordinator("POST", `/clients/${client.id}/contacts`, {
      body: sampleContact({ notes: "Call first.\nThen page." }),
    });
    expect(kept.statusCode, kept.body).toBe(201);
    expect(kept.json().data.notes).toBe("Call first.\nThen page.");
  });

  it("needs a phone or email for a contact notified of critical findings", async () => {
    const client = await createClient();
    const response = await coordinator("POST", `/clients/${client.id}/contacts`, {
      body: { name: "No way to reach", notifyOnCritical: true },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.issues[0].path).toBe("body.notifyOnCritical");
  });

  it("answers 404 for an unknown client, 409 for an archived one, 403 for a technologist", async () => {
    expect((await coordinator("POST", `/clients/${unknownId}/contacts`, { body: sampleContact() })).statusCode).toBe(
      404,
    );
    const client = await createClient();
    await coordinator("DELETE", `/clients/${client.id}`);
    expect((await coordinator("POST", `/clients/${client.id}/contacts`, { body: sampleContact() })).statusCode).toBe(
      409,
    );
    const open = await createClient();
    expect((await technologist("POST", `/clients/${open.id}/contacts`, { body: sampleContact() })).statusCode).toBe(
      403,
    );
  });
});

describe("GET contacts", () => {
  it("lists the primary first, then by name, without removed contacts", async () => {
    const client = await createClient();
    await addContact(client.id, { name: "zed" });
    const primary = await addContact(client.id, { name: "Yara", isPrimary: true });
    await addContact(client.id, { name: "Abe" });
    const removed = await addContact(client.id, { name: "Gone" });
    await coordinator("DELETE", `/clients/${client.id}/contacts/${removed._id}`);
    const contacts = await listOf(client.id);
    expect(contacts.map((contact) => contact.name)).toEqual(["Yara", "Abe", "zed"]);
    expect(contacts[0]?._id).toBe(primary._id);
  });

  it("answers 404 listing the contacts of an unknown client", async () => {
    expect((await technologist("GET", `/clients/${unknownId}/contacts`)).statusCode).toBe(404);
  });

  it("reads one contact by id with its ETag, and 404 for unknown or removed ones", async () => {
    const client = await createClient();
    const contact = await addContact(client.id);
    const response = await technologist("GET", `/contacts/${contact._id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBe('"1"');
    expect(response.json().data).toEqual(contact);
    expect((await technologist("GET", `/contacts/${unknownId}`)).statusCode).toBe(404);
    await coordinator("DELETE", `/clients/${client.id}/contacts/${contact._id}`);
    expect((await technologist("GET", `/contacts/${contact._id}`)).statusCode).toBe(404);
  });
});

describe("PUT clients/{id}/contacts/{contactId}", () => {
  it("replaces the contact with If-Match, audits the changes, and sends the new ETag", async () => {
    const client = await createClient();
    const contact = await addContact(client.id, { notes: "Pager only" });
    const response = await coordinator("PUT", `/clients/${client.id}/contacts/${contact._id}`, {
      ifMatch: '"1"',
      body: sampleContact({ role: "Neurology fellow" }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers.etag).toBe('"2"');
    expect(response.json().data).toMatchObject({ role: "Neurology fellow", notes: null, version: 2 });
    const [row] = await auditRows(harness, "contact.update", contact._id);
    expect(row?.details).toMatchObject({
      changes: { role: { from: "ICU attending", to: "Neurology fellow" }, notes: { from: "Pager only", to: null } },
    });
  });

  it("making a contact primary clears the other primary in the same change", async () => {
    const client = await createClient();
    const old = await addContact(client.id, { name: "Old primary", isPrimary: true });
    const next = await addContact(client.id, { name: "Next primary" });
    const response = await coordinator("PUT", `/clients/${client.id}/contacts/${next._id}`, {
      ifMatch: 1,
      body: sampleContact({ name: "Next primary", isPrimary: true }),
    });
    expect(response.statusCode).toBe(200);
    const contacts = await listOf(client.id);
    expect(contacts.filter((contact) => contact.isPrimary).map((contact) => contact._id)).toEqual([next._id]);
    expect(contacts.find((contact) => contact._id === old._id)?.isPrimary).toBe(false);
  });

  it("answers 428 without If-Match and 412 with the current contact when stale", async () => {
    const client = await createClient();
    const contact = await addContact(client.id);
    const url = `/clients/${client.id}/contacts/${contact._id}`;
    expect((await coordinator("PUT", url, { body: sampleContact() })).statusCode).toBe(428);
    expect((await coordinator("PUT", url, { ifMatch: 1, body: sampleContact({ name: "Winner" }) })).statusCode).toBe(
      200,
    );
    const stale = await coordinator("PUT", url, { ifMatch: 1, body: sampleContact({ name: "Loser" }) });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.details).toMatchObject({ currentVersion: 2, current: { name: "Winner" } });
    expect((await technologist("GET", `/contacts/${contact._id}`)).json().data.name).toBe("Winner");
  });

  it("answers 404 for a contact of another client", async () => {
    const client = await createClient();
    const other = await createClient();
    const contact = await addContact(other.id);
    const response = await coordinator("PUT", `/clients/${client.id}/contacts/${contact._id}`, {
      ifMatch: 1,
      body: sampleContact(),
    });
    expect(response.statusCode).toBe(404);
  });

  it("refuses a technologist with 403", async () => {
    const client = await createClient();
    const contact = await addContact(client.id);
    const response = await technologist("PUT", `/clients/${client.id}/contacts/${contact._id}`, {
      ifMatch: 1,
      body: sampleContact(),
    });
    expect(response.statusCode).toBe(403);
  });
});

describe("DELETE clients/{id}/contacts/{contactId}", () => {
  it("marks the contact removed with 204 and audits contact.remove", async () => {
    const client = await createClient();
    const contact = await addContact(client.id, { isPrimary: true });
    const response = await coordinator("DELETE", `/clients/${client.id}/contacts/${contact._id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe("");
    expect(await listOf(client.id)).toEqual([]);
    const [row] = await auditRows(harness, "contact.remove", contact._id);
    expect(row).toMatchObject({
      actorUsername: "contacts-coordinator",
      details: { clientId: client.id, name: contact.name, wasPrimary: true },
    });
  });

  it("answers 404 when removing twice or an unknown contact", async () => {
    const client = await createClient();
    const contact = await addContact(client.id);
    await coordinator("DELETE", `/clients/${client.id}/contacts/${contact._id}`);
    expect((await coordinator("DELETE", `/clients/${client.id}/contacts/${contact._id}`)).statusCode).toBe(404);
    expect((await coordinator("DELETE", `/clients/${client.id}/contacts/${unknownId}`)).statusCode).toBe(404);
  });

  it("refuses removals from an archived client (409) and by a technologist (403)", async () => {
    const client = await createClient();
    const contact = await addContact(client.id);
    expect((await technologist("DELETE", `/clients/${client.id}/contacts/${contact._id}`)).statusCode).toBe(403);
    await coordinator("DELETE", `/clients/${client.id}`);
    expect((await coordinator("DELETE", `/clients/${client.id}/contacts/${contact._id}`)).statusCode).toBe(409);
    expect(await listOf(client.id)).toHaveLength(1);
  });
});
