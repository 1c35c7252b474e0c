import type { Client } from "@vigil/contract";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import { type Database, openDatabase } from "../db/client.js";
import { caseOrders, hl7Messages } from "../db/schema.js";
import { callerFor } from "../testing/kits/caller-kit.js";
import { sampleClient } from "../testing/kits/clients-kit.js";
import { hospitalKey, registerHospitalSystem, systemToken } from "../testing/kits/smart-kit.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";

/**
 * Two app instances on one database, each given the same hospital order at the same moment (a hospital's retry
 * landing on the other instance behind the load balancer): one case, one 201, the other 200 with the same
 * ServiceRequest — the advisory lock on (client, placer number) in PostgreSQL decides, not a process's memory. With
 * DATABASE_URL the second instance has its own pool; on PGlite both share its one connection.
 */
let harness: TestApp;
let second: FastifyInstance;
let secondDatabase: Database;
let client: Client;
let token: string;

beforeAll(async () => {
  harness = await createTestApp();
  const postgresUrl = loadConfig().databaseUrl;
  if (postgresUrl) {
    const result = await harness.database.db.execute(sql`select current_database() as name`);
    const url = new URL(postgresUrl);
    url.pathname = `/${(result as unknown as { rows: { name: string }[] }).rows[0]?.name}`;
    secondDatabase = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 4 });
  } else {
    secondDatabase = harness.database;
  }
  second = await buildApp({ config: harness.config, database: secondDatabase, logger: false });
  await second.ready();
  const admin = await callerFor(harness, "two-orders-admin", ["admin"]);
  client = (await admin("POST", "/clients", { body: sampleClient() })).json().data;
  const key = await hospitalKey();
  const system = await registerHospitalSystem(admin, client.id, { keys: [key], scopes: ["system/ServiceRequest.c"] });
  token = await systemToken(
    harness.app,
    harness.config.publicUrl,
    key,
    system.systemClientId,
    "system/ServiceRequest.c",
  );
}, 180_000);
afterAll(async () => {
  await second?.close();
  if (secondDatabase && secondDatabase !== harness.database) await secondDatabase.close();
  await harness.close();
});

function order(placer: string) {
  const system = `${harness.config.publicUrl}/fhir/sid/clients/${client.id}/mrn`;
  return JSON.stringify({
    resourceType: "ServiceRequest",
    contained: [
      {
        resourceType: "Patient",
        id: "p",
        identifier: [{ system, value: `MRN-${placer}` }],
        name: [{ family: "Ruiz", given: ["Ana"] }],
      },
    ],
    identifier: [{ value: placer }],
    status: "active",
    intent: "order",
    subject: { reference: "#p" },
  });
}

describe("FHIR orders across two instances", () => {
  it("makes one case of one order sent to both instances at once, with or without If-None-Exist", async () => {
    for (let round = 0; round < 4; round += 1) {
      const placer = `TWO-${round}`;
      const conditional = round % 2 === 0;
      const send = (app: FastifyInstance) =>
        app.inject({
          method: "POST",
          url: "/fhir/R4/ServiceRequest",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/fhir+json",
            ...(conditional ? { "if-none-exist": `identifier=${placer}` } : {}),
          },
          payload: order(placer),
        });
      const answers = await Promise.all([send(harness.app), send(second)]);
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses, answers.map((answer) => answer.body).join("\n")).toEqual(conditional ? [200, 201] : [201, 409]);
      const orders = await harness.database.db
        .select({ caseId: caseOrders.caseId })
        .from(caseOrders)
        .where(and(eq(caseOrders.clientId, client.id), eq(caseOrders.placerOrderNumber, placer)));
      expect(orders).toHaveLength(1);
      const created = answers.find((answer) => answer.statusCode === 201)?.json();
      expect(created.id).toBe(orders[0]?.caseId);
      if (conditional) expect(answers.map((answer) => answer.json().id)).toEqual([created.id, created.id]);
    }
    // Every create is a row of the client's message log, the refused ones too.
    const logged = await harness.database.db
      .select({ status: hl7Messages.status })
      .from(hl7Messages)
      .where(and(eq(hl7Messages.clientId, client.id), eq(hl7Messages.messageType, "FHIR ServiceRequest")));
    expect(logged.map((row) => row.status).sort()).toEqual([
      ...Array(6).fill("processed"),
      ...Array(2).fill("rejected"),
    ]);
  });
});
