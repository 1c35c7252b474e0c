import { describe, expect, it } from "vitest";
import { isAllowed, permissionsOf } from "./access.js";
import { menu } from "./menu.js";
import { findPage, matchPath, pages } from "./pages.js";

/** Spec §2's route table, verbatim. */
const specRoutes = [
  "/",
  "/bugs",
  "/bugs/integration-testing",
  "/users",
  "/signin",
  "/unauthorized",
  "/billing",
  "/billing/continuous-monitoring",
  "/billing/continuous-monitoring/{clientId}",
  "/billing/continuous-monitoring/{clientId}/{month}",
  "/reporting",
  "/reporting/continuous-monitoring",
  "/reporting/continuous-monitoring/{clientId}",
  "/continuous-monitoring/clients",
  "/continuous-monitoring/clients/create",
  "/continuous-monitoring/clients/{clientId}/{tab}",
  "/continuous-monitoring/clients/{clientId}/contacts/create",
  "/continuous-monitoring/clients/{clientId}/useful-links/create",
  "/continuous-monitoring/cases/create",
  "/continuous-monitoring/cases/intake",
  "/continuous-monitoring/cases/monitoring",
  "/continuous-monitoring/cases/monitoring/{caseId}/{tab}",
  "/continuous-monitoring/cases/assignments",
  "/continuous-monitoring/cases/preview",
  "/continuous-monitoring/cases/preview/{caseId}/{tab}",
  "/continuous-monitoring/cases/reviewed",
  "/continuous-monitoring/cases/reviewed/{caseId}/{tab}",
  "/continuous-monitoring/cases/closed",
  "/continuous-monitoring/cases/closed/{caseId}/{tab}",
];

const toPattern = (route: string) => route.replace(/\{(\w+)\}/g, ":$1");

describe("the page table", () => {
  it("has a page for every route of spec §2", () => {
    const patterns = new Set(pages.map((page) => page.path));
    const missing = specRoutes.map(toPattern).filter((route) => !patterns.has(route));
    expect(missing).toEqual([]);
  });

  it("adds only the intake case detail to the spec's routes", () => {
    const spec = new Set(specRoutes.map(toPattern));
    expect(pages.map((page) => page.path).filter((path) => !spec.has(path))).toEqual([
      "/continuous-monitoring/cases/intake/:caseId/:tab",
    ]);
  });

  it("uses the base layout exactly where the spec says", () => {
    const base = pages.filter((page) => page.layout === "base").map((page) => page.path);
    expect(base.sort()).toEqual(
      [
        "/signin",
        "/reporting/continuous-monitoring/:clientId",
        "/billing/continuous-monitoring/:clientId/:month",
      ].sort(),
    );
    expect(pages.find((page) => page.path === "/")?.layout).toBe("default");
  });

  it("has unique ids", () => {
    expect(new Set(pages.map((page) => page.id)).size).toBe(pages.length);
  });

  it("prefers a fixed segment over a parameter", () => {
    expect(findPage("/continuous-monitoring/clients/create")?.page.id).toBe("client-create");
    expect(findPage("/continuous-monitoring/clients/abc/contacts/create")?.page.id).toBe("contact-create");
    expect(findPage("/continuous-monitoring/clients/abc/contacts")).toMatchObject({
      page: { id: "client-detail" },
      params: { clientId: "abc", tab: "contacts" },
    });
  });

  it("finds no page for unknown paths", () => {
    expect(findPage("/no/such/page")).toBeUndefined();
    expect(matchPath("/a/:b", "/a")).toBeUndefined();
  });
});

describe("access", () => {
  it("gives no permission to unknown group names", () => {
    expect(permissionsOf(["superuser"]).size).toBe(0);
  });

  it("lets any signed-in user through 'signed-in' and nobody anonymous", () => {
    expect(isAllowed("signed-in", [])).toBe(true);
    expect(isAllowed("signed-in", undefined)).toBe(false);
    expect(isAllowed("public", undefined)).toBe(true);
  });

  it("keeps users and audit for administrators", () => {
    for (const group of ["coordinator", "technologist", "reviewer", "billing", "developer"]) {
      expect(isAllowed("users:manage", [group])).toBe(false);
      expect(isAllowed("audit:read", [group])).toBe(false);
    }
    expect(isAllowed("users:manage", ["admin"])).toBe(true);
  });

  it("points every menu entry at an existing page", () => {
    const entries = menu.flatMap((entry) => [entry, ...(entry.children ?? [])]);
    for (const entry of entries) {
      const page = findPage(entry.url);
      expect(page, entry.url).toBeDefined();
    }
  });
});
