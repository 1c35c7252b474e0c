import type { InterpretationItem, InterpretationList } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRows, caseIn, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { collectionOf, createItem, itemPath, sampleInterpretation } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "reports");
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

const previewCase = () => caseIn(harness, team, clientId, "preview");

async function draft(caseId: string, overrides = {}) {
  return createItem<InterpretationItem>(team.reviewer, "interpretation", caseId, sampleInterpretation(overrides));
}

describe("drafting", () => {
  it("starts as an unsigned draft, written by reviewers and coordinators but never technologists", async () => {
    const subject = await previewCase();
    const item = await draft(subject.id);
    expect(item).toMatchObject({ status: "draft", signedBy: null, signedAt: null, addenda: [] });
    expect(item.data.findings[0]).toMatchObject({ location: "L", pattern: "PD", prevalence: "frequent" });
    await createItem(team.coordinator, "interpretation", subject.id, sampleInterpretation());
    const technologist = await team.technologist("POST", collectionOf("interpretation", subject.id), {
      body: sampleInterpretation(),
    });
    expect(technologist.statusCode).toBe(403);
  });

  it("refuses ACNS terms that are not in the vocabulary with 400", async () => {
    const subject = await previewCase();
    const response = await team.reviewer("POST", collectionOf("interpretation", subject.id), {
      body: {
        ...sampleInterpretation(),
        findings: [{ location: "left", pattern: "PD", prevalence: "often" }],
      },
    });
    expect(response.statusCode).toBe(400);
    const paths = response.json().error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(["body.findings.0.location", "body.findings.0.prevalence"]);
    const backwards = await team.reviewer("POST", collectionOf("interpretation", subject.id), {
      body: { ...sampleInterpretation(), periodTo: "2020-01-01T00:00:00Z" },
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.details.issues[0].path).toBe("body.periodTo");
  });
});

describe("signing", () => {
  it("lets a reviewer sign; a coordinator gets 403 and nothing is written", async () => {
    const subject = await previewCase();
    const item = await draft(subject.id);
    const path = itemPath("interpretation", subject.id, item.id);
    const asCoordinator = await team.coordinator("POST", path, { body: { change: "sign", baseRevision: 1 } });
    expect(asCoordinator.statusCode).toBe(403);
    expect(asCoordinator.json().error.message).toMatch(/reviewer/);
    const coordinatorList: InterpretationList = (
      await team.coordinator("GET", collectionOf("interpretation", subject.id))
    ).json().data;
    expect(coordinatorList.summary).toEqual({ signed: false, canSign: false });
    expect(coordinatorList.items[0]?.revision).toBe(1);

    const signed = await team.reviewer("POST", path, { body: { change: "sign", baseRevision: 1 } });
    expect(signed.statusCode, signed.body).toBe(201);
    const final: InterpretationItem = signed.json().data;
    expect(final).toMatchObject({ revision: 2, status: "final", signedBy: { username: team.reviewer.username } });
    expect(Date.now() - Date.parse(final.signedAt as string)).toBeLessThan(60_000);
    const reviewerList = (await team.reviewer("GET", collectionOf("interpretation", subject.id))).json().data;
    expect(reviewerList.summary).toEqual({ signed: true, canSign: true });
    const [audit] = (await auditRows(harness, "case-record.revise", subject.id)).filter(
      (row) => (row.details as { change: string }).change === "sign",
    );
    expect(audit).toMatchObject({ actorUsername: team.reviewer.username });
  });

  it("needs an impression to sign, and saves new words and the signature in one revision", async () => {
    const subject = await previewCase();
    const item = await draft(subject.id, { impression: "" });
    const path = itemPath("interpretation", subject.id, item.id);
    const refused = await team.reviewer("POST", path, { body: { change: "sign", baseRevision: 1 } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details.issues[0].path).toBe("data.impression");
    const withEmptyWords = await team.reviewer("POST", path, {
      body: { change: "sign", baseRevision: 1, data: sampleInterpretation({ impression: "  " }) },
    });
    expect(withEmptyWords.statusCode).toBe(409);
    expect(withEmptyWords.json().error.details.issues[0].path).toBe("body.data.impression");

    const impression = "Normal awake and asleep EEG.";
    const signed = await team.reviewer("POST", path, {
      body: { change: "sign", baseRevision: 1, data: sampleInterpretation({ impression, findings: [] }) },
    });
    expect(signed.statusCode, signed.body).toBe(201);
    expect(signed.json().data).toMatchObject({ revision: 2, status: "final", data: { impression, findings: [] } });
    const history = (await team.reviewer("GET", path)).json().data;
    expect(history.revisions.map((revision: { change: string }) => revision.change)).toEqual(["create", "sign"]);
    expect(history.revisions[1].data.impression).toBe(impression);
  });
});

describe("after signing", () => {
  it("refuses edits, deletion and a second signature, and takes addenda beside the unchanged text", async () => {
    const subject = await previewCase();
    const item = await draft(subject.id);
    const path = itemPath("interpretation", subject.id, item.id);
    await team.reviewer("POST", path, { body: { change: "sign", baseRevision: 1 } });

    const edit = await team.reviewer("POST", path, {
      body: { change: "edit", baseRevision: 2, data: sampleInterpretation({ impression: "Changed" }) },
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error.message).toMatch(/signed; add an addendum/);
    const remove = await team.admin("POST", path, { body: { change: "delete", baseRevision: 2 } });
    expect(remove.statusCode).toBe(409);
    const again = await team.reviewer2("POST", path, { body: { change: "sign", baseRevision: 2 } });
    expect(again.statusCode).toBe(409);

    const text = "Addendum: the 03:10 event was reviewed on video; it is a movement artifact.";
    const added = await team.reviewer2("POST", path, { body: { change: "addendum", baseRevision: 2, text } });
    expect(added.statusCode, added.body).toBe(201);
    const amended: InterpretationItem = added.json().data;
    expect(amended).toMatchObject({ revision: 3, status: "final", signedBy: { username: team.reviewer.username } });
    expect(amended.data).toEqual(item.data);
    expect(amended.addenda).toEqual([
      {
        revision: 3,
        text,
        author: expect.objectContaining({ username: team.reviewer2.username }),
        createdAt: expect.any(String),
      },
    ]);
    const history = (await team.billing("GET", path)).json().data;
    expect(history.revisions.map((revision: { change: string }) => revision.change)).toEqual([
      "create",
      "sign",
      "addendum",
    ]);
    expect(history.revisions[2].data).toEqual(history.revisions[1].data);
  });

  it("refuses an addendum to a draft", async () => {
    const subject = await previewCase();
    const item = await draft(subject.id);
    const response = await team.reviewer("POST", itemPath("interpretation", subject.id, item.id), {
      body: { change: "addendum", baseRevision: 1, text: "Too early" },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/draft/);
  });
});

describe("the final-interpretation precondition of preview → reviewed", () => {
  it("blocks sign-off until an interpretation is signed, then lets the reviewer move the case", async () => {
    const subject = await previewCase();
    const item = await draft(subject.id);
    const blocked = await team.reviewer("POST", `/cases/${subject.id}/transitions`, { body: { to: "reviewed" } });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().error.details.failedChecks).toEqual(["final-interpretation-signed"]);

    await team.reviewer("POST", itemPath("interpretation", subject.id, item.id), {
      body: { change: "sign", baseRevision: 1 },
    });
    const offered = (await team.reviewer("GET", `/cases/${subject.id}`)).json().data.allowedTransitions;
    expect(offered.find((move: { ruleId: string }) => move.ruleId === "sign-off")).toMatchObject({ allowed: true });
    const moved = await team.reviewer("POST", `/cases/${subject.id}/transitions`, { body: { to: "reviewed" } });
    expect(moved.statusCode, moved.body).toBe(201);
    expect(moved.json().data.case.stage).toBe("reviewed");

    // Interpretations are read-only in reviewed: addenda need the case back in preview (with a reason).
    const addendum = await team.reviewer("POST", itemPath("interpretation", subject.id, item.id), {
      body: { change: "addendum", baseRevision: 2, text: "Late addendum" },
    });
    expect(addendum.statusCode).toBe(409);
  });

  it("does not count a deleted draft or another case's signed interpretation", async () => {
    const subject = await previewCase();
    const other = await previewCase();
    const signedElsewhere = await draft(other.id);
    await team.reviewer("POST", itemPath("interpretation", other.id, signedElsewhere.id), {
      body: { change: "sign", baseRevision: 1 },
    });
    const item = await draft(subject.id);
    await team.reviewer("POST", itemPath("interpretation", subject.id, item.id), {
      body: { change: "delete", baseRevision: 1 },
    });
    const blocked = await team.reviewer("POST", `/cases/${subject.id}/transitions`, { body: { to: "reviewed" } });
    expect(blocked.statusCode).toBe(409);
  });
});
