import {
  type AccessGroup,
  accessGroups,
  type Case,
  type CaseField,
  caseActionRules,
  caseFieldRules,
  caseFields,
  caseTransitionRules,
  permissionsOf,
  routes,
} from "@vigil/contract";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Caller,
  caseIn,
  createClient,
  sampleCase,
  type Team,
  teamFor,
  unknownId,
} from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/**
 * One rule for each change of a case, whichever route makes it: a field of `PATCH cases/{id}` needs the permission
 * of the action, move or route that makes the same change (a technologist could set the priority with PATCH while
 * the `set-priority` action refused them). Walked for every field and every group, against the other route's answer.
 */
let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "fields");
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** A value of `field` that differs from what `caseIn` leaves (ICU cEEG, video, routine, recorded 1 h ago to now). */
function changedValue(field: CaseField): unknown {
  return {
    studyType: "ambulatory",
    hasVideo: false,
    priority: "stat",
    recordingStartedAt: minutesAgo(120),
    recordingEndedAt: minutesAgo(30),
  }[field];
}

async function readCase(id: string): Promise<Case> {
  const response = await team.admin("GET", `/cases/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function patch(caller: Caller, item: Case, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return caller("PATCH", `/cases/${item.id}`, { body, ifMatch: `"${(await readCase(item.id)).version}"` });
}

/**
 * The route that makes the same change as `field`, called so that it changes nothing: refused with 403 without the
 * permission, and otherwise stopped later (a stale version, an unknown client) — only the 403 is compared.
 */
async function sameChangeElsewhere(caller: Caller, field: CaseField): Promise<LightMyRequestResponse> {
  const sameAs = caseFieldRules[field].sameAs;
  if ("action" in sameAs) {
    const item = await caseIn(harness, team, clientId, "monitoring");
    return caller("POST", `/cases/${item.id}/actions`, {
      body: { action: sameAs.action, priority: "stat", version: 1 },
    });
  }
  if ("transition" in sameAs) {
    const rule = caseTransitionRules.find((candidate) => candidate.id === sameAs.transition);
    const item = await caseIn(harness, team, clientId, rule?.from === "intake" ? "intake" : "monitoring");
    return caller("POST", `/cases/${item.id}/transitions`, { body: { to: rule?.to, version: 1 } });
  }
  return caller("POST", "/cases", { body: sampleCase(unknownId) });
}

describe("the field rules of a case", () => {
  it("give each field the permission of the action, move or route that makes the same change", () => {
    for (const field of caseFields) {
      const { permission, sameAs } = caseFieldRules[field];
      const elsewhere =
        "action" in sameAs
          ? caseActionRules[sameAs.action].permission
          : "transition" in sameAs
            ? caseTransitionRules.find((rule) => rule.id === sameAs.transition)?.permission
            : routes[sameAs.route].access;
      expect(permission, field).toBe(elsewhere);
    }
  });

  it("leave technologists the recording times and nothing else", () => {
    const technologist = permissionsOf(["technologist"]);
    expect(caseFields.filter((field) => technologist.has(caseFieldRules[field].permission))).toEqual([
      "recordingStartedAt",
      "recordingEndedAt",
    ]);
  });
});

describe("PATCH cases/{id} against the route that makes the same change", () => {
  for (const group of accessGroups) {
    it(`answers a ${group} the same for every field: both refused with 403 or neither`, async () => {
      const caller = team[group as AccessGroup];
      const mismatches: string[] = [];
      for (const field of caseFields) {
        const item = await caseIn(harness, team, clientId, "monitoring");
        const value = changedValue(field);
        const patched = await patch(caller, item, { [field]: value });
        const elsewhere = await sameChangeElsewhere(caller, field);
        expect(patched.statusCode, `${group} PATCH ${field}: ${patched.body}`).toBeLessThan(500);
        expect(elsewhere.statusCode, `${group} ${field} elsewhere: ${elsewhere.body}`).toBeLessThan(500);
        const allowed = permissionsOf([group]).has(caseFieldRules[field].permission);
        if ((patched.statusCode === 403) !== (elsewhere.statusCode === 403)) {
          mismatches.push(`${field}: PATCH ${patched.statusCode}, elsewhere ${elsewhere.statusCode}`);
        }
        if (allowed) {
          expect(patched.statusCode, `${group} PATCH ${field}: ${patched.body}`).toBe(200);
          expect(patched.json().data[field], field).toEqual(value);
        } else {
          expect(patched.statusCode, `${group} PATCH ${field}: ${patched.body}`).toBe(403);
          const after = await readCase(item.id);
          expect(after[field], `${group} ${field} unchanged`).toEqual(item[field]);
          expect(after.version).toBe(item.version);
        }
      }
      expect(mismatches, group).toEqual([]);
    });
  }
});

describe("a technologist editing a case", () => {
  it("may send every field unchanged and change the recording times", async () => {
    const item = await caseIn(harness, team, clientId, "monitoring");
    const response = await patch(team.technologist, item, {
      studyType: item.studyType,
      hasVideo: item.hasVideo,
      priority: item.priority,
      recordingStartedAt: item.recordingStartedAt,
      recordingEndedAt: minutesAgo(5),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(Date.parse(response.json().data.recordingEndedAt)).toBeLessThan(Date.now() - 4 * 60_000);
  });

  it("is refused a priority and a study type change with a 403 naming both fields, and nothing changes", async () => {
    const item = await caseIn(harness, team, clientId, "monitoring");
    const response = await patch(team.technologist, item, {
      priority: "stat",
      studyType: "emu-video",
      recordingEndedAt: minutesAgo(5),
    });
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json().error.message).toBe(
      "Your access groups do not allow changing the study type and priority of a case.",
    );
    expect(response.json().error.details.issues.map((issue: { path: string }) => issue.path)).toEqual([
      "body.studyType",
      "body.priority",
    ]);
    expect(await readCase(item.id)).toMatchObject({
      priority: item.priority,
      studyType: item.studyType,
      recordingEndedAt: item.recordingEndedAt,
      version: item.version,
    });
  });
});

describe("making a case STAT with PATCH", () => {
  it("asks for a fresh acknowledgement, as the set-priority action does", async () => {
    const item = await caseIn(harness, team, clientId, "monitoring", { priority: "stat" });
    const acknowledged = await team.reviewer("POST", `/cases/${item.id}/actions`, { body: { action: "acknowledge" } });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect((await patch(team.coordinator, item, { priority: "routine" })).statusCode).toBe(200);
    const restated = await patch(team.coordinator, item, { priority: "stat" });
    expect(restated.statusCode, restated.body).toBe(200);
    expect(restated.json().data).toMatchObject({ priority: "stat", acknowledgedAt: null, acknowledgedBy: null });
  });
});
