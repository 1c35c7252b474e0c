import { spawn } from "node:child_process";
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
/** The test's own PostgreSQL database (DATABASE_URL's server), for a process of its own; undefined on PGlite. */
let databaseUrl: string | undefined;

beforeAll(async () => {
  harness = await createTestApp();
  const postgresUrl = loadConfig().databaseUrl;
  if (postgresUrl) {
    const result = await harness.database.db.execute(sql`select current_database() as name`);
    const url = new URL(postgresUrl);
    url.pathname = `/${(result as unknown as { rows: { name: string }[] }).rows[0]?.name}`;
    databaseUrl = url.toString();
    secondDatabase = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 4 });
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

function send(app: FastifyInstance, placer: string, conditional: boolean) {
  return app.inject({
    method: "POST",
    url: "/fhir/R4/ServiceRequest",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/fhir+json",
      ...(conditional ? { "if-none-exist": `identifier=${placer}` } : {}),
    },
    payload: order(placer),
  });
}

describe("FHIR orders across two instances", () => {
  it("makes one case of one order sent to both instances at once, with or without If-None-Exist", async () => {
    for (let round = 0; round < 4; round += 1) {
      const placer = `TWO-${round}`;
      const conditional = round % 2 === 0;
      const answers = await Promise.all([send(harness.app, placer, conditional), send(second, placer, conditional)]);
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

  it.skipIf(!loadConfig().databaseUrl)(
    "lets the next create through when a process holding an order's lock is killed (kill -9)",
    async () => {
      const placer = "KILLED-1";
      // A process of its own (psql) takes the order's lock in an open transaction, as an instance mid-create does.
      const holder = spawn("psql", [databaseUrl as string, "-X", "-q"], { stdio: ["pipe", "ignore", "ignore"] });
      holder.stdin.write(`begin; select pg_advisory_xact_lock(hashtext('vigil:order:${client.id}:${placer}'));\n`);
      const held = async () => {
        const result = await harness.database.db.execute(
          sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted
              and database = (select oid from pg_database where datname = current_database())`,
        );
        return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
      };
      await expect.poll(held, { timeout: 10_000 }).toBeGreaterThan(0);
      let settled = false;
      const pending = send(harness.app, placer, true).then((answer) => {
        settled = true;
        return answer;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(settled).toBe(false);
      holder.kill("SIGKILL");
      const answer = await pending;
      expect(answer.statusCode, answer.body).toBe(201);
      expect(await held()).toBe(0);
    },
    30_000,
  );
});
