import { type MenuEntry, pages } from "@vigil/contract";

/** PRODUCT.md §7: the entry titled Home is the homepage, the one titled Unauthorized the denial redirect. */
export const homeEntryTitle = "Home";
export const unauthorizedEntryTitle = "Unauthorized";
export const defaultHomeUrl = pages.home.href();
export const defaultUnauthorizedUrl = pages.unauthorized.href();

export function findMenuEntry(items: readonly MenuEntry[] | undefined, title: string): MenuEntry | undefined {
  for (const item of items ?? []) {
    if (item.title === title) return item;
    const nested = findMenuEntry(item.children, title);
    if (nested) return nested;
  }
  return undefined;
}

export function homeUrlOf(items: readonly MenuEntry[] | undefined): string {
  return findMenuEntry(items, homeEntryTitle)?.url ?? defaultHomeUrl;
}

export function unauthorizedUrlOf(items: readonly MenuEntry[] | undefined): string {
  return findMenuEntry(items, unauthorizedEntryTitle)?.url ?? defaultUnauthorizedUrl;
}

/** The menu as users see it: the Unauthorized entry is a redirect target, not a destination. */
export function visibleMenuEntries(items: readonly MenuEntry[]): MenuEntry[] {
  return items
    .filter((item) => item.title !== unauthorizedEntryTitle)
    .map((item) => (item.children ? { ...item, children: visibleMenuEntries(item.children) } : item));
}

/**
 * Every visible destination once, parents before their children (for the home page's link list). A parent that
 * leads where one of its children does ("Continuous monitoring" and its "Monitoring" queue) is a heading, not a
 * destination of its own: the child's title names the place, so a coordinator's list has "Monitoring".
 */
export function flattenMenuEntries(items: readonly MenuEntry[]): MenuEntry[] {
  const seen = new Set<string>();
  const flat: MenuEntry[] = [];
  const visit = (entries: readonly MenuEntry[]) => {
    for (const entry of entries) {
      const heading = entry.children?.some((child) => child.url === entry.url) ?? false;
      if (!heading && !seen.has(entry.url)) {
        seen.add(entry.url);
        flat.push(entry);
      }
      if (entry.children) visit(entry.children);
    }
  };
  visit(visibleMenuEntries(items));
  return flat;
}

export function isExternalUrl(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url);
}

/** Exact match only: "/bugs" must not light up while "/bugs/integration-testing" (its own entry) is open. */
export function isCurrentUrl(url: string, currentPath: string): boolean {
  return url === currentPath;
}
