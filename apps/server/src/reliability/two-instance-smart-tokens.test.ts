import type { Client } from "@vigil/contract";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import { type Database, openDatabase } from "../db/client.js";
import { authenticateSmartToken } from "../modules/fhir/smart-token-service.js";
import { type Caller, callerFor } from "../testing/kits/caller-kit.js";
import { sampleClient } from "../testing/kits/clients-kit.js";
import {
  type HospitalKey,
  hospitalKey,
  registerHospitalSystem,
  requestToken,
  signAssertion,
  systemToken,
  tokenFields,
  tokenUrlOf,
} from "../testing/kits/smart-kit.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";

/**
 * Two app instances on one database, as Vigil runs behind a load balancer: an assertion sent to both at the same
 * moment gives one token (the jti's primary key decides, not a process's memory); a token one instance issued is
 * honoured by the other; a registration changed through one ends the token on both. With DATABASE_URL the second
 * instance has its own PostgreSQL pool on the first's database; on PGlite both share its one connection.
 */
let harness: TestApp;
let second: FastifyInstance;
let secondDatabase: Database;
let admin: Caller;
let client: Client;
let key: HospitalKey;
let systemClientId: string;
let systemId: string;

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
  admin = await callerFor(harness, "two-smart-admin", ["admin"]);
  client = (await admin("POST", "/clients", { body: sampleClient() })).json().data;
  key = await hospitalKey("ES384");
  const system = await registerHospitalSystem(admin, client.id, { keys: [key] });
  systemClientId = system.systemClientId;
  systemId = system.id;
});
afterAll(async () => {
  await second?.close();
  if (secondDatabase && secondDatabase !== harness.database) await secondDatabase.close();
  await harness.close();
});

describe("SMART tokens across two instances", () => {
  it("gives one token for one assertion sent to both instances at once", async () => {
    for (let round = 0; round < 5; round += 1) {
      const fields = tokenFields(
        await signAssertion(key, systemClientId, tokenUrlOf(harness.config.publicUrl)),
        "system/Patient.rs",
      );
      const answers = await Promise.all([requestToken(harness.app, fields), requestToken(second, fields)]);
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses, answers.map((answer) => answer.body).join("\n")).toEqual([200, 401]);
      const refused = answers.find((answer) => answer.statusCode === 401);
      expect(refused?.json().error_description).toContain("jti");
    }
  });

  it("honours on one instance a token the other issued, and ends it on both when the registration changes", async () => {
    const token = await systemToken(harness.app, harness.config.publicUrl, key, systemClientId, "system/Patient.rs");
    expect(await authenticateSmartToken(secondDatabase.db, token)).toMatchObject({ clientId: client.id });
    const change = await second.inject({
      method: "PUT",
      url: `/api/continuous-monitoring/clients/${client.id}/fhir-systems/${systemId}`,
      headers: { authorization: `Bearer ${await harness.tokenFor("two-smart-admin-b", ["admin"])}` },
      payload: {
        name: "Hospital EHR",
        jwksUrl: null,
        jwks: { keys: [key.publicJwk] },
        scopes: ["system/DiagnosticReport.rs"],
        enabled: true,
        baseVersion: 1,
      },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect(await authenticateSmartToken(harness.database.db, token)).toBeUndefined();
    expect(await authenticateSmartToken(secondDatabase.db, token)).toBeUndefined();
  });
});
