import { type AccessGroup, accessGroups, type MenuEntry, permissionsOf } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases, clients } from "../../db/schema.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let clientId: string;
let caseId: string;

beforeAll(async () => {
  harness = await createTestApp();
  const [client] = await harness.database.db
    .insert(clients)
    .values({ name: "Lakeside Children's Hospital", code: "LCH", timezone: "America/Chicago" })
    .returning();
  clientId = client?.id as string;
  const [created] = await harness.database.db
    .insert(cases)
    .values({ caseNumber: "CM-2026-000042", clientId, studyType: "icu-ceeg", stage: "monitoring" })
    .returning();
  caseId = created?.id as string;
});
afterAll(() => harness.close());

async function menuOf(username: string, groups: Parameters<TestApp["tokenFor"]>[1]) {
  const token = await harness.tokenFor(username, groups);
  return harness.app.inject({ method: "GET", url: "/api/chrome", headers: { authorization: `Bearer ${token}` } });
}

const titles = (entries: MenuEntry[]): string[] =>
  entries.flatMap((entry) => [entry.title, ...titles(entry.children ?? [])]);

describe("GET /api/chrome", () => {
  it("gives an admin every entry, with Home and Unauthorized", async () => {
    const response = await menuOf("root", ["admin"]);
    expect(response.statusCode).toBe(200);
    const items: MenuEntry[] = response.json().data.items;
    expect(items[0]).toEqual({ title: "Home", url: "/", icon: "home" });
    expect(items.find((entry) => entry.title === "Unauthorized")?.url).toBe("/unauthorized");
    expect(titles(items)).toEqual(
      expect.arrayContaining([
        "Clients",
        "Billing",
        "Reporting",
        "Users",
        "Audit log",
        "Bug reports",
        "Integration testing",
      ]),
    );
  });

  it("gives a technologist cases and clients but not billing, users or bugs", async () => {
    const items: MenuEntry[] = (await menuOf("tech", ["technologist"])).json().data.items;
    const visible = titles(items);
    expect(visible).toEqual(expect.arrayContaining(["Home", "Clients", "Monitoring", "Assignments", "Unauthorized"]));
    for (const hidden of ["Billing", "Reporting", "Users", "Audit log", "Bugs", "New case"])
      expect(visible).not.toContain(hidden);
  });

  it("gives billing staff billing and reporting but not users", async () => {
    const visible = titles((await menuOf("bill", ["billing"])).json().data.items);
    expect(visible).toEqual(expect.arrayContaining(["Billing", "Reporting", "Closed"]));
    expect(visible).not.toContain("Users");
  });

  it("gives a developer the bug tools without case entries", async () => {
    const visible = titles((await menuOf("dev", ["developer"])).json().data.items);
    expect(visible).toEqual(["Home", "Bugs", "Bug reports", "Integration testing", "Unauthorized"]);
  });

  it("combines the entries of several groups", async () => {
    const visible = titles((await menuOf("multi", ["developer", "billing"])).json().data.items);
    expect(visible).toEqual(expect.arrayContaining(["Billing", "Integration testing"]));
  });

  it("refuses a user without any group with 403 Access denied", async () => {
    const response = await menuOf("nobody", []);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toEqual({ status: 403, code: "forbidden", message: "Access denied" });
  });
});

describe("GET /api/chrome/breadcrumbs", () => {
  let token: string;
  beforeAll(async () => {
    token = await harness.tokenFor("crumbs", ["coordinator"]);
  });
  const crumbs = async (path: string) => {
    const response = await harness.app.inject({
      method: "GET",
      url: `/api/chrome/breadcrumbs?path=${encodeURIComponent(path)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    return response.json().data.items as { title: string; url: string | null }[];
  };

  it("is just Home for the homepage", async () => {
    expect(await crumbs("/")).toEqual([{ title: "Home", url: "/" }]);
  });

  it("resolves a client's name on its detail tabs", async () => {
    expect(await crumbs(`/continuous-monitoring/clients/${clientId}/protocol`)).toEqual([
      { title: "Home", url: "/" },
      { title: "Continuous monitoring", url: null },
      { title: "Clients", url: "/continuous-monitoring/clients" },
      { title: "Lakeside Children's Hospital", url: `/continuous-monitoring/clients/${clientId}/overview` },
      { title: "Protocol", url: `/continuous-monitoring/clients/${clientId}/protocol` },
    ]);
  });

  it("resolves a case number on case tabs", async () => {
    const trail = await crumbs(`/continuous-monitoring/cases/monitoring/${caseId}/time-logs`);
    expect(trail.map((crumb) => crumb.title)).toEqual([
      "Home",
      "Continuous monitoring",
      "Cases",
      "Monitoring cases",
      "CM-2026-000042",
      "Time logs",
    ]);
    expect(trail[3]?.url).toBe("/continuous-monitoring/cases/monitoring");
  });

  it("names the month and client of a billing statement", async () => {
    const trail = await crumbs(`/billing/continuous-monitoring/${clientId}/2026-03`);
    expect(trail.map((crumb) => crumb.title)).toEqual([
      "Home",
      "Billing",
      "Continuous monitoring billing",
      "Lakeside Children's Hospital",
      "March 2026",
    ]);
  });

  it("keeps an unknown id as it is instead of failing", async () => {
    const trail = await crumbs("/continuous-monitoring/clients/00000000-0000-4000-8000-000000000000/overview");
    expect(trail[3]?.title).toBe("00000000-0000-4000-8000-000000000000");
  });

  it("titles create pages", async () => {
    const trail = await crumbs(`/continuous-monitoring/clients/${clientId}/contacts/create`);
    expect(trail.at(-1)).toEqual({
      title: "New contact",
      url: `/continuous-monitoring/clients/${clientId}/contacts/create`,
    });
  });
});

describe("GET /api/chrome/breadcrumbs for each group", () => {
  const casePath = () => `/continuous-monitoring/cases/monitoring/${caseId}`;
  const clientPath = () => `/continuous-monitoring/clients/${clientId}/overview`;
  const statementPath = () => `/billing/continuous-monitoring/${clientId}/2026-03`;

  async function titlesFor(groups: AccessGroup[], username: string, path: string): Promise<string[]> {
    const token = await harness.tokenFor(username, groups);
    const response = await harness.app.inject({
      method: "GET",
      url: `/api/chrome/breadcrumbs?path=${encodeURIComponent(path)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.items.map((crumb: { title: string }) => crumb.title);
  }

  for (const group of [...accessGroups, "none"] as const) {
    const groups: AccessGroup[] = group === "none" ? [] : [group];
    const permissions = permissionsOf(groups);
    const readsCases = permissions.has("cases:read");
    const readsClients = permissions.has("clients:read");
    it(`${readsCases ? "names" : "does not name"} the case and ${readsClients ? "names" : "does not name"} the client for ${group === "none" ? "a user without groups" : `${group === "admin" ? "an" : "a"} ${group}`}`, async () => {
      const caseTrail = await titlesFor(groups, `crumbs-case-${group}`, casePath());
      expect(caseTrail.at(-1)).toBe(readsCases ? "CM-2026-000042" : caseId);
      const clientTrail = await titlesFor(groups, `crumbs-client-${group}`, clientPath());
      expect(clientTrail[3]).toBe(readsClients ? "Lakeside Children's Hospital" : clientId);
      const statementTrail = await titlesFor(groups, `crumbs-statement-${group}`, statementPath());
      expect(statementTrail[3]).toBe(readsClients ? "Lakeside Children's Hospital" : clientId);
      // Whatever the trail says, it never names what the caller may not read.
      const everything = [...caseTrail, ...clientTrail, ...statementTrail].join(" | ");
      if (!readsCases) expect(everything).not.toContain("CM-2026-000042");
      if (!readsClients) expect(everything).not.toContain("Lakeside");
    });
  }

  it("walks groups that may not read cases or clients, so the refusal is tested", () => {
    const blind = [...accessGroups, "none" as const].filter(
      (group) => !permissionsOf(group === "none" ? [] : [group]).has("cases:read"),
    );
    expect(blind).toEqual(["developer", "none"]);
  });
});
