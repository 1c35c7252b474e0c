import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.js";
import { type Database, openDatabase, queryRows } from "../../db/client.js";
import { caseClocks, clockAlerts } from "../../db/schema.js";
import { MessageService } from "../../messaging/message-service.js";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import {
  caseIn,
  createClient,
  openCase,
  setRecordingPeriod,
  type Team,
  teamFor,
} from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { refreshCaseClocks } from "../watch/watch-service.js";
import { sweepClockAlerts } from "./clock-alert-sweep.js";

/**
 * Two instances on one PostgreSQL database sweep at the same moment, as every instance behind a load balancer does
 * every WATCH_ALERT_SWEEP_SECONDS: each owner is told once and e-mailed once, whichever instance wins each row. Each
 * instance has its own connection pool and mail delivery (the outbox). PGlite admits one process per data folder,
 * so this needs DATABASE_URL.
 */
const postgresUrl = loadConfig().databaseUrl;
const hour = 3_600_000;

describe.skipIf(!postgresUrl)("clock alerts from two instances on one PostgreSQL database", () => {
  let harness: TestApp;
  let second: Database;
  let team: Team;
  let coordinator2: Caller;

  beforeAll(async () => {
    harness = await createTestApp();
    const [current] = await queryRows<{ name: string }>(harness.database.db, sql`select current_database() as name`);
    const url = new URL(postgresUrl as string);
    url.pathname = `/${current?.name}`;
    second = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 4 });
    team = await teamFor(harness, "twin");
    coordinator2 = await callerFor(harness, "twin-coordinator2", ["coordinator"]);
  });
  afterAll(async () => {
    await second?.close();
    await harness?.close();
  });

  it("tells each recipient once and e-mails them once when both sweep at the same moment", async () => {
    const clientId = (await createClient(team.coordinator)).id;
    const caseIds: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      const subject = await caseIn(harness, team, clientId, "monitoring");
      await setRecordingPeriod(harness, subject.id, new Date(Date.now() - hour), null);
      await harness.database.db.transaction((tx) => refreshCaseClocks(tx, subject.id));
      caseIds.push(subject.id);
    }
    // The coordinators' clock: a STAT case nobody has taken.
    caseIds.push((await openCase(team.coordinator, clientId, { priority: "stat" })).id);
    for (const caller of [team.technologist, team.coordinator, coordinator2]) {
      const response = await caller("PUT", "/api/notifications/preferences", { body: { emailClockAlerts: true } });
      expect(response.statusCode, response.body).toBe(200);
    }

    const clocks = await harness.database.db.select().from(caseClocks).where(inArray(caseClocks.caseId, caseIds));
    const latestDue = Math.max(...clocks.map((clock) => clock.dueAt.getTime()));
    const now = new Date(latestDue + 60_000);
    const instances = [
      { db: harness.database.db, messages: harness.app.messages },
      { db: second.db, messages: new MessageService(second.db, harness.config.messaging, harness.app.log) },
    ];
    const results = (
      await Promise.all(
        [0, 1, 2].flatMap(() =>
          instances.map((instance) => sweepClockAlerts(instance.db, harness.config, instance.messages, now)),
        ),
      )
    ).flat();

    const rows = await harness.database.db.select().from(clockAlerts).where(inArray(clockAlerts.caseId, caseIds));
    const expected = [
      ...caseIds.slice(0, 4).map((caseId) => `${team.technologist.username} ${caseId}`),
      `${team.coordinator.username} ${caseIds[4]}`,
      `${coordinator2.username} ${caseIds[4]}`,
    ];
    expect(rows.map((row) => `${row.recipientUsername} ${row.caseId}`).sort()).toEqual(expected.sort());
    expect(rows.every((row) => row.state === "overdue" && row.emailedAt !== null)).toBe(true);
    expect(results.reduce((sum, result) => sum + result.alerts, 0)).toBe(rows.length);
    expect(results.reduce((sum, result) => sum + result.emails, 0)).toBe(rows.length);

    for (const [username, count] of [
      [team.technologist.username, 4],
      [team.coordinator.username, 1],
      [coordinator2.username, 1],
    ] as const) {
      const mail = await harness.app.messages.listOutbox({ recipient: `${username}@vigil.test`, limit: 50 });
      expect(mail.filter((message) => message.subject.startsWith("Vigil: "))).toHaveLength(count);
    }
    // Neither instance tells anyone again.
    const [again] = await Promise.all(
      instances.map((instance) => sweepClockAlerts(instance.db, harness.config, instance.messages, now)),
    );
    expect(again).toEqual({ alerts: 0, emails: 0 });
    expect(
      await harness.database.db
        .select()
        .from(clockAlerts)
        .where(eq(clockAlerts.caseId, caseIds[0] as string)),
    ).toHaveLength(1);
  });
});
