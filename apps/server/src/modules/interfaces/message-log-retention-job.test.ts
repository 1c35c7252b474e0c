import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hl7Messages, jobs } from "../../db/schema.js";
import { type JobRunner, startJobRunner } from "../../jobs/job-runner.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { deleteHl7MessagesBefore } from "./message-log-repository.js";
import { hl7LogRetentionJob } from "./message-log-retention-job.js";

const day = 86_400_000;
let harness: TestApp;
let runner: JobRunner | undefined;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await runner?.stop();
  await harness.close();
});

async function waitFor<T>(read: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the HL7 message log's retention as a job", () => {
  it("runs once a day and deletes the messages logged before HL7_LOG_DAYS, keeping the newer ones", async () => {
    const ages = { old: 31, older: 400, recent: 29, today: 0 };
    const rows = await harness.database.db
      .insert(hl7Messages)
      .values(
        Object.entries(ages).map(([name, age]) => ({
          direction: "inbound" as const,
          messageType: "ADT^A08",
          controlId: `RET-${name}`,
          sendingApplication: "EPIC",
          sendingFacility: "NORTH",
          text: `MSH|^~\\&|EPIC|NORTH|VIGIL|VIGIL|20260101000000||ADT^A08|RET-${name}|P|2.5.1`,
          status: "processed" as const,
          createdAt: new Date(Date.now() - age * day),
        })),
      )
      .returning({ id: hl7Messages.id, controlId: hl7Messages.controlId });
    const kind = hl7LogRetentionJob({ logDays: 30 });
    expect(kind.every?.ms).toBe(day);

    runner = startJobRunner(harness.database, [kind], harness.app.log, { pollMs: 50 });
    const job = await waitFor(async () => {
      const [row] = await harness.database.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, "hl7-log-retention"), eq(jobs.state, "done")));
      return row;
    });

    const periodStart = new Date(Math.floor(Date.now() / day) * day).toISOString();
    expect(job.uniqueKey).toBe(`hl7-log-retention@${periodStart}`);
    const left = await harness.database.db
      .select({ controlId: hl7Messages.controlId })
      .from(hl7Messages)
      .where(
        inArray(
          hl7Messages.id,
          rows.map((row) => row.id),
        ),
      );
    expect(left.map((row) => row.controlId).sort()).toEqual(["RET-recent", "RET-today"]);
  });

  it("deletes a backlog larger than one batch in several statements", async () => {
    const longAgo = new Date(Date.now() - 1000 * day);
    await harness.database.db.insert(hl7Messages).values(
      Array.from({ length: 5 }, (_, index) => ({
        direction: "outbound" as const,
        messageType: "ORU^R01",
        controlId: `BATCH-${index}`,
        sendingApplication: "VIGIL",
        sendingFacility: "VIGIL",
        text: "MSH|^~\\&|VIGIL|VIGIL",
        status: "acknowledged" as const,
        createdAt: longAgo,
      })),
    );
    expect(await deleteHl7MessagesBefore(harness.database.db, new Date(longAgo.getTime() + day), 2)).toBe(5);
  });
});
