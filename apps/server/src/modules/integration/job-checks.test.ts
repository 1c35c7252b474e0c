import type { IntegrationResult } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/** The job queue's self-check, as an administrator runs it from the integration page. */
let harness: TestApp;
let developer: Caller;
beforeAll(async () => {
  harness = await createTestApp();
  developer = await callerFor(harness, "jobs-developer", ["developer"]);
});
afterAll(() => harness.close());

async function runCheck(): Promise<IntegrationResult> {
  const response = await developer("POST", "/api/bugs/integration-checks/job-queue/run");
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function insertJob(state: string, minutesAgo: number, finished = false) {
  await harness.database.db.execute(
    sql`insert into jobs (kind, payload, state, run_at, finished_at, last_error)
        values ('clock-alert-sweep', '{"period":"2026-01-01T00:00:00.000Z"}'::jsonb, ${state},
          now() - ${minutesAgo} * interval '1 minute', ${finished ? sql`now()` : null}, 'relay refused')`,
  );
}

describe("the job queue's self-check", () => {
  it("passes, warns on a job failed in 24 h, and fails when a kind's oldest job waits past its limit", async () => {
    expect((await runCheck()).status).toBe("pass");

    await insertJob("failed", 10, true);
    const warned = await runCheck();
    expect(warned.status).toBe("warning");
    expect(warned.summary).toContain("clock-alert-sweep: 1");

    // The sweep's limit is five minutes at the default 30 s period: an hour's wait means nobody sweeps.
    await insertJob("waiting", 60);
    const failed = await runCheck();
    expect(failed.status).toBe("fail");
    expect(failed.summary).toContain("clock-alert-sweep has waited 60 min (limit 5 min)");
    expect(failed.details).toMatchObject({
      "clock-alert-sweep": "waiting 1, running 0, failed in 24 h 1, oldest waiting 60 min",
    });
  });
});
