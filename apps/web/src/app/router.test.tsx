import { type PageDefinition, pageList, specRoutes, toRoutePattern } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { baseLayoutRouteId, chromeLayoutRouteId, createRoutes, pageComponents } from "./router";

/** Spec §2, verbatim, with `{param}` written React Router style. */
const specPatterns = specRoutes.map(toRoutePattern);

const baseLayoutRoutes = [
  "/signin",
  "/report/:token",
  "/reporting/continuous-monitoring/:clientId",
  "/billing/continuous-monitoring/:clientId/:month",
];

function layoutRoutes() {
  const [root] = createRoutes();
  const children = root?.children ?? [];
  const pathsUnder = (id: string) =>
    children.find((route) => route.id === id)?.children?.map((route) => route.path) ?? [];
  return {
    base: pathsUnder(baseLayoutRouteId),
    chrome: pathsUnder(chromeLayoutRouteId),
    catchAll: children.some((route) => route.path === "*"),
  };
}

describe("page table → router", () => {
  it("has a route for every spec route, in the layout the spec gives it", () => {
    const { base, chrome } = layoutRoutes();
    for (const path of specPatterns) {
      const inBase = base.includes(path);
      const inChrome = chrome.includes(path);
      expect({ path, inBase, inChrome }).toEqual({
        path,
        inBase: baseLayoutRoutes.includes(path),
        inChrome: !baseLayoutRoutes.includes(path),
      });
    }
  });

  it("routes no page the spec does not list, except the account page, intake case detail, audit viewer, accounting of disclosures, report download page, watch board and unit-test tab's address the contract adds", () => {
    const { base, chrome, catchAll } = layoutRoutes();
    const extra = [...base, ...chrome].filter((path) => path && !specPatterns.includes(path));
    expect(extra.sort()).toEqual([
      "/account",
      "/audit",
      "/audit/disclosures",
      "/bugs/unit-tests",
      "/continuous-monitoring/cases/intake/:caseId/:tab",
      "/report/:token",
      "/reporting/service-levels",
      "/watch",
    ]);
    expect(catchAll).toBe(true);
  });

  it("uses the default layout for the index and chrome for everything else", () => {
    const layouts = Object.fromEntries((pageList as readonly PageDefinition[]).map((page) => [page.path, page.layout]));
    expect(layouts["/"]).toBe("default");
    for (const path of specPatterns) {
      if (path === "/") continue;
      expect({ path, layout: layouts[path] }).toEqual({
        path,
        layout: baseLayoutRoutes.includes(path) ? "base" : "app",
      });
    }
  });

  it("maps every page to a screen component that loads", async () => {
    for (const page of pageList) {
      const load = pageComponents[page.id];
      expect(load, page.id).toBeTypeOf("function");
      expect(await load?.(), page.id).toBeTypeOf("function");
    }
  });
});
