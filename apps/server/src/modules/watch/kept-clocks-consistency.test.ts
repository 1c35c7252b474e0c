import type { Case } from "@vigil/contract";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client.js";
import { caseClocks, cases } from "../../db/schema.js";
import { type Caller, createClient, openCase, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { closeFindingRow, insertFindingRow } from "../../testing/kits/finding-rows-kit.js";
import { createItem, minutesAgo, sampleEvent, sampleImpedance, sampleTimeLog } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { runningClocksOf } from "./clock-rules.js";
import { findCaseClockRow } from "./watch-repository.js";
import { clockFactsOf, recordCaseChange } from "./watch-service.js";

/*
 * The board reads kept clocks (case_clocks) that every case write recomputes in its transaction. After a series of
 * writes through the API, the kept rows must be exactly what the pure rules derive from the case's facts now.
 */

let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "kept");
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

async function ok(response: Promise<{ statusCode: number; body: string }>, status = 200) {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(status);
}

async function act(caller: Caller, caseId: string, body: unknown) {
  await ok(caller("POST", `/cases/${caseId}/actions`, { body }));
}

async function move(caller: Caller, caseId: string, to: string, reason?: string) {
  await ok(caller("POST", `/cases/${caseId}/transitions`, { body: { to, ...(reason ? { reason } : {}) } }), 201);
}

async function patchCase(caller: Caller, caseId: string, body: Record<string, unknown>) {
  const current = (await team.coordinator("GET", `/cases/${caseId}`)).json().data as Case;
  await ok(caller("PATCH", `/cases/${caseId}`, { body, ifMatch: `"${current.version}"` }));
}

/** Kept rows and derived clocks of every case, in one comparable shape. */
async function keptAndDerived(caseId: string) {
  const kept = await harness.database.db
    .select()
    .from(caseClocks)
    .where(eq(caseClocks.caseId, caseId))
    .orderBy(asc(caseClocks.dueAt));
  const row = await findCaseClockRow(harness.database.db, caseId);
  if (!row) throw new Error(`no case ${caseId}`);
  const open = row.archived_at === null && row.stage !== "closed";
  const derived = open ? runningClocksOf(clockFactsOf(row)) : [];
  return {
    kept: kept.map((clock) => ({
      kind: clock.kind,
      startedAt: clock.startedAt.toISOString(),
      dueAt: clock.dueAt.toISOString(),
      windowMinutes: clock.windowMinutes,
      owner: clock.ownerUsername,
      stage: clock.stage,
      priority: clock.priority,
      clientId: clock.clientId,
      isNext: clock.isNext,
    })),
    derived: derived.map((clock, index) => ({
      kind: clock.kind,
      startedAt: clock.startedAt.toISOString(),
      dueAt: clock.dueAt.toISOString(),
      windowMinutes: clock.windowMinutes,
      owner: clock.owner.kind === "user" ? clock.owner.user.username : null,
      stage: row.stage,
      priority: row.priority,
      clientId: row.client_id,
      isNext: index === 0,
    })),
  };
}

describe("the kept clocks after writes through the API", () => {
  it("equal what the clock rules derive now, for every case, after creating, assigning, STAT, records and moves", async () => {
    // A routine case through monitoring, records, preview, back to monitoring and to preview again.
    const routine = await openCase(team.coordinator, clientId);
    await act(team.coordinator, routine.id, { action: "assign-technologist", technologistId: team.technologist.sub });
    await move(team.coordinator, routine.id, "monitoring");
    await patchCase(team.technologist, routine.id, { recordingStartedAt: minutesAgo(600) });
    await createItem(team.technologist, "impedance", routine.id, sampleImpedance({ checkedAt: minutesAgo(30) }));
    await createItem(
      team.technologist,
      "time-log",
      routine.id,
      sampleTimeLog({ mode: "intermittent", startedAt: minutesAgo(200), endedAt: null }),
    );
    await createItem(
      team.technologist,
      "event",
      routine.id,
      sampleEvent({ type: "review-check", occurredAt: minutesAgo(5) }),
    );
    await act(team.coordinator, routine.id, { action: "assign-reviewer", reviewerId: team.reviewer.sub });

    // A case made STAT after opening, taken by a reviewer, then monitored.
    const madeStat = await openCase(team.coordinator, clientId);
    await act(team.coordinator, madeStat.id, { action: "set-priority", priority: "stat" });
    await act(team.coordinator, madeStat.id, { action: "assign-technologist", technologistId: team.technologist2.sub });
    await move(team.coordinator, madeStat.id, "monitoring");
    await act(team.coordinator, madeStat.id, { action: "assign-reviewer", reviewerId: team.reviewer2.sub });
    await act(team.reviewer2, madeStat.id, { action: "acknowledge" });

    // Critical findings on it, written as the findings module writes them (each write ends in recordCaseChange):
    // two open (the later raised is due sooner), one cancelled; then the sooner one is acknowledged.
    const raisedBy = { sub: team.technologist2.sub, username: team.technologist2.username };
    const findingWrite = (write: (tx: Db) => Promise<unknown>) =>
      harness.database.db.transaction(async (tx) => {
        await write(tx);
        await recordCaseChange(tx, { caseId: madeStat.id, clientId, change: "record" });
      });
    const now = Date.now();
    await findingWrite((tx) =>
      insertFindingRow(tx, madeStat.id, { raisedAt: new Date(now - 10 * 60_000), windowMinutes: 30, raisedBy }),
    );
    let sooner = { id: "", dueAt: new Date(0) };
    await findingWrite(async (tx) => {
      sooner = await insertFindingRow(tx, madeStat.id, {
        raisedAt: new Date(now - 5 * 60_000),
        windowMinutes: 15,
        raisedBy,
      });
    });
    await findingWrite((tx) =>
      insertFindingRow(tx, madeStat.id, {
        raisedAt: new Date(now - 60 * 60_000),
        windowMinutes: 30,
        raisedBy,
        cancelledAt: new Date(now - 50 * 60_000),
      }),
    );
    const findingClock = async () =>
      (await keptAndDerived(madeStat.id)).kept.filter((clock) => clock.kind === "critical-notification");
    expect((await findingClock()).map((clock) => clock.dueAt)).toEqual([sooner.dueAt.toISOString()]);
    await findingWrite((tx) => closeFindingRow(tx, sooner.id, { acknowledgedAt: new Date() }));
    expect((await findingClock()).map((clock) => [clock.dueAt, clock.owner])).toEqual([
      [new Date(now + 20 * 60_000).toISOString(), team.technologist2.username],
    ]);

    // A STAT case opened as such and left untaken; a routine one in intake (no clock).
    const stat = await openCase(team.coordinator, clientId, { priority: "stat" });
    const quiet = await openCase(team.coordinator, clientId);

    // A case handed to preview, sent back to monitoring, and handed over again.
    const returned = await openCase(team.coordinator, clientId);
    await act(team.coordinator, returned.id, { action: "assign-technologist", technologistId: team.technologist.sub });
    await move(team.coordinator, returned.id, "monitoring");
    await patchCase(team.technologist, returned.id, {
      recordingStartedAt: minutesAgo(120),
      recordingEndedAt: minutesAgo(10),
    });
    await move(team.technologist, returned.id, "preview");
    await move(team.reviewer, returned.id, "monitoring", "The last hour is missing");
    await patchCase(team.technologist, returned.id, { recordingEndedAt: minutesAgo(2) });
    await move(team.technologist, returned.id, "preview");

    // The routine case ends its recording and goes to preview too.
    await patchCase(team.technologist, routine.id, { recordingEndedAt: minutesAgo(1) });
    await move(team.technologist, routine.id, "preview");

    const all = await harness.database.db.select({ id: cases.id }).from(cases);
    expect(all.length).toBe(5);
    let keptRows = 0;
    for (const { id } of all) {
      const { kept, derived } = await keptAndDerived(id);
      expect(kept, id).toEqual(derived);
      keptRows += kept.length;
    }
    // Not a vacuous comparison: the STAT, impedance and review clocks are all there.
    expect(keptRows).toBeGreaterThanOrEqual(4);
    expect((await keptAndDerived(quiet.id)).kept).toEqual([]);
    expect((await keptAndDerived(stat.id)).kept.map((clock) => clock.kind)).toEqual(["stat-acknowledgement"]);
    expect((await keptAndDerived(returned.id)).kept.map((clock) => clock.kind)).toEqual(["review-turnaround"]);
    expect((await keptAndDerived(madeStat.id)).kept.map((clock) => clock.kind)).toContain("critical-notification");
  });
});
