import { type MenuDefinition, menu } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { hasMenuIcon } from "./menu-icon";

function iconNames(entries: readonly MenuDefinition[]): string[] {
  return entries.flatMap((entry) => [...(entry.icon ? [entry.icon] : []), ...iconNames(entry.children ?? [])]);
}

describe("menu icons", () => {
  it("has an icon for every icon the contract's menu names, so no entry falls back to a chevron", () => {
    expect(iconNames(menu).filter((name) => !hasMenuIcon(name))).toEqual([]);
  });
});
