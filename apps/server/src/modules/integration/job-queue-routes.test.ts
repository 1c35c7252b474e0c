import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, jobs } from "../../db/schema.js";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/** The job queue beside the self-checks: its figures per kind, its failed jobs, and an audited retry. */
let harness: TestApp;
let admin: Caller;
let technologist: Caller;
beforeAll(async () => {
  harness = await createTestApp();
  admin = await callerFor(harness, "jobs-admin", ["admin"]);
  technologist = await callerFor(harness, "jobs-technologist", ["technologist"]);
});
afterAll(() => harness.close());

async function insertJob(state: string, minutesAgo: number, lastError: string | null = null): Promise<string> {
  const result = await harness.database.db.execute(
    sql`insert into jobs (kind, payload, state, attempts, run_at, finished_at, last_error)
        values ('clock-alert-sweep', '{"period":"2026-01-01T00:00:00.000Z"}'::jsonb, ${state},
          ${state === "failed" ? 1 : 0}, now() - ${minutesAgo} * interval '1 minute',
          ${state === "failed" ? sql`now()` : null}, ${lastError})
        returning id`,
  );
  return (result as unknown as { rows: { id: string }[] }).rows[0]?.id as string;
}

describe("the job queue", () => {
  it("shows each kind's waiting, running, failed and oldest wait, and the failed jobs with their last error", async () => {
    await insertJob("waiting", 2);
    const failedId = await insertJob("failed", 10, "the SMTP server refused the connection");
    const response = await admin("GET", "/api/integration/jobs");
    expect(response.statusCode, response.body).toBe(200);
    const queue = response.json().data;
    // Every registered kind is listed (the findings' too), each with its counts: the sweep holds these jobs.
    expect(queue.kinds.map((entry: { kind: string }) => entry.kind)).toEqual(
      expect.arrayContaining(["clock-alert-sweep", "finding-escalation", "finding-messages", "finding-sweep"]),
    );
    expect(queue.kinds.filter((entry: { kind: string }) => entry.kind === "clock-alert-sweep")).toEqual([
      {
        kind: "clock-alert-sweep",
        waiting: 1,
        running: 0,
        failedLastDay: 1,
        oldestWaitingSeconds: expect.any(Number),
        maxWaitSeconds: 300,
        overdue: false,
      },
    ]);
    expect(
      queue.kinds.find((entry: { kind: string }) => entry.kind === "clock-alert-sweep").oldestWaitingSeconds,
    ).toBeGreaterThanOrEqual(115);
    expect(queue.failed).toEqual([
      expect.objectContaining({
        id: failedId,
        kind: "clock-alert-sweep",
        attempts: 1,
        lastError: "the SMTP server refused the connection",
      }),
    ]);
  });

  it("sets a failed job waiting again on Retry, audited with who did it", async () => {
    const failedId = await insertJob("failed", 5, "no route");
    const response = await admin("POST", `/api/integration/jobs/${failedId}/retry`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({ id: failedId, kind: "clock-alert-sweep", state: "waiting" });
    const [row] = await harness.database.db.select().from(jobs).where(eq(jobs.id, failedId));
    expect(row).toMatchObject({ state: "waiting", attempts: 0, finishedAt: null });
    const audit = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "jobs.retry"), eq(auditEvents.targetId, failedId)));
    expect(audit).toEqual([
      expect.objectContaining({
        actorUsername: "jobs-admin",
        outcome: "success",
        details: { kind: "clock-alert-sweep" },
      }),
    ]);

    // Only a failed job: the same one again (now waiting) is not found, and a malformed id is a 400 naming it.
    const again = await admin("POST", `/api/integration/jobs/${failedId}/retry`);
    expect(again.statusCode).toBe(404);
    const malformed = await admin("POST", "/api/integration/jobs/not-a-job/retry");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain("id");
  });

  it("is refused to users who may not run the integration checks", async () => {
    expect((await technologist("GET", "/api/integration/jobs")).statusCode).toBe(403);
    const failedId = await insertJob("failed", 1, "no route");
    expect((await technologist("POST", `/api/integration/jobs/${failedId}/retry`)).statusCode).toBe(403);
    const [row] = await harness.database.db.select().from(jobs).where(eq(jobs.id, failedId));
    expect(row?.state).toBe("failed");
  });
});
