import { type Case, type CaseStage, caseStages } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseIn, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "screen-rules");
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

const groups = ["technologist", "reviewer", "billing", "coordinator", "admin"] as const;

describe("what the case tells a screen it may show", () => {
  it("offers editing exactly where the PATCH is accepted, for every group and stage", async () => {
    for (const stage of caseStages) {
      const subject = await caseIn(harness, team, clientId, stage);
      for (const group of groups) {
        const seen: Case = (await team[group]("GET", `/cases/${subject.id}`)).json().data;
        const current: Case = (await team.admin("GET", `/cases/${subject.id}`)).json().data;
        // Every field sent with the value it has: no change, so only the stage and the caller decide.
        const patch = await team[group]("PATCH", `/cases/${subject.id}`, {
          ifMatch: current.version,
          body: { studyType: current.studyType, hasVideo: current.hasVideo },
        });
        expect(patch.statusCode < 300, `${group} in ${stage}: ${patch.body}`).toBe(seen.allowedChanges.edit);
      }
    }
  });

  it("offers archiving exactly where the DELETE is accepted, for every group and stage", async () => {
    for (const stage of caseStages) {
      const subject = await caseIn(harness, team, clientId, stage);
      const offered = new Map<string, boolean>();
      for (const group of groups) {
        offered.set(
          group,
          ((await team[group]("GET", `/cases/${subject.id}`)).json().data as Case).allowedChanges.archive,
        );
      }
      // The refused ones first: an accepted DELETE archives the case for everyone after it.
      for (const group of [...groups].sort((a, b) => Number(offered.get(a)) - Number(offered.get(b)))) {
        const response = await team[group]("DELETE", `/cases/${subject.id}`);
        expect(response.statusCode === 200, `${group} in ${stage}: ${response.body}`).toBe(offered.get(group));
        if (response.statusCode === 200) {
          const archived: Case = (await team.admin("GET", `/cases/${subject.id}`)).json().data;
          expect(archived.allowedChanges).toEqual({ edit: false, archive: false });
          break;
        }
      }
    }
  });

  it("lists the tabs of the case's stage: billing notes from review on, the pinned protocol once closed", async () => {
    const expected: Record<CaseStage, string[]> = {
      intake: [],
      monitoring: [],
      preview: [],
      reviewed: ["billing-notes"],
      closed: ["billing-notes", "client-protocol"],
    };
    for (const stage of caseStages) {
      const subject = await caseIn(harness, team, clientId, stage);
      const tabs = ((await team.reviewer("GET", `/cases/${subject.id}`)).json().data as Case).tabs;
      expect(tabs.slice(0, 2), stage).toEqual(["overview", "patient-details"]);
      expect(
        tabs.filter((tab) => tab === "billing-notes" || tab === "client-protocol"),
        stage,
      ).toEqual(expected[stage]);
    }
  });
});
