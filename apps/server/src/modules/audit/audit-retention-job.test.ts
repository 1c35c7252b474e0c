import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, jobs } from "../../db/schema.js";
import { type JobRunner, startJobRunner } from "../../jobs/job-runner.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { auditRetentionJob } from "./audit-retention-job.js";

const day = 86_400_000;
let harness: TestApp;
let folder: string;
let runner: JobRunner | undefined;

beforeAll(async () => {
  harness = await createTestApp();
  folder = mkdtempSync(path.join(tmpdir(), "vigil-audit-job-"));
});
afterAll(async () => {
  await runner?.stop();
  await harness.close();
  rmSync(folder, { recursive: true, force: true });
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

describe("the audit log's retention as a job", () => {
  it("is scheduled once a day and archives and deletes the events past the retention when the runner claims it", async () => {
    const rows = await harness.database.db
      .insert(auditEvents)
      .values(
        [2191, 2500].map((age) => ({
          action: "retention.job",
          outcome: "success" as const,
          at: new Date(Date.now() - age * day),
          ip: "203.0.113.9",
          details: {},
        })),
      )
      .returning({ id: auditEvents.id });
    const ids = rows.map((row) => row.id);
    const archiveDir = path.join(folder, "archive");
    const kind = auditRetentionJob({ retentionDays: 2190, archiveDir });
    expect(kind.every?.ms).toBe(day);

    runner = startJobRunner(harness.database, [kind], harness.app.log, { pollMs: 50 });
    const job = await waitFor(async () => {
      const [row] = await harness.database.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, "audit-retention"), eq(jobs.state, "done")));
      return row;
    });

    // One job for today's period, keyed so that every instance's scheduling inserts the same row.
    const periodStart = new Date(Math.floor(Date.now() / day) * day).toISOString();
    expect(job.uniqueKey).toBe(`audit-retention@${periodStart}`);
    const left = await harness.database.db.select().from(auditEvents).where(inArray(auditEvents.id, ids));
    expect(left).toEqual([]);
    expect(readdirSync(archiveDir).some((name) => name.endsWith(".ndjson.gz"))).toBe(true);
  });
});
