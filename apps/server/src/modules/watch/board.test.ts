import type { Case, WatchBoard, WatchBoardRow } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRows, type Caller, createClient, openCase, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { raiseFinding } from "../../testing/kits/findings-kit.js";
import { createItem, minutesAgo, sampleImpedance } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/*
 * The board (PRODUCT.md §10) over cases set up through the API only, so every row read is one the writes kept:
 * sampleProtocol checks impedances every 12 hours and wants a STAT case taken within 60 minutes.
 */

let harness: TestApp;
let team: Team;
const hour = 3_600_000;
const ids: Record<"soon" | "later" | "overdue" | "statMonitoring" | "statIntake" | "quiet", Case> = {} as never;
let clientA: string;
let clientB: string;

async function assignTechnologist(caseId: string, technologist: Caller) {
  const assigned = await team.coordinator("POST", `/cases/${caseId}/actions`, {
    body: { action: "assign-technologist", technologistId: technologist.sub },
  });
  expect(assigned.statusCode, assigned.body).toBe(200);
}

/** A case in monitoring (through the move) whose recording started `hoursAgo` (through PATCH, as a technologist). */
async function monitoringCase(clientId: string, hoursAgo: number, technologist: Caller, priority: "routine" | "stat") {
  const opened = await openCase(team.coordinator, clientId, { priority });
  await assignTechnologist(opened.id, technologist);
  const moved = await team.coordinator("POST", `/cases/${opened.id}/transitions`, { body: { to: "monitoring" } });
  expect(moved.statusCode, moved.body).toBe(201);
  const current = (await team.coordinator("GET", `/cases/${opened.id}`)).json().data as Case;
  const patched = await technologist("PATCH", `/cases/${opened.id}`, {
    body: { recordingStartedAt: new Date(Date.now() - hoursAgo * hour).toISOString() },
    ifMatch: `"${current.version}"`,
  });
  expect(patched.statusCode, patched.body).toBe(200);
  return opened;
}

async function board(caller: Caller, query = ""): Promise<WatchBoard> {
  const response = await caller("GET", `/board${query ? `?${query}` : ""}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** The rows of this file's cases, in the board's order (other files' cases never share this database). */
const caseIdsOf = (page: WatchBoard) => page.items.map((row) => row.caseId);
const rowOf = (page: WatchBoard, item: Case): WatchBoardRow | undefined =>
  page.items.find((row) => row.caseId === item.id);

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "board");
  clientA = (await createClient(team.coordinator)).id;
  clientB = (await createClient(team.coordinator)).id;
  ids.overdue = await monitoringCase(clientB, 13, team.technologist2, "routine");
  ids.soon = await monitoringCase(clientA, 11.5, team.technologist, "routine");
  ids.statMonitoring = await monitoringCase(clientB, 0, team.technologist, "stat");
  ids.statIntake = await openCase(team.coordinator, clientB, { priority: "stat" });
  ids.later = await monitoringCase(clientA, 1, team.technologist, "routine");
  // A routine case in intake runs no clock: it is not on the board.
  ids.quiet = await openCase(team.coordinator, clientA);
}, 120_000);
afterAll(() => harness.close());

describe("GET /api/continuous-monitoring/board", () => {
  it("lists every open case with a running clock once, by its next-due clock, sooner breach first", async () => {
    const page = await board(team.coordinator);
    expect(caseIdsOf(page)).toEqual([
      ids.overdue.id,
      ids.soon.id,
      ids.statMonitoring.id,
      ids.statIntake.id,
      ids.later.id,
    ]);
    expect(page.total).toBe(5);
    expect(Date.parse(page.asOf)).toBeLessThanOrEqual(Date.now());
    const dues = page.items.map((row) => Date.parse(row.clock.dueAt));
    expect(dues).toEqual([...dues].sort((left, right) => left - right));
  });

  it("shows the patient, the client, the clock's state at asOf, its owner and how many other clocks run", async () => {
    const page = await board(team.coordinator);
    expect(rowOf(page, ids.overdue)).toMatchObject({
      caseNumber: ids.overdue.caseNumber,
      stage: "monitoring",
      priority: "routine",
      patientName: `${ids.overdue.patient?.firstName} ${ids.overdue.patient?.lastName}`,
      mrn: ids.overdue.patient?.mrn,
      client: { id: clientB, name: ids.overdue.client.name, code: ids.overdue.client.code },
      clock: {
        kind: "impedance-check",
        windowMinutes: 720,
        state: "overdue",
        owner: { kind: "user", user: { username: team.technologist2.username } },
      },
      otherClocks: 0,
    });
    const soon = rowOf(page, ids.soon);
    expect(soon?.clock.state).toBe("due-soon");
    // Due soon from the last quarter of the window (WATCH_DUE_SOON_SHARE 0.25): 3 of the 12 hours.
    expect(Date.parse(soon?.clock.dueAt ?? "") - Date.parse(soon?.clock.dueSoonAt ?? "")).toBe(3 * hour);
    expect(rowOf(page, ids.later)?.clock.state).toBe("ok");
    // A STAT case in monitoring: taking it is due first (the coordinators' until a reviewer is assigned), the
    // impedance check runs too.
    expect(rowOf(page, ids.statMonitoring)).toMatchObject({
      clock: { kind: "stat-acknowledgement", windowMinutes: 60, owner: { kind: "coordinators" } },
      otherClocks: 1,
    });
  });

  it("gives one kind's clock of every case that runs it when asked for that kind", async () => {
    expect(caseIdsOf(await board(team.coordinator, "kind=impedance-check"))).toEqual([
      ids.overdue.id,
      ids.soon.id,
      ids.later.id,
      ids.statMonitoring.id,
    ]);
    const stat = await board(team.coordinator, "kind=stat-acknowledgement");
    expect(caseIdsOf(stat)).toEqual([ids.statMonitoring.id, ids.statIntake.id]);
    expect(stat.items.every((row) => row.clock.kind === "stat-acknowledgement")).toBe(true);
  });

  it("filters by client, stage and owner, and `mine` is the caller's own clocks", async () => {
    expect(caseIdsOf(await board(team.coordinator, `clientId=${clientA}`))).toEqual([ids.soon.id, ids.later.id]);
    expect(caseIdsOf(await board(team.coordinator, "stage=intake"))).toEqual([ids.statIntake.id]);
    expect(caseIdsOf(await board(team.coordinator, `stage=monitoring&clientId=${clientB}`))).toEqual([
      ids.overdue.id,
      ids.statMonitoring.id,
    ]);
    expect(caseIdsOf(await board(team.coordinator, `owner=${team.technologist.username}`))).toEqual([
      ids.soon.id,
      ids.later.id,
    ]);
    expect(caseIdsOf(await board(team.coordinator, "owner=coordinators"))).toEqual([
      ids.statMonitoring.id,
      ids.statIntake.id,
    ]);
    expect(caseIdsOf(await board(team.technologist2, "mine=true"))).toEqual([ids.overdue.id]);
    expect(caseIdsOf(await board(team.technologist, "mine=true&kind=impedance-check"))).toEqual([
      ids.soon.id,
      ids.later.id,
      ids.statMonitoring.id,
    ]);
    expect((await board(team.reviewer, "mine=true")).items).toEqual([]);
  });

  it("adds every clock due soon or overdue to an owner's own with alsoDueSoon (a coordinator's desk)", async () => {
    expect(caseIdsOf(await board(team.coordinator, "owner=coordinators&alsoDueSoon=true"))).toEqual([
      ids.overdue.id,
      ids.soon.id,
      ids.statMonitoring.id,
      ids.statIntake.id,
    ]);
  });

  it("pages on the server, with the total of the whole filter", async () => {
    const page = await board(team.coordinator, "limit=2&offset=1");
    expect(page).toMatchObject({ total: 5, limit: 2, offset: 1 });
    expect(caseIdsOf(page)).toEqual([ids.soon.id, ids.statMonitoring.id]);
  });

  it("puts an open critical finding before every other clock, however overdue, and keeps it first across pages", async () => {
    const before = caseIdsOf(await board(team.coordinator));
    // A case whose impedance check is hours away gets a finding, due within the protocol's window.
    await raiseFinding(team.technologist, ids.later.id);
    const page = await board(team.coordinator);
    expect(caseIdsOf(page)[0]).toBe(ids.later.id);
    expect(page.items[0]?.clock).toMatchObject({ kind: "critical-notification", state: "ok" });
    // It sits above a clock overdue for an hour.
    expect(rowOf(page, ids.overdue)?.clock.state).toBe("overdue");
    expect(Date.parse(page.items[0]?.clock.dueAt ?? "")).toBeGreaterThan(
      Date.parse(rowOf(page, ids.overdue)?.clock.dueAt ?? ""),
    );
    expect(page.items[0]?.otherClocks).toBe(1);
    // Behind it every other case as before, sooner due first.
    const rest = before.filter((id) => id !== ids.later.id);
    expect(caseIdsOf(page).slice(1)).toEqual(rest);
    expect(caseIdsOf(await board(team.coordinator, "limit=2&offset=0"))).toEqual([ids.later.id, rest[0]]);
    const second = await board(team.coordinator, "limit=2&offset=1");
    expect(caseIdsOf(second)).toEqual(rest.slice(0, 2));
    expect(second.total).toBe(5);
    expect(caseIdsOf(await board(team.coordinator, "kind=critical-notification"))).toEqual([ids.later.id]);
    // A coordinator's desk (their own and every clock due soon) has it from its raising, first.
    expect(caseIdsOf(await board(team.coordinator, "owner=coordinators&alsoDueSoon=true"))[0]).toBe(ids.later.id);
  });

  it("moves a case down the board when the step that stops its clock is recorded", async () => {
    await createItem(team.technologist2, "impedance", ids.overdue.id, sampleImpedance({ checkedAt: minutesAgo(1) }));
    const page = await board(team.coordinator);
    expect(caseIdsOf(page).at(-1)).toBe(ids.overdue.id);
    expect(rowOf(page, ids.overdue)?.clock.state).toBe("ok");
  });

  it("is for whoever may read cases: 401 without a token, 403 without cases:read", async () => {
    const anonymous = await harness.app.inject({ method: "GET", url: "/api/continuous-monitoring/board" });
    expect(anonymous.statusCode).toBe(401);
    expect((await team.developer("GET", "/board")).statusCode).toBe(403);
    for (const caller of [team.admin, team.technologist, team.reviewer, team.billing]) {
      expect((await caller("GET", "/board")).statusCode).toBe(200);
    }
  });

  it("audits every read (it names patients), refusals included", async () => {
    await board(team.reviewer, "kind=review-turnaround");
    await team.developer("GET", "/board");
    const rows = (await auditRows(harness, "patient-data.read")).filter(
      (row) => (row.details as { route?: string }).route === "getWatchBoard",
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actorUsername: team.reviewer.username, outcome: "success" }),
        expect.objectContaining({ actorUsername: team.developer.username, outcome: "denied" }),
      ]),
    );
  });

  it("answers 400 naming the field for a query it cannot read", async () => {
    for (const [query, field] of [
      ["kind=coffee", "querystring.kind"],
      ["stage=archived", "querystring.stage"],
      ["clientId=abc", "querystring.clientId"],
      ["mine=perhaps", "querystring.mine"],
      ["limit=0", "querystring.limit"],
      ["owner=two%20words", "querystring.owner"],
    ] as const) {
      const response = await team.coordinator("GET", `/board?${query}`);
      expect(response.statusCode, query).toBe(400);
      const paths = (response.json().error.details.issues as { path: string }[]).map((issue) => issue.path);
      expect(paths, query).toContain(field);
    }
  });
});
