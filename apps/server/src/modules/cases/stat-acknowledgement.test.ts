import type { AllowedAction, AllowedTransition, Case } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases } from "../../db/schema.js";
import { caseIn, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { sampleInterpretation } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "stat-ack");
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

/** Satisfies `final-interpretation-signed`, so sign-off answers only to the STAT rule. */
async function signInterpretation(caseId: string): Promise<void> {
  const collection = `/cases/monitoring/${caseId}/interpretations`;
  const created = await team.reviewer("POST", collection, { body: sampleInterpretation() });
  expect(created.statusCode, created.body).toBe(201);
  const signed = await team.reviewer("POST", `${collection}/${created.json().data.id}/revisions`, {
    body: { change: "sign", baseRevision: 1 },
  });
  expect(signed.statusCode, signed.body).toBe(201);
}

async function read(caseId: string): Promise<Case> {
  return (await team.reviewer("GET", `/cases/${caseId}`)).json().data;
}

const acknowledge = (caseId: string) =>
  team.reviewer("POST", `/cases/${caseId}/actions`, { body: { action: "acknowledge" } });
const signOff = (caseId: string) => team.reviewer("POST", `/cases/${caseId}/transitions`, { body: { to: "reviewed" } });

describe("taking a STAT case (acknowledge) before review", () => {
  for (const stage of ["intake", "monitoring", "preview"] as const) {
    it(`is offered and allowed in ${stage}`, async () => {
      const subject = await caseIn(harness, team, clientId, stage, { priority: "stat" });
      const offered = (await read(subject.id)).allowedActions.find((action) => action.action === "acknowledge");
      expect(offered).toMatchObject({ allowed: true, failedChecks: [] });
      expect((await acknowledge(subject.id)).statusCode).toBe(200);
    });
  }

  it("is refused on a reviewed case with 409 before-review, saying why", async () => {
    const subject = await caseIn(harness, team, clientId, "preview", { priority: "stat" });
    // A case reviewed before this rule existed: STAT and never taken.
    await harness.database.db.update(cases).set({ stage: "reviewed" }).where(eq(cases.id, subject.id));
    const offered = (await read(subject.id)).allowedActions.find(
      (action: AllowedAction) => action.action === "acknowledge",
    );
    expect(offered?.allowed).toBe(false);
    expect(offered?.failedChecks.map((failed) => failed.check)).toEqual(["before-review"]);

    const refused = await acknowledge(subject.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details.failedChecks).toEqual(["before-review"]);
    expect(refused.json().error.message).toContain(
      "A STAT case is taken before it is reviewed; this case is reviewed.",
    );
    expect((await read(subject.id)).acknowledgedAt).toBeNull();
  });
});

describe("the stat-acknowledged precondition of preview → reviewed", () => {
  it("refuses to mark an untaken STAT case reviewed, then allows it once a reviewer has taken it", async () => {
    const subject = await caseIn(harness, team, clientId, "preview", { priority: "stat" });
    await signInterpretation(subject.id);
    const move = (await read(subject.id)).allowedTransitions.find(
      (candidate: AllowedTransition) => candidate.ruleId === "sign-off",
    );
    expect(move?.allowed).toBe(false);
    expect(move?.failedChecks.map((failed) => failed.check)).toEqual(["stat-acknowledged"]);

    const refused = await signOff(subject.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details.failedChecks).toEqual(["stat-acknowledged"]);
    expect(refused.json().error.message).toContain(
      "Take this STAT case first (Acknowledge): STAT cases are reviewed only once a reviewer has taken them.",
    );
    expect((await read(subject.id)).stage).toBe("preview");

    expect((await acknowledge(subject.id)).statusCode).toBe(200);
    const moved = await signOff(subject.id);
    expect(moved.statusCode, moved.body).toBe(201);
    expect(moved.json().data.case.stage).toBe("reviewed");
  });

  it("asks a case made STAT again to be taken again", async () => {
    const subject = await caseIn(harness, team, clientId, "preview", { priority: "stat" });
    await signInterpretation(subject.id);
    expect((await acknowledge(subject.id)).statusCode).toBe(200);
    const url = `/cases/${subject.id}/actions`;
    await team.coordinator("POST", url, { body: { action: "set-priority", priority: "routine" } });
    await team.coordinator("POST", url, { body: { action: "set-priority", priority: "stat" } });
    const refused = await signOff(subject.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details.failedChecks).toEqual(["stat-acknowledged"]);
  });

  it("leaves routine cases alone: they are marked reviewed without anyone taking them", async () => {
    const subject = await caseIn(harness, team, clientId, "preview");
    await signInterpretation(subject.id);
    const move = (await read(subject.id)).allowedTransitions.find((candidate) => candidate.ruleId === "sign-off");
    expect(move).toMatchObject({ allowed: true, failedChecks: [] });
    const moved = await signOff(subject.id);
    expect(moved.statusCode, moved.body).toBe(201);
    expect((await read(subject.id)).acknowledgedAt).toBeNull();
  });
});
