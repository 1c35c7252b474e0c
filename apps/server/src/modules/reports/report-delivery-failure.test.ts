import type { ReportList } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, jobs, reportDeliveries, reportDisclosures } from "../../db/schema.js";
import { callerFor } from "../../testing/kits/caller-kit.js";
import { type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { appOnSameDatabase, type MailServer, startMailServer } from "../../testing/kits/findings-kit.js";
import { clientNamingRecipients, signedCase } from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/**
 * A report e-mail whose relay refuses every try (docs/design/REPORTS.md, "Delivery"): its job's last try marks the
 * delivery failed with the relay's answer and the job failed, listed on the integration page's queue; Retry there,
 * the relay taking mail again, sends it once and records its disclosure. Short grace and back-off (the settings
 * REPORT_DELIVERY_*), two tries, so the whole road takes seconds.
 */
let harness: TestApp;
let runner: TestApp;
let mail: MailServer;
let team: Team;
let clientId: string;

beforeAll(async () => {
  mail = await startMailServer();
  mail.refuse(true);
  harness = await createTestApp({
    SMTP_URL: mail.url,
    REPORT_DELIVERY_GRACE_SECONDS: "0.2",
    REPORT_DELIVERY_ATTEMPTS: "2",
    REPORT_DELIVERY_RETRY_SECONDS: "0.2",
  });
  team = await teamFor(harness, "report-fails");
  clientId = (await clientNamingRecipients(team)).client.id;
  // An instance that runs the jobs, as every server does.
  runner = await appOnSameDatabase(harness, { runJobs: true });
}, 60_000);
afterAll(async () => {
  await runner?.close();
  await harness?.close();
  await mail?.close();
});

const jobOf = async (deliveryId: string) =>
  (
    await harness.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.uniqueKey, `report-delivery:${deliveryId}`))
  )[0];

describe("a report e-mail whose every try is refused", () => {
  it("ends failed with the relay's answer, is listed among failed jobs, and is sent once by Retry", async () => {
    const { caseId } = await signedCase(harness, team, clientId);
    const deliveriesOf = async () =>
      ((await team.coordinator("GET", `/cases/${caseId}/reports`)).json().data as ReportList).items[0]?.deliveries ??
      [];
    const [delivery] = await deliveriesOf();
    expect(delivery).toBeDefined();
    const deliveryId = delivery?.id as string;

    // The request's own try and both of the job's were refused: failed for good, saying why.
    await expect.poll(async () => (await jobOf(deliveryId))?.state, { timeout: 20_000 }).toBe("failed");
    const failedJob = await jobOf(deliveryId);
    expect(failedJob).toMatchObject({ attempts: 2, lastError: expect.stringContaining("Relay access denied") });
    expect((await deliveriesOf()).find((entry) => entry.id === deliveryId)).toMatchObject({
      status: "failed",
      lastError: expect.stringContaining("Relay access denied"),
    });
    expect(mail.received).toEqual([]);

    const admin = await callerFor(harness, "report-fails-admin-2", ["admin"]);
    const queue = (await admin("GET", "/api/integration/jobs")).json().data;
    expect(queue.failed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: failedJob?.id,
          kind: "report-delivery",
          attempts: 2,
          lastError: expect.stringContaining("Relay access denied"),
        }),
      ]),
    );
    expect(queue.kinds.find((entry: { kind: string }) => entry.kind === "report-delivery")).toMatchObject({
      failedLastDay: expect.any(Number),
    });

    // Every recipient's job has used its tries before the relay takes mail again (on a loaded machine the other
    // recipient's second try could still be waiting, and would then go through unasked).
    for (const entry of await deliveriesOf()) {
      await expect.poll(async () => (await jobOf(entry.id))?.state, { timeout: 20_000 }).toBe("failed");
    }
    // The relay takes mail again; an administrator retries the job.
    mail.refuse(false);
    const retried = await admin("POST", `/api/integration/jobs/${failedJob?.id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    await expect.poll(async () => (await jobOf(deliveryId))?.state, { timeout: 20_000 }).toBe("done");
    expect((await deliveriesOf()).find((entry) => entry.id === deliveryId)).toMatchObject({ status: "sent" });
    const [row] = await harness.database.db.select().from(reportDeliveries).where(eq(reportDeliveries.id, deliveryId));
    // One e-mail, to this delivery's recipient: the other recipient's job, failed too, was not retried.
    expect(mail.received.map((message) => message.to)).toEqual([[row?.recipientEmail]]);
    const disclosures = await harness.database.db
      .select()
      .from(reportDisclosures)
      .where(eq(reportDisclosures.deliveryId, deliveryId));
    expect(disclosures).toHaveLength(1);
    const audit = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "jobs.retry"), eq(auditEvents.targetId, failedJob?.id as string)));
    expect(audit).toHaveLength(1);
    // Gone from the failed jobs.
    const after = (await admin("GET", "/api/integration/jobs")).json().data;
    expect(after.failed.map((job: { id: string }) => job.id)).not.toContain(failedJob?.id);
  }, 60_000);
});
