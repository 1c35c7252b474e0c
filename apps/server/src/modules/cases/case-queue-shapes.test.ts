import type { CaseListItem, CasePage } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases } from "../../db/schema.js";
import { createClient, openCase, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/*
 * The queue's statements are built once per filter shape and reused with other values (case-queue-repository.ts).
 * Every answer here is checked against the client's whole queue filtered, sorted and paged in the test, so a
 * statement that kept an earlier request's values, or served one shape with another's text, shows.
 */

let harness: TestApp;
let team: Team;
let clientA: string;
let clientB: string;
let everyA: CaseListItem[];
let everyB: CaseListItem[];
const day = (index: number) => new Date(Date.UTC(2026, 2, 1 + index));

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "queue-shapes");
  clientA = (await createClient(team.coordinator)).id;
  clientB = (await createClient(team.coordinator)).id;
  const plan: {
    client: string;
    priority: "stat" | "routine";
    technologist?: Team["technologist"];
    reviewer?: Team["reviewer"];
  }[] = [
    { client: clientA, priority: "routine", technologist: team.technologist },
    { client: clientA, priority: "stat", technologist: team.technologist2, reviewer: team.reviewer },
    { client: clientA, priority: "routine", reviewer: team.reviewer2 },
    { client: clientA, priority: "routine", technologist: team.technologist2 },
    { client: clientA, priority: "stat" },
    { client: clientA, priority: "routine", technologist: team.technologist, reviewer: team.reviewer2 },
    { client: clientB, priority: "routine", technologist: team.technologist },
    { client: clientB, priority: "stat", reviewer: team.reviewer },
    { client: clientB, priority: "routine" },
  ];
  for (const [index, step] of plan.entries()) {
    const opened = await openCase(team.coordinator, step.client, { priority: step.priority });
    // Distinct creation days, not in the order of opening, so the orders tell apart.
    await harness.database.db
      .update(cases)
      .set({ createdAt: day((index * 5) % plan.length) })
      .where(eq(cases.id, opened.id));
    if (step.technologist) {
      const assigned = await team.coordinator("POST", `/cases/${opened.id}/actions`, {
        body: { action: "assign-technologist", technologistId: step.technologist.sub },
      });
      expect(assigned.statusCode, assigned.body).toBe(200);
    }
    if (step.reviewer) {
      const assigned = await team.coordinator("POST", `/cases/${opened.id}/actions`, {
        body: { action: "assign-reviewer", reviewerId: step.reviewer.sub },
      });
      expect(assigned.statusCode, assigned.body).toBe(200);
    }
  }
  everyA = (await queue(`clientId=${clientA}&limit=100`)).items;
  everyB = (await queue(`clientId=${clientB}&limit=100`)).items;
});
afterAll(() => harness.close());

async function queue(query: string): Promise<CasePage> {
  const response = await team.reviewer("GET", `/cases/intake?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

const ids = (items: CaseListItem[]) => items.map((item) => item.id);

describe("the stage queue's statements, built once per filter shape", () => {
  it("lists each client's own cases, STAT first then oldest first, one after the other and at once", async () => {
    expect(everyA).toHaveLength(6);
    expect(everyB).toHaveLength(3);
    const byPriorityThenAge = [...everyA].sort(
      (left, right) =>
        Number(right.priority === "stat") - Number(left.priority === "stat") ||
        left.createdAt.localeCompare(right.createdAt),
    );
    expect(ids(everyA)).toEqual(ids(byPriorityThenAge));
    for (const item of everyB) expect(item.clientId).toBe(clientB);
    const [a, b, a2] = await Promise.all([
      queue(`clientId=${clientA}&limit=100`),
      queue(`clientId=${clientB}&limit=100`),
      queue(`clientId=${clientA}&limit=100`),
    ]);
    expect(a.items).toEqual(everyA);
    expect(b.items).toEqual(everyB);
    expect(a2.items).toEqual(everyA);
    expect(a.total).toBe(6);
    expect(b.total).toBe(3);
  });

  it("filters by each value of a filter, and by several filters together", async () => {
    const cases: [string, (item: CaseListItem) => boolean][] = [
      ["priority=stat", (item) => item.priority === "stat"],
      ["priority=routine", (item) => item.priority === "routine"],
      [`reviewerId=${team.reviewer.sub}`, (item) => item.reviewer?.sub === team.reviewer.sub],
      [`reviewerId=${team.reviewer2.sub}`, (item) => item.reviewer?.sub === team.reviewer2.sub],
      [
        `technologistId=${team.technologist.sub}`,
        (item) => item.technologists.some((t) => t.sub === team.technologist.sub),
      ],
      [
        `technologistId=${team.technologist2.sub}`,
        (item) => item.technologists.some((t) => t.sub === team.technologist2.sub),
      ],
      [`createdFrom=${day(3).toISOString()}`, (item) => item.createdAt >= day(3).toISOString()],
      [`createdTo=${day(3).toISOString()}`, (item) => item.createdAt <= day(3).toISOString()],
      [
        `createdFrom=${day(2).toISOString()}&createdTo=${day(6).toISOString()}`,
        (item) => item.createdAt >= day(2).toISOString() && item.createdAt <= day(6).toISOString(),
      ],
      [
        `priority=routine&technologistId=${team.technologist.sub}&createdFrom=${day(0).toISOString()}`,
        (item) => item.priority === "routine" && item.technologists.some((t) => t.sub === team.technologist.sub),
      ],
      [
        `priority=stat&reviewerId=${team.reviewer.sub}`,
        (item) => item.priority === "stat" && item.reviewer?.sub === team.reviewer.sub,
      ],
    ];
    for (const [query, keep] of cases) {
      const expected = everyA.filter(keep);
      const page = await queue(`clientId=${clientA}&limit=100&${query}`);
      expect(ids(page.items), query).toEqual(ids(expected));
      expect(page.total, query).toBe(expected.length);
    }
    // The same shapes again for the other client: the statements are reused with its values.
    const stat = await queue(`clientId=${clientB}&limit=100&priority=stat`);
    expect(ids(stat.items)).toEqual(ids(everyB.filter((item) => item.priority === "stat")));
  });

  it("searches by one word and by several, words and digits alike", async () => {
    const [first, second] = everyA as [CaseListItem, CaseListItem];
    const lastName = (item: CaseListItem) => item.patientName?.split(" ")[1] as string;
    // Six digits match anywhere: in the case number or in an MRN, whoever's it is.
    const digits = (item: CaseListItem) => item.caseNumber.slice(-6);
    const holds = (text: string) => (item: CaseListItem) =>
      item.caseNumber.includes(text) || Boolean(item.mrn?.includes(text));
    const searches: [string, (item: CaseListItem) => boolean][] = [
      [lastName(first), (item) => item.id === first.id],
      [lastName(second), (item) => item.id === second.id],
      [first.caseNumber.toLowerCase(), (item) => item.id === first.id],
      [digits(first), holds(digits(first))],
      [digits(second), holds(digits(second))],
      [`${digits(second)} ${lastName(second)}`, (item) => item.id === second.id],
      [`jordan ${lastName(first)}`, (item) => item.id === first.id],
      [`${lastName(first)} ${lastName(second)}`, () => false],
    ];
    for (const [search, keep] of searches) {
      const page = await queue(`clientId=${clientA}&limit=100&search=${encodeURIComponent(search)}`);
      expect(ids(page.items), search).toEqual(ids(everyA.filter(keep)));
    }
  });

  it("pages and sorts as the whole queue does", async () => {
    for (const offset of [0, 2, 4]) {
      const page = await queue(`clientId=${clientA}&limit=2&offset=${offset}`);
      expect(ids(page.items), `offset ${offset}`).toEqual(ids(everyA.slice(offset, offset + 2)));
      expect(page).toMatchObject({ total: 6, limit: 2, offset });
    }
    const newest = await queue(`clientId=${clientA}&limit=100&sort=createdAt&order=desc`);
    expect(ids(newest.items)).toEqual(ids([...everyA].sort((l, r) => r.createdAt.localeCompare(l.createdAt))));
    const byNumber = await queue(`clientId=${clientA}&limit=100&sort=caseNumber`);
    expect(ids(byNumber.items)).toEqual(ids([...everyA].sort((l, r) => l.caseNumber.localeCompare(r.caseNumber))));
    const whole = await queue("limit=100");
    expect(new Set(ids(whole.items))).toEqual(new Set([...ids(everyA), ...ids(everyB)]));
  });
});
