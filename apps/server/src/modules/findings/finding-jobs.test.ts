import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.js";
import { createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { addContact, findingOf, monitoredCase, raiseFinding } from "../../testing/kits/findings-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { findingJobs } from "./finding-jobs.js";

/**
 * A finding's work is jobs (docs/design/JOBS.md): its messages and its escalations are enqueued in the transaction
 * that writes them, the escalation at its due time and under a key that schedules it once; running the jobs does it.
 */

let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "fjobs");
  clientId = (await createClient(team.coordinator)).id;
  for (const name of ["Ann First", "Ben Second"]) await addContact(team.coordinator, clientId, { name });
});
afterAll(() => harness.close());

type JobRow = { id: string; kind: string; payload: Record<string, unknown>; unique_key: string | null; run_at: string };

const jobsOf = (findingId: string) =>
  queryRows<JobRow>(
    harness.database.db,
    sql`select id, kind, payload, unique_key, run_at from jobs where payload->>'findingId' = ${findingId}
        order by created_at, kind`,
  );

describe("a critical finding's jobs", () => {
  it("are enqueued with the raise: its messages now, its first escalation at the due time, keyed once", async () => {
    const caseId = (await monitoredCase(harness, team, clientId)).id;
    const finding = await raiseFinding(team.technologist, caseId);
    const jobs = await jobsOf(finding.id);
    expect(jobs.map((job) => job.kind).sort()).toEqual(["finding-escalation", "finding-messages"]);
    const escalation = jobs.find((job) => job.kind === "finding-escalation");
    expect(escalation?.unique_key).toBe(`finding-escalation:${finding.id}:1`);
    expect(new Date(escalation?.run_at ?? 0).toISOString()).toBe(finding.dueAt);
    expect(escalation?.payload).toMatchObject({ level: 1, at: finding.dueAt });
  });

  it("escalate when the escalation job runs, and schedule the next level once", async () => {
    const caseId = (await monitoredCase(harness, team, clientId)).id;
    const finding = await raiseFinding(team.technologist, caseId);
    const [messages, escalation] = findingJobs(harness.app.findings);
    if (!messages || !escalation) throw new Error("the findings define their messages' and escalations' kinds");
    const context = { db: harness.database.db, log: harness.app.log, jobId: "test", attempt: 1 };
    const run = async (definition: typeof messages | typeof escalation, payload: unknown) =>
      definition.handle(payload as never, { ...context, signal: new AbortController().signal });
    await run(messages, { findingId: finding.id });
    const payload = { findingId: finding.id, level: 1, at: finding.dueAt };
    await run(escalation, payload);
    // At least once: the same job run again (its instance died before recording it) escalates nothing more.
    await run(escalation, payload);
    const after = await findingOf(team.coordinator, caseId, finding.id);
    expect(after.escalations).toBe(1);
    const next = (await jobsOf(finding.id)).filter((job) => job.kind === "finding-escalation");
    expect(next.map((job) => job.unique_key)).toEqual([
      `finding-escalation:${finding.id}:1`,
      `finding-escalation:${finding.id}:2`,
    ]);
    expect(new Date(next[1]?.run_at ?? 0).toISOString()).toBe(after.nextEscalationAt);
    expect(after.recipients.filter((recipient) => recipient.level === 1).length).toBeGreaterThan(0);
  });
});
