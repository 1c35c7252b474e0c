import type { Case, CaseStage, Client, TimeLogInput } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { cases } from "../../db/schema.js";
import type { TestApp } from "../test-app.js";
import { type Caller, caseIn, setRecordingPeriod, type Team } from "./cases-kit.js";
import { sampleClient, sampleProtocol } from "./clients-kit.js";
import { createItem, sampleTimeLog } from "./records-kit.js";

/**
 * Shared by the billing module's API tests: clients in a chosen time zone, time logs at exact instants, rates,
 * and the expected figures worked out with plain integer arithmetic (never with the module's own functions), so
 * a test cannot agree with the code by sharing its mistakes.
 */

export const billingBase = "/api/billing/continuous-monitoring";
export const reportBase = "/api/reporting/continuous-monitoring/billable-hours";

let clientCount = 0;

/** A client (with a protocol, so its cases can start monitoring) in `timezone`, named so lists sort predictably. */
export async function clientIn(team: Team, timezone: string, name?: string): Promise<Client> {
  clientCount += 1;
  const response = await team.coordinator("POST", "/clients", {
    body: sampleClient({ timezone, name: name ?? `Billing Client ${String(clientCount).padStart(3, "0")}` }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const client: Client = response.json().data;
  const protocol = await team.coordinator("POST", `/clients/${client.id}/protocol/revisions`, {
    body: sampleProtocol(),
  });
  expect(protocol.statusCode, protocol.body).toBe(201);
  return client;
}

/**
 * A case of the client in monitoring, so time logs can be written to it through the API. Billable logs must lie in
 * the case's recording period, and the billing stories date theirs anywhere in the supported calendar (months of
 * 2026, the first instant of 1900), so this recording runs from that first instant and has not ended.
 */
export async function monitoredCase(harness: TestApp, team: Team, clientId: string): Promise<Case> {
  const subject = await caseIn(harness, team, clientId, "monitoring");
  const since = new Date("1900-01-01T00:00:00.000Z");
  await setRecordingPeriod(harness, subject.id, since);
  return { ...subject, recordingStartedAt: since.toISOString(), recordingEndedAt: null };
}

/** Moves a case to a stage directly (the moves themselves are tested in the cases module). */
export async function putInStage(harness: TestApp, caseId: string, stage: CaseStage): Promise<void> {
  await harness.database.db.update(cases).set({ stage }).where(eq(cases.id, caseId));
}

/** A time log from `start` to `end` (null: running) as `caller`: billable continuous monitoring unless told. */
export async function logTime(
  caller: Caller,
  caseId: string,
  start: string,
  end: string | null,
  overrides: Partial<TimeLogInput> = {},
): Promise<{ id: string }> {
  return createItem(caller, "time-log", caseId, sampleTimeLog({ startedAt: start, endedAt: end, ...overrides }));
}

export async function setRate(
  caller: Caller,
  clientId: string,
  month: string,
  hourlyRate: string,
  options: { baseVersion?: number | null; reason?: string } = {},
) {
  return caller("POST", `${billingBase}/${clientId}/${month}/rate`, {
    body: {
      hourlyRate,
      baseVersion: options.baseVersion ?? null,
      ...(options.reason ? { reason: options.reason } : {}),
    },
  });
}

/** Reads the month's statement and issues it with the ETag the read sent (as the screen does). */
export async function issueStatement(caller: Caller, clientId: string, month: string) {
  const read = await caller("GET", `${billingBase}/${clientId}/${month}`);
  expect(read.statusCode, read.body).toBe(200);
  return caller("POST", `${billingBase}/${clientId}/${month}/statement`, {
    ifMatch: String(read.headers.etag),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Expected figures, in integers: whole seconds, hundredths of an hour, cents
// ---------------------------------------------------------------------------------------------------------------

/** Whole seconds of [start, end) clipped to [from, to): the floor of the milliseconds / 1000. */
export function secondsBetween(start: string, end: string, from?: string, to?: string): number {
  const begin = Math.max(Date.parse(start), from ? Date.parse(from) : Number.NEGATIVE_INFINITY);
  const finish = Math.min(Date.parse(end), to ? Date.parse(to) : Number.POSITIVE_INFINITY);
  return finish > begin ? Math.floor((finish - begin) / 1000) : 0;
}

/** Hundredths of an hour, rounded half-up: seconds / 36, + 0.5, floored. */
export function centiHours(seconds: number): number {
  return Math.floor((seconds + 18) / 36);
}

/** Cents of hundredths-of-hours × a rate in cents, rounded half-up. */
export function centsFor(hundredthsOfHours: number, rateCents: number): number {
  return Math.floor((hundredthsOfHours * rateCents + 50) / 100);
}

/** 1484 → "14.84". */
export function twoDecimals(hundredths: number): string {
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, "0")}`;
}
