import { type AccessGroup, accessGroups, isAllowed, type RouteDefinition, routes } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { infrastructureRoutes } from "../app.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";

/**
 * Walks the whole route table: every registered route is either in the contract (with a declared access) or a
 * listed infrastructure route; and for every contract route, each caller — anonymous, a user without groups,
 * and a user of each group — gets exactly what the declared access says.
 */
let harness: TestApp;
const tokens = new Map<string, string>();
const registered: string[] = [];

beforeAll(async () => {
  harness = await createTestApp();
  for (const group of accessGroups) tokens.set(group, await harness.tokenFor(`matrix-${group}`, [group]));
  tokens.set("none", await harness.tokenFor("matrix-none", []));
  registered.push(...harness.app.registeredRoutes);
});
afterAll(() => harness.close());

const table = Object.entries(routes) as [string, RouteDefinition][];

/** Fills `:params` with harmless sample values. */
function sampleUrl(definition: RouteDefinition): string {
  let url = definition.path.replace(/:(\w+)/g, (_all, name: string) =>
    name === "username" ? "matrix-admin" : "00000000-0000-4000-8000-000000000000",
  );
  if (definition.querystring?.shape && "path" in definition.querystring.shape) url += "?path=/";
  return url;
}

describe("the authorization matrix", () => {
  it("finds routes registered by the router", () => {
    expect(registered.length).toBeGreaterThanOrEqual(table.length);
  });

  it("has every route either in the contract's table or listed as infrastructure", () => {
    const known = new Set<string>([
      ...table.map(([, definition]) => `${definition.method} ${definition.path}`),
      ...infrastructureRoutes,
    ]);
    const unknown = registered.filter((route) => !known.has(route));
    expect(unknown).toEqual([]);
    // And the check can fail: a route outside both lists is reported.
    expect(["GET /api/secret-backdoor"].filter((route) => !known.has(route))).toHaveLength(1);
  });

  it("declares an access rule for every route of the table", () => {
    for (const [name, definition] of table) {
      expect(definition.access, name).toMatch(/^(public|signed-in|[a-z-]+:[a-z-]+)$/);
    }
  });

  for (const [name, definition] of table) {
    describe(`${definition.method} ${definition.path} (${definition.access})`, () => {
      it(
        definition.access === "public" ? "is open to anonymous callers" : "refuses anonymous callers with 401",
        async () => {
          const response = await harness.app.inject({ method: definition.method, url: sampleUrl(definition) });
          if (definition.access === "public") expect(response.statusCode, name).not.toBe(401);
          else expect(response.statusCode, name).toBe(401);
        },
      );

      for (const caller of [...accessGroups, "none"] as const) {
        const groups: AccessGroup[] = caller === "none" ? [] : [caller];
        const allowed = isAllowed(definition.access, groups);
        it(`${allowed ? "lets" : "refuses"} ${caller === "none" ? "a user without groups" : `a ${caller}`}`, async () => {
          const response = await harness.app.inject({
            method: definition.method,
            url: sampleUrl(definition),
            headers: { authorization: `Bearer ${tokens.get(caller)}` },
          });
          if (allowed) {
            expect(response.statusCode, `${name} as ${caller}`).not.toBe(401);
            // The menu call itself refuses users without groups ("Access denied"), by design (PRODUCT.md §1).
            if (!(name === "getChrome" && caller === "none"))
              expect(response.statusCode, `${name} as ${caller}`).not.toBe(403);
          } else {
            expect(response.statusCode, `${name} as ${caller}`).toBe(403);
            expect(response.json().error.message).toBe("Access denied");
          }
        });
      }
    });
  }
});
