import type { Case, CasePage } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseIn, createClient, openCase, sampleCase, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/*
 * The queue search as a coordinator on the phone uses it: whatever part of a name they hear, in any order, with or
 * without its accents, and the digits of a case number or an MRN wherever they sit.
 */

let harness: TestApp;
let team: Team;
let clientId: string;
let zoe: Case;
let brian: Case;
let anna: Case;

function patient(firstName: string, lastName: string, mrn: string) {
  return { patient: { ...sampleCase("unused").patient, firstName, lastName, mrn } };
}

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "search");
  clientId = (await createClient(team.coordinator)).id;
  zoe = await openCase(team.coordinator, clientId, patient("Zoë", "O'Brien-Łukasz", "QA-4471777"));
  // Near misses: the same letters inside a word, or the same sounds spelled as one word.
  brian = await openCase(team.coordinator, clientId, patient("Brian", "Obrien", "QA-5550002"));
  anna = await openCase(team.coordinator, clientId, patient("Anna", "Zukasz", "QA-8880003"));
});
afterAll(() => harness.close());

async function found(search: string, stage = "intake", client = clientId): Promise<string[]> {
  const query = new URLSearchParams({ clientId: client, search });
  const response = await team.coordinator("GET", `/cases/${stage}?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data as CasePage).items.map((item) => item.id).sort();
}

describe("case queue search", () => {
  it("finds a patient by any word of a hyphenated or apostrophed name, not only its start", async () => {
    expect(await found("O'Brien")).toEqual([zoe.id]);
    expect(await found("Brien")).toEqual([zoe.id]);
    expect(await found("Łukasz")).toEqual([zoe.id]);
    expect(await found("O'Brien-Łukasz")).toEqual([zoe.id]);
  });

  it("ignores accents and case on both sides", async () => {
    expect(await found("zoe")).toEqual([zoe.id]);
    expect(await found("ZOË")).toEqual([zoe.id]);
    expect(await found("lukasz")).toEqual([zoe.id]);
    expect(await found("ŁUKASZ")).toEqual([zoe.id]);
  });

  it("needs every word typed, in any order", async () => {
    expect(await found("Łukasz Zoe")).toEqual([zoe.id]);
    expect(await found("zoe obrien")).toEqual([]);
    expect(await found("brian obrien")).toEqual([brian.id]);
  });

  it("matches letters at the start of a word, so a fragment inside a word finds nothing", async () => {
    expect(await found("ukasz")).toEqual([]);
    expect(await found("rien")).toEqual([]);
    expect(await found("zukasz")).toEqual([anna.id]);
  });

  it("finds case-number and MRN digits anywhere, and a whole case number typed with its dashes", async () => {
    const digits = zoe.caseNumber.slice(-6);
    expect(await found(digits)).toEqual([zoe.id]);
    expect(await found(zoe.caseNumber.toLowerCase())).toEqual([zoe.id]);
    expect(await found("1777")).toEqual([zoe.id]);
    expect(await found("471777")).toEqual([zoe.id]);
    expect(await found("qa-4471777")).toEqual([zoe.id]);
    expect(await found("555")).toEqual([brian.id]);
  });

  it("treats LIKE wildcards and lone punctuation as plain text", async () => {
    expect(await found("%")).toEqual([anna.id, brian.id, zoe.id].sort());
    expect(await found("_")).toEqual([anna.id, brian.id, zoe.id].sort());
    expect(await found("nobody%")).toEqual([]);
    expect(await found("o%brien")).toEqual([zoe.id]);
  });

  it("searches the latest patient details after a correction, not the name it replaced", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring", patient("Siobhán", "Ní Dhúill", "QA-3330009"));
    expect(await found("siobhan", "monitoring")).toEqual([subject.id]);
    const corrected = await team.technologist("PUT", `/cases/monitoring/${subject.id}/patient-details`, {
      ifMatch: 1,
      body: { ...patient("Siobhán", "Øberg", "QA-3330009").patient },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(await found("dhuill", "monitoring")).toEqual([]);
    expect(await found("oberg", "monitoring")).toEqual([subject.id]);
  });
});
