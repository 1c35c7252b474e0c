import type { Client, UsefulLink } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { auditRows, sampleClient, unknownId } from "../../testing/kits/clients-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let coordinator: Caller;
let technologist: Caller;

beforeAll(async () => {
  harness = await createTestApp();
  coordinator = await callerFor(harness, "links-coordinator", ["coordinator"]);
  technologist = await callerFor(harness, "links-technologist", ["technologist"]);
});
afterAll(() => harness.close());

async function createClient(): Promise<Client> {
  const response = await coordinator("POST", "/clients", { body: sampleClient() });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

const sampleLink = (overrides: Record<string, unknown> = {}) => ({
  title: "PACS viewer",
  url: "https://pacs.riverside.example/viewer",
  description: "Imaging for the ICU",
  ...overrides,
});

async function addLink(clientId: string, overrides: Record<string, unknown> = {}): Promise<UsefulLink> {
  const response = await coordinator("POST", `/clients/${clientId}/useful-links`, { body: sampleLink(overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

describe("useful links", () => {
  it("adds a link at version 1 and audits link.create", async () => {
    const client = await createClient();
    const response = await coordinator("POST", `/clients/${client.id}/useful-links`, { body: sampleLink() });
    expect(response.statusCode).toBe(201);
    expect(response.headers.etag).toBe('"1"');
    const link: UsefulLink = response.json().data;
    expect(link).toMatchObject({ clientId: client.id, title: "PACS viewer", version: 1 });
    expect(await auditRows(harness, "link.create", link._id)).toHaveLength(1);
  });

  it("refuses links that are not http or https, naming the url field", async () => {
    const client = await createClient();
    for (const url of ["javascript:alert(1)", "ftp://files.example/x", "data:text/html,hi"]) {
      const response = await coordinator("POST", `/clients/${client.id}/useful-links`, { body: sampleLink({ url }) });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.details.issues).toContainEqual({
        path: "body.url",
        message: "must be a web address starting with http:// or https://",
      });
    }
  });

  it("lists links by title, without removed ones; 404 for an unknown client", async () => {
    const client = await createClient();
    await addLink(client.id, { title: "Scheduling" });
    await addLink(client.id, { title: "bed board" });
    const removed = await addLink(client.id, { title: "Old intranet" });
    await coordinator("DELETE", `/clients/${client.id}/useful-links/${removed._id}`);
    const response = await technologist("GET", `/clients/${client.id}/useful-links`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((link: UsefulLink) => link.title)).toEqual(["bed board", "Scheduling"]);
    expect((await technologist("GET", `/clients/${unknownId}/useful-links`)).statusCode).toBe(404);
  });

  it("replaces a link with If-Match and audits the change", async () => {
    const client = await createClient();
    const link = await addLink(client.id);
    const response = await coordinator("PUT", `/clients/${client.id}/useful-links/${link._id}`, {
      ifMatch: '"1"',
      body: sampleLink({ url: "https://pacs2.riverside.example/" }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers.etag).toBe('"2"');
    expect(response.json().data).toMatchObject({ url: "https://pacs2.riverside.example/", version: 2 });
    const [row] = await auditRows(harness, "link.update", link._id);
    expect(row?.details).toMatchObject({
      changes: { url: { from: "https://pacs.riverside.example/viewer", to: "https://pacs2.riverside.example/" } },
    });
  });

  it("answers 428 without If-Match, 412 when stale and 404 for a link of another client", async () => {
    const client = await createClient();
    const link = await addLink(client.id);
    const url = `/clients/${client.id}/useful-links/${link._id}`;
    expect((await coordinator("PUT", url, { body: sampleLink() })).statusCode).toBe(428);
    await coordinator("PUT", url, { ifMatch: 1, body: sampleLink({ title: "Winner" }) });
    const stale = await coordinator("PUT", url, { ifMatch: 1, body: sampleLink({ title: "Loser" }) });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.details).toMatchObject({ currentVersion: 2, current: { title: "Winner" } });
    const other = await createClient();
    const elsewhere = await coordinator("PUT", `/clients/${other.id}/useful-links/${link._id}`, {
      ifMatch: 2,
      body: sampleLink(),
    });
    expect(elsewhere.statusCode).toBe(404);
  });

  it("removes a link with 204 and audits link.remove", async () => {
    const client = await createClient();
    const link = await addLink(client.id);
    const response = await coordinator("DELETE", `/clients/${client.id}/useful-links/${link._id}`);
    expect(response.statusCode).toBe(204);
    const [row] = await auditRows(harness, "link.remove", link._id);
    expect(row?.details).toMatchObject({ clientId: client.id, title: "PACS viewer" });
    expect((await coordinator("DELETE", `/clients/${client.id}/useful-links/${link._id}`)).statusCode).toBe(404);
  });

  it("refuses technologists (403) and writes to archived clients (409)", async () => {
    const client = await createClient();
    const link = await addLink(client.id);
    expect((await technologist("POST", `/clients/${client.id}/useful-links`, { body: sampleLink() })).statusCode).toBe(
      403,
    );
    expect(
      (await technologist("PUT", `/clients/${client.id}/useful-links/${link._id}`, { ifMatch: 1, body: sampleLink() }))
        .statusCode,
    ).toBe(403);
    expect((await technologist("DELETE", `/clients/${client.id}/useful-links/${link._id}`)).statusCode).toBe(403);
    await coordinator("DELETE", `/clients/${client.id}`);
    expect((await coordinator("POST", `/clients/${client.id}/useful-links`, { body: sampleLink() })).statusCode).toBe(
      409,
    );
    expect(
      (await coordinator("PUT", `/clients/${client.id}/useful-links/${link._id}`, { ifMatch: 1, body: sampleLink() }))
        .statusCode,
    ).toBe(409);
    expect((await coordinator("DELETE", `/clients/${client.id}/useful-links/${link._id}`)).statusCode).toBe(409);
  });
});
