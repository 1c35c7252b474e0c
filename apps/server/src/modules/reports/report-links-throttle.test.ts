import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { loadConfig } from "../../config.js";
import { type Database, openDatabase, queryRows } from "../../db/client.js";
import { auditEvents } from "../../db/schema.js";
import { type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { clientNamingRecipients, linkCall, reportTokensFor, signedCase } from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/*
 * The public links' one gate (links/link-calls.ts), as a hospital behind one NAT meets it: forged tokens count against
 * the address (404, then 429 with Retry-After), a genuine link is never refused for anyone else's calls from that
 * address, a flood of refusals is one audit row with a count, and nothing a caller sends is stored beyond 512
 * characters.
 */

// Above the team's own sign-ins, which the identity endpoint counts on the same setting.
const limit = 25;
const forged = `${"ab".repeat(16)}.mg3k2x.${"A".repeat(43)}`;

let harness: TestApp;
let team: Team;
let genuine: string;

beforeAll(async () => {
  harness = await createTestApp({ IDENTITY_REQUESTS_PER_IP: String(limit) });
  team = await teamFor(harness, "gate");
  const { client } = await clientNamingRecipients(team);
  await signedCase(harness, team, client.id);
  [genuine = ""] = await reportTokensFor(harness, `nia.${client.id.slice(0, 8)}@hospital.example`);
}, 60_000);
afterAll(() => harness.close());

function findingLinkCall(app: FastifyInstance, ip: string) {
  return app.inject({
    method: "POST",
    url: "/api/finding-links/lookup",
    payload: { token: forged },
    remoteAddress: ip,
  });
}

function refusalRows(ip: string) {
  return harness.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.ip, ip), sql`${auditEvents.details}->>'reason' in ('invalid', 'throttled')`));
}

describe("the public links' gate", () => {
  it("answers forged tokens 404 then 429 with Retry-After, yet opens a genuine link from the same address", async () => {
    const ip = "198.51.100.20";
    const statuses: number[] = [];
    for (let call = 0; call <= limit; call += 1) {
      statuses.push((await linkCall(harness, "lookup", forged, { ip })).statusCode);
    }
    expect(statuses).toEqual([...Array(limit).fill(404), 429]);
    const refused = await linkCall(harness, "download", forged, { ip });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // The acknowledgement links share the address's count and answer alike.
    const finding = await findingLinkCall(harness.app, ip);
    expect(finding.statusCode).toBe(429);
    expect(Number(finding.headers["retry-after"])).toBeGreaterThan(0);

    // The clinician behind the same NAT holds a genuine link: it opens.
    const lookup = await linkCall(harness, "lookup", genuine, { ip });
    expect(lookup.statusCode, lookup.body).toBe(200);
    // Another address is untouched by the first one's refusals.
    expect((await linkCall(harness, "lookup", forged, { ip: "198.51.100.21" })).statusCode).toBe(404);
  });

  it("records a flood of forged calls from one address as one row per action and window, with its count", async () => {
    const ip = "198.51.100.30";
    for (let call = 0; call < limit; call += 1) await linkCall(harness, "lookup", forged, { ip });
    for (let call = 0; call < 5; call += 1) await linkCall(harness, "lookup", forged, { ip });
    const rows = await refusalRows(ip);
    const counts = rows.map((row) => [row.action, (row.details as { reason: string }).reason, row.repeatCount]);
    // Unless the minute turned during the calls, which splits a count over two windows' rows.
    const total = (reason: string) =>
      counts.filter(([, why]) => why === reason).reduce((sum, [, , count]) => sum + Number(count), 0);
    expect(total("invalid")).toBe(limit);
    expect(total("throttled")).toBe(5);
    expect(rows.length).toBeLessThanOrEqual(4);
    expect(rows.every((row) => row.action === "report-link.lookup" && row.actorUsername === null)).toBe(true);
  });

  it("records a spent link asked again and again as one counted refusal per window", async () => {
    const { client } = await clientNamingRecipients(team);
    const { caseId } = await signedCase(harness, team, client.id);
    const [spent = ""] = await reportTokensFor(harness, `nia.${client.id.slice(0, 8)}@hospital.example`);
    const ip = "198.51.100.70";
    expect((await linkCall(harness, "download", spent, { ip })).statusCode).toBe(200);
    for (let call = 0; call < 6; call += 1) {
      expect((await linkCall(harness, "lookup", spent, { ip })).statusCode).toBe(410);
    }
    const rows = await harness.database.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, "report-link.lookup"),
          eq(auditEvents.targetId, caseId),
          sql`${auditEvents.details}->>'refused' = 'used'`,
        ),
      );
    // One row, or two when the minute turned during the calls.
    expect(rows.length).toBeLessThanOrEqual(2);
    expect(rows.reduce((sum, row) => sum + row.repeatCount, 0)).toBe(6);
  });

  it("limits a genuine link only by its own calls, answering its holder 429 with Retry-After past the limit", async () => {
    const { client } = await clientNamingRecipients(team);
    await signedCase(harness, team, client.id);
    const [own = ""] = await reportTokensFor(harness, `nia.${client.id.slice(0, 8)}@hospital.example`);
    const statuses: number[] = [];
    for (let call = 0; call <= limit; call += 1) {
      statuses.push((await linkCall(harness, "lookup", own, { ip: `198.51.${101 + call}.40` })).statusCode);
    }
    expect(statuses).toEqual([...Array(limit).fill(200), 429]);
    const again = await linkCall(harness, "lookup", own, { ip: "198.51.100.49" });
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("stores no more than 512 characters of the caller's User-Agent, whether the call is refused or not", async () => {
    const userAgent = `probe/${"x".repeat(15_000)}`;
    const ip = "198.51.100.50";
    expect((await linkCall(harness, "lookup", forged, { ip, userAgent })).statusCode).toBe(404);
    const [row] = await refusalRows(ip);
    expect(row?.userAgent).toHaveLength(512);
    const { client } = await clientNamingRecipients(team);
    const { caseId } = await signedCase(harness, team, client.id);
    const [token = ""] = await reportTokensFor(harness, `nia.${client.id.slice(0, 8)}@hospital.example`);
    expect((await linkCall(harness, "lookup", token, { ip, userAgent })).statusCode).toBe(200);
    const [success] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "report-link.lookup"), eq(auditEvents.targetId, caseId)));
    expect(success?.userAgent).toHaveLength(512);
  });
});

/**
 * Two instances on one PostgreSQL database, as behind a load balancer: the address's refusals counted on one bind the
 * other, and neither refuses the genuine link. PGlite admits one process per data folder, so this needs DATABASE_URL.
 */
const postgresUrl = loadConfig().databaseUrl;

describe.skipIf(!postgresUrl)("the links' gate on two instances of one PostgreSQL database", () => {
  let second: Database;
  let secondApp: FastifyInstance;

  beforeAll(async () => {
    const [current] = await queryRows<{ name: string }>(harness.database.db, sql`select current_database() as name`);
    const url = new URL(postgresUrl as string);
    url.pathname = `/${current?.name}`;
    second = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 4 });
    secondApp = await buildApp({ config: harness.config, database: second, logger: false });
    await secondApp.ready();
  }, 60_000);
  afterAll(async () => {
    await secondApp?.close();
    await second?.close();
  });

  it("refuses on one instance the forged calls counted on the other, and opens the genuine link on both", async () => {
    const ip = "198.51.100.60";
    for (let call = 0; call < limit; call += 1) {
      expect((await linkCall(harness, "lookup", forged, { ip })).statusCode).toBe(404);
    }
    const onSecond = await linkCall({ app: secondApp }, "lookup", forged, { ip });
    expect(onSecond.statusCode).toBe(429);
    expect(Number(onSecond.headers["retry-after"])).toBeGreaterThan(0);
    expect((await findingLinkCall(secondApp, ip)).statusCode).toBe(429);

    const { client } = await clientNamingRecipients(team);
    await signedCase(harness, team, client.id);
    const [token = ""] = await reportTokensFor(harness, `nia.${client.id.slice(0, 8)}@hospital.example`);
    expect((await linkCall({ app: secondApp }, "lookup", token, { ip })).statusCode).toBe(200);
    expect((await linkCall(harness, "lookup", token, { ip })).statusCode).toBe(200);
    expect((await linkCall({ app: secondApp }, "download", token, { ip })).statusCode).toBe(200);
  });
});
