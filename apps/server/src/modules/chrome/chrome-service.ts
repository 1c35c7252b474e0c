import {
  type Breadcrumb,
  findPage,
  isAllowed,
  type MenuDefinition,
  type MenuEntry,
  menu,
  segmentTitles,
} from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import type { Principal } from "../../http/principal.js";
import { getCaseNumber } from "../cases/cases-service.js";
import { getClientName } from "../clients/clients-service.js";

/**
 * The menu entries the caller's groups allow; a user without any group is refused ("Access denied"). The menu
 * depends on the set of groups alone, so each set's is made once per process (a handful of sets exist; the answer
 * is only serialized, never changed) rather than on every page load of every user.
 */
export function buildMenu(principal: Principal): MenuEntry[] {
  if (principal.groups.length === 0) throw new AppError("forbidden", "Access denied");
  const key = [...new Set(principal.groups)].sort().join(",");
  let entries = menusByGroups.get(key);
  if (!entries) {
    entries = filterMenu(menu, principal.groups);
    if (menusByGroups.size < 256) menusByGroups.set(key, entries);
  }
  return entries;
}

const menusByGroups = new Map<string, MenuEntry[]>();

function filterMenu(entries: MenuDefinition[], groups: readonly string[]): MenuEntry[] {
  const visible: MenuEntry[] = [];
  for (const entry of entries) {
    if (!isAllowed(entry.access, groups)) continue;
    const children = entry.children ? filterMenu(entry.children, groups) : undefined;
    visible.push({
      title: entry.title,
      url: entry.url,
      ...(entry.icon ? { icon: entry.icon } : {}),
      ...(children && children.length > 0 ? { children } : {}),
    });
  }
  return visible;
}

const monthFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/**
 * A path segment as the user reads it. A malformed %-escape (typed or pasted: `/clients/50%`) is shown as written:
 * decodeURIComponent throws on it, which was a 500 (found by reliability/route-fuzzing.test.ts).
 */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The trail for a web path: Home, then one crumb per prefix of the path that means something — a page of the
 * page table, a fixed section word, or an entity (client name, case number, month) resolved from the database.
 * Unknown ids keep their raw value rather than failing: breadcrumbs never block a page.
 *
 * A name is resolved only for a caller who may read the thing (`clients:read`, `cases:read`); anyone else sees the
 * id they already have in the path. Any signed-in user may ask for any path, so this was a way to learn the case
 * number or client name behind an id (a developer could).
 */
export async function buildBreadcrumbs(
  db: Db,
  path: string,
  caller: Pick<Principal, "permissions">,
): Promise<Breadcrumb[]> {
  const clientName = async (id: string) =>
    caller.permissions.has("clients:read") ? ((await getClientName(db, id)) ?? id) : id;
  const caseNumber = async (id: string) =>
    caller.permissions.has("cases:read") ? ((await getCaseNumber(db, id)) ?? id) : id;
  const clean = path.split(/[?#]/)[0]?.replace(/\/+$/, "") || "/";
  const trail: Breadcrumb[] = [{ title: "Home", url: "/" }];
  if (clean === "/") return trail;
  const segments = clean.split("/").filter(Boolean);
  for (let index = 0; index < segments.length; index++) {
    const prefix = `/${segments.slice(0, index + 1).join("/")}`;
    const segment = decodedSegment(segments[index] as string);
    const previous = segments[index - 1];
    const isLast = index === segments.length - 1;
    const page = findPage(prefix);
    let title: string | undefined;
    let url: string | null = page ? prefix : null;

    if (previous === "clients" && segment !== "create" && segments[0] === "continuous-monitoring") {
      title = await clientName(segment);
      url = `${prefix}/overview`;
    } else if (
      (segments[0] === "billing" || segments[0] === "reporting") &&
      previous === "continuous-monitoring" &&
      index === 2
    ) {
      title = await clientName(segment);
    } else if (segments[0] === "billing" && index === 3 && /^\d{4}-\d{2}$/.test(segment)) {
      title = monthFormat.format(new Date(`${segment}-01T00:00:00Z`));
    } else if (
      previous &&
      ["intake", "monitoring", "preview", "reviewed", "closed"].includes(previous) &&
      segments[1] === "cases"
    ) {
      title = await caseNumber(segment);
      url = `${prefix}/overview`;
    } else if (segment === "continuous-monitoring" && index === 0) {
      title = "Continuous monitoring";
    } else if (segment === "create") {
      title = page?.page.title ?? "New";
    } else if (page && page.page.path === prefix) {
      title = page.page.title;
    } else {
      title = segmentTitles[segment] ?? page?.page.title ?? segment;
    }
    trail.push({ title, url: isLast ? prefix : url });
  }
  return trail;
}
