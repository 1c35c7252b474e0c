import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { loadConfig } from "../config.js";
import { type Database, openDatabase } from "../db/client.js";
import { vigilSigningKeys } from "../db/schema.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";

/**
 * Two app instances on one database asked for Vigil's push signing key at the same moment, before any exists: one
 * key is made (the partial unique index decides, not a process's memory), both publish and sign with it. With
 * DATABASE_URL the second instance has its own PostgreSQL pool; on PGlite both share its one connection.
 */
let harness: TestApp;
let second: FastifyInstance;
let secondDatabase: Database;

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
});
afterAll(async () => {
  await second?.close();
  if (secondDatabase && secondDatabase !== harness.database) await secondDatabase.close();
  await harness?.close();
});

describe("Vigil's push signing key across two instances", () => {
  it("is made once when both ask at the same moment, and both publish the same key", async () => {
    const path = "/fhir/.well-known/jwks.json";
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        (index % 2 === 0 ? harness.app : second).inject({ method: "GET", url: path }),
      ),
    );
    const keys = await harness.database.db.select().from(vigilSigningKeys);
    expect(keys).toHaveLength(1);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      const jwks = answer.json() as { keys: Record<string, unknown>[] };
      expect(jwks.keys.map((key) => key.kid)).toEqual([keys[0]?.kid]);
      // Public halves only: the private scalar never leaves the server.
      expect(jwks.keys[0]).not.toHaveProperty("d");
      expect(jwks.keys[0]).toMatchObject({ kty: "EC", crv: "P-384", alg: "ES384", use: "sig" });
    }
  });
});
