import { describe, expect, it } from "vitest";
import { isAllowed, permissionsOf } from "./access.js";
import { menu } from "./menu.js";
import { caseStageOfPath, findPage, matchPath, pageList, pages } from "./pages.js";
import { caseStages } from "./schemas/case-workflow.js";
import { specRoutes, toRoutePattern } from "./spec-routes.js";

describe("the page table", () => {
  it("has a page for every route of spec §2", () => {
    const patterns = new Set<string>(pageList.map((page) => page.path));
    const missing = specRoutes.map(toRoutePattern).filter((route) => !patterns.has(route));
    expect(missing).toEqual([]);
  });

  it("adds only the unit-test tab's address, the watch board, the account page, the intake case detail, the audit viewer, the accounting of disclosures, the HL7 message log and its message page, the interface conformance page, the critical-finding acknowledgement page, the report download page, the invoice download page, the report's printable page, the invoices list, receivables, payments, exports and printable invoice to the spec's routes", () => {
    const spec = new Set(specRoutes.map(toRoutePattern));
    expect(pageList.map((page) => page.path).filter((path) => !spec.has(path))).toEqual([
      "/acknowledge/:token",
      "/report/:token",
      "/invoice/:token",
      "/bugs/unit-tests",
      "/watch",
      "/account",
      "/audit",
      "/audit/disclosures",
      "/interfaces/hl7/messages",
      "/interfaces/hl7/messages/:messageId",
      "/interfaces/conformance",
      "/billing/invoices",
      "/billing/receivables",
      "/billing/payments",
      "/billing/receivables/:clientId",
      "/billing/exports",
      "/billing/invoices/:invoiceId",
      "/reporting/service-levels",
      "/continuous-monitoring/cases/intake/:caseId/:tab",
      "/continuous-monitoring/cases/:caseId/reports/:reportId/print",
    ]);
  });

  it("uses the base layout exactly where the spec says", () => {
    const base = pageList.filter((page) => page.layout === "base").map((page) => page.path);
    expect(base.sort()).toEqual(
      [
        "/signin",
        "/acknowledge/:token",
        "/report/:token",
        "/invoice/:token",
        "/reporting/continuous-monitoring/:clientId",
        "/billing/continuous-monitoring/:clientId/:month",
        "/billing/invoices/:invoiceId",
        "/billing/receivables/:clientId",
        "/continuous-monitoring/cases/:caseId/reports/:reportId/print",
      ].sort(),
    );
    expect(pageList.find((page) => page.path === "/")?.layout).toBe("default");
  });

  it("has unique ids", () => {
    expect(new Set(pageList.map((page) => page.id)).size).toBe(pageList.length);
  });

  it("prefers a fixed segment over a parameter", () => {
    expect(findPage("/continuous-monitoring/clients/create")?.page.id).toBe("client-create");
    expect(findPage("/continuous-monitoring/clients/abc/contacts/create")?.page.id).toBe("contact-create");
    expect(findPage("/continuous-monitoring/clients/abc/contacts")).toMatchObject({
      page: { id: "client-detail" },
      params: { clientId: "abc", tab: "contacts" },
    });
  });

  it("has a queue and a case page for every case stage", () => {
    for (const stage of caseStages) {
      expect(pages[`cases-${stage}`].path).toBe(`/continuous-monitoring/cases/${stage}`);
      expect(pages[`case-${stage}-detail`].path).toBe(`/continuous-monitoring/cases/${stage}/:caseId/:tab`);
    }
    expect(pageList.filter((page) => page.id.startsWith("cases-") && page.id !== "cases-assignments")).toHaveLength(
      caseStages.length,
    );
  });

  it("makes each page's address from its pattern, params encoded and empty query values left out", () => {
    expect(pages.clients.href()).toBe("/continuous-monitoring/clients");
    expect(pages["client-detail"].href({ clientId: "a/b c", tab: "contacts" })).toBe(
      "/continuous-monitoring/clients/a%2Fb%20c/contacts",
    );
    expect(pages["cases-monitoring"].href({}, { search: "ann lee", clientId: undefined, sort: "" })).toBe(
      "/continuous-monitoring/cases/monitoring?search=ann+lee",
    );
    const href = pages["case-preview-detail"].href({ caseId: "c1", tab: "timeline" });
    expect(findPage(href)).toMatchObject({
      page: { id: "case-preview-detail" },
      params: { caseId: "c1", tab: "timeline" },
    });
  });

  it("tells the case stage a queue or case page is under", () => {
    expect(caseStageOfPath("/continuous-monitoring/cases/reviewed")).toBe("reviewed");
    expect(caseStageOfPath("/continuous-monitoring/cases/closed/c1/timeline")).toBe("closed");
    expect(caseStageOfPath("/continuous-monitoring/cases/assignments")).toBeUndefined();
    expect(caseStageOfPath("/continuous-monitoring/clients/c1/cases")).toBeUndefined();
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
