import { describe, expect, it } from "vitest";
import { type MenuDefinition, menu } from "./menu.js";
import { chromeSchema, type MenuEntry, menuDepth } from "./schemas/chrome.js";

const asEntries = (definitions: MenuDefinition[]): MenuEntry[] =>
  definitions.map(({ access: _access, children, ...entry }) => ({
    ...entry,
    ...(children ? { children: asEntries(children) } : {}),
  }));

const depthOf = (entries: MenuEntry[]): number =>
  entries.reduce((deepest, entry) => Math.max(deepest, 1 + depthOf(entry.children ?? [])), 0);

describe("the menu's schema", () => {
  it("takes the whole menu table, every level of it", () => {
    const items = asEntries(menu);
    expect(depthOf(items)).toBeLessThanOrEqual(menuDepth);
    expect(chromeSchema.parse({ items })).toEqual({ items });
  });

  it("refuses an entry nested deeper than it spells out", () => {
    let entry: MenuEntry = { title: "Leaf", url: "/leaf" };
    for (let level = 1; level <= menuDepth; level++) entry = { title: `Level ${level}`, url: "/", children: [entry] };
    expect(chromeSchema.safeParse({ items: [entry] }).success).toBe(false);
  });
});
