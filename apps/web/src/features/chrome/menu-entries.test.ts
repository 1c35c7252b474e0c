import { isAllowed, type MenuDefinition, type MenuEntry, menu } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { flattenMenuEntries } from "./menu-entries";

/** The menu a group's member is sent, as `GET /api/chrome` filters the contract's menu. */
function menuOf(groups: string[], entries: readonly MenuDefinition[] = menu): MenuEntry[] {
  return entries
    .filter((entry) => isAllowed(entry.access, groups))
    .map(({ title, url, icon, children }) => ({
      title,
      url,
      icon,
      ...(children ? { children: menuOf(groups, children) } : {}),
    }));
}

describe("the home page's sections", () => {
  it("lists each place once by its own title, the Monitoring queue included for a coordinator", () => {
    const sections = flattenMenuEntries(menuOf(["coordinator"]));
    const titles = sections.map((entry) => entry.title);
    expect(titles).toEqual(expect.arrayContaining(["Watch board", "Clients", "Intake", "Monitoring", "Preview"]));
    expect(titles).not.toContain("Unauthorized");
    const urls = sections.map((entry) => entry.url);
    expect(new Set(urls).size).toBe(urls.length);
  });
});
