import type { AccessGroup, Case, CaseStage, Client, CreateCaseRequest } from "@vigil/contract";
import { and, asc, eq, type SQL } from "drizzle-orm";
import { expect } from "vitest";
import { auditEvents, cases } from "../../db/schema.js";
import type { TestApp } from "../test-app.js";
import { type Caller, callerFor } from "./caller-kit.js";
import { sampleClient, sampleProtocol } from "./clients-kit.js";

/** Shared by the case module's API tests: callers per group, cases put in a given stage, audit lookups. */
export const unknownId = "00000000-0000-4000-8000-000000000000";
// Re-exported: the case kit's callers (teams) are what most tests hold, and several read `base` from here.
export { base, type Caller } from "./caller-kit.js";

/** One caller per access group, plus a second technologist and reviewer to assign. */
export type Team = Record<AccessGroup, Caller> & { technologist2: Caller; reviewer2: Caller };

export async function teamFor(harness: TestApp, prefix: string): Promise<Team> {
  const groups: AccessGroup[] = ["admin", "coordinator", "technologist", "reviewer", "billing", "developer"];
  const team = {} as Team;
  for (const group of groups) team[group] = await callerFor(harness, `${prefix}-${group}`, [group]);
  team.technologist2 = await callerFor(harness, `${prefix}-technologist2`, ["technologist"]);
  team.reviewer2 = await callerFor(harness, `${prefix}-reviewer2`, ["reviewer"]);
  return team;
}

export async function createClient(caller: Caller, options: { protocol?: boolean } = {}): Promise<Client> {
  const response = await caller("POST", "/clients", { body: sampleClient() });
  expect(response.statusCode, response.body).toBe(201);
  const client: Client = response.json().data;
  if (options.protocol !== false) {
    const revision = await caller("POST", `/clients/${client.id}/protocol/revisions`, { body: sampleProtocol() });
    expect(revision.statusCode, revision.body).toBe(201);
  }
  return client;
}

let mrnCounter = 0;
export function sampleCase(clientId: string, overrides: Partial<CreateCaseRequest> = {}): CreateCaseRequest {
  mrnCounter += 1;
  return {
    clientId,
    studyType: "icu-ceeg",
    hasVideo: true,
    priority: "routine",
    patient: {
      mrn: `MRN-${String(mrnCounter).padStart(6, "0")}`,
      firstName: "Jordan",
      lastName: `Patient${mrnCounter}`,
      dateOfBirth: "1970-05-01",
      sex: "female",
      location: { unit: "Neuro ICU", room: "4", bed: "A" },
      referringPhysician: "Dr. Pierce",
      indication: "Rule out non-convulsive seizures",
      medications: "Levetiracetam",
      notes: null,
    },
    ...overrides,
  };
}

export async function openCase(
  caller: Caller,
  clientId: string,
  overrides: Partial<CreateCaseRequest> = {},
): Promise<Case> {
  const response = await caller("POST", "/cases", { body: sampleCase(clientId, overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

/**
 * A case in `stage` whose satisfiable preconditions hold: a technologist assigned (by the coordinator), the
 * recording started and ended; a STAT case past preview taken by the reviewer. Stages past preview need a signed
 * interpretation and a passed billing check, which this kit does not write, so the stage is set in the database,
 * the way those moves would leave it.
 */
export async function caseIn(
  harness: TestApp,
  team: Team,
  clientId: string,
  stage: CaseStage,
  overrides: Partial<CreateCaseRequest> = {},
): Promise<Case> {
  const opened = await openCase(team.coordinator, clientId, overrides);
  const assigned = await team.coordinator("POST", `/cases/${opened.id}/actions`, {
    body: { action: "assign-technologist", technologistId: team.technologist.sub },
  });
  expect(assigned.statusCode, assigned.body).toBe(200);
  if (stage !== "intake") {
    const started = await team.coordinator("POST", `/cases/${opened.id}/transitions`, { body: { to: "monitoring" } });
    expect(started.statusCode, started.body).toBe(201);
  }
  // A STAT case reaches reviewed only once a reviewer has taken it (`stat-acknowledged`), so one does here.
  if (opened.priority === "stat" && (stage === "reviewed" || stage === "closed")) {
    const taken = await team.reviewer("POST", `/cases/${opened.id}/actions`, { body: { action: "acknowledge" } });
    expect(taken.statusCode, taken.body).toBe(200);
  }
  const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
  const now = new Date().toISOString();
  await harness.database.db
    .update(cases)
    .set({ stage, recordingStartedAt: new Date(hourAgo), recordingEndedAt: stage === "intake" ? null : new Date(now) })
    .where(eq(cases.id, opened.id));
  const response = await team.coordinator("GET", `/cases/${opened.id}`);
  return response.json().data;
}

/**
 * Sets a case's recording period directly: billable time logs must lie in it (records' time-log rules), so a story
 * whose logs reach back days needs a recording that started before them. `endedAt` null: still recording.
 */
export async function setRecordingPeriod(
  harness: TestApp,
  caseId: string,
  startedAt: Date,
  endedAt: Date | null = null,
): Promise<void> {
  await harness.database.db
    .update(cases)
    .set({ recordingStartedAt: startedAt, recordingEndedAt: endedAt })
    .where(eq(cases.id, caseId));
}

export async function auditRows(harness: TestApp, action: string, targetId?: string) {
  const conditions: SQL[] = [eq(auditEvents.action, action)];
  if (targetId) conditions.push(eq(auditEvents.targetId, targetId));
  return harness.database.db
    .select()
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(asc(auditEvents.at));
}
