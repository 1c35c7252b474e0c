import type { Access } from "./access.js";

/**
 * The web app's pages: exactly the route table of spec §2, with each page's layout, title and the permission a
 * user needs to open it. The web router renders from this table and the server's breadcrumbs read it, so a
 * page's title is written once.
 */
export type Layout = "default" | "base" | "app";

export type PageDefinition = {
  id: string;
  /** React Router / Fastify style pattern: `/continuous-monitoring/clients/:clientId/:tab`. */
  path: string;
  title: string;
  layout: Layout;
  access: Access;
};

export const clientTabs = ["overview", "protocol", "contacts", "useful-links", "cases"] as const;
export const caseStages = ["intake", "monitoring", "preview", "reviewed", "closed"] as const;
export type CaseStage = (typeof caseStages)[number];
export const caseTabs = [
  "overview",
  "patient-details",
  "interpretations",
  "impedances",
  "events",
  "time-logs",
  "case-notes",
  "billing-notes",
  "timeline",
  "client-protocol",
] as const;

/** Human titles for path segments that are not entities (stages, tabs, fixed words). */
export const segmentTitles: Record<string, string> = {
  overview: "Overview",
  protocol: "Protocol",
  contacts: "Contacts",
  "useful-links": "Useful links",
  cases: "Cases",
  intake: "Intake",
  monitoring: "Monitoring",
  preview: "Preview",
  reviewed: "Reviewed",
  closed: "Closed",
  assignments: "Assignments",
  "patient-details": "Patient details",
  interpretations: "Interpretations",
  impedances: "Impedances",
  events: "Events",
  "time-logs": "Time logs",
  "case-notes": "Case notes",
  "billing-notes": "Billing notes",
  timeline: "Timeline",
  "client-protocol": "Client protocol",
};

export const pages = [
  { id: "home", path: "/", title: "Home", layout: "default", access: "signed-in" },
  { id: "signin", path: "/signin", title: "Sign in", layout: "base", access: "public" },
  { id: "unauthorized", path: "/unauthorized", title: "Unauthorized", layout: "app", access: "public" },
  { id: "bugs", path: "/bugs", title: "Bugs", layout: "app", access: "bugs:triage" },
  {
    id: "integration-testing",
    path: "/bugs/integration-testing",
    title: "Integration testing",
    layout: "app",
    access: "integration:run",
  },
  /** Not in spec §2: the Unit tests tab of /bugs has this address too (people type or bookmark it). */
  { id: "unit-tests", path: "/bugs/unit-tests", title: "Unit tests", layout: "app", access: "tests:read" },
  { id: "users", path: "/users", title: "Users", layout: "app", access: "users:manage" },
  /** Not in spec §2: a signed-in user's own password, second factors, contact details and sessions. */
  { id: "account", path: "/account", title: "Account", layout: "app", access: "signed-in" },
  /** Not in spec §2: the audit viewer administrators need (PRODUCT.md §6). */
  { id: "audit", path: "/audit", title: "Audit log", layout: "app", access: "audit:read" },
  { id: "billing", path: "/billing", title: "Billing", layout: "app", access: "billing:read" },
  {
    id: "billing-overview",
    path: "/billing/continuous-monitoring",
    title: "Continuous monitoring billing",
    layout: "app",
    access: "billing:read",
  },
  {
    id: "billing-client",
    path: "/billing/continuous-monitoring/:clientId",
    title: "Client billing",
    layout: "app",
    access: "billing:read",
  },
  {
    id: "billing-statement",
    path: "/billing/continuous-monitoring/:clientId/:month",
    title: "Monthly statement",
    layout: "base",
    access: "billing:read",
  },
  { id: "reporting", path: "/reporting", title: "Reporting", layout: "app", access: "reporting:read" },
  {
    id: "reporting-overview",
    path: "/reporting/continuous-monitoring",
    title: "Billable hours",
    layout: "app",
    access: "reporting:read",
  },
  {
    id: "reporting-client",
    path: "/reporting/continuous-monitoring/:clientId",
    title: "Client report",
    layout: "base",
    access: "reporting:read",
  },
  { id: "clients", path: "/continuous-monitoring/clients", title: "Clients", layout: "app", access: "clients:read" },
  {
    id: "client-create",
    path: "/continuous-monitoring/clients/create",
    title: "New client",
    layout: "app",
    access: "clients:write",
  },
  {
    id: "client-detail",
    path: "/continuous-monitoring/clients/:clientId/:tab",
    title: "Client",
    layout: "app",
    access: "clients:read",
  },
  {
    id: "contact-create",
    path: "/continuous-monitoring/clients/:clientId/contacts/create",
    title: "New contact",
    layout: "app",
    access: "clients:write",
  },
  {
    id: "useful-link-create",
    path: "/continuous-monitoring/clients/:clientId/useful-links/create",
    title: "New useful link",
    layout: "app",
    access: "clients:write",
  },
  {
    id: "case-create",
    path: "/continuous-monitoring/cases/create",
    title: "New case",
    layout: "app",
    access: "cases:create",
  },
  ...(["intake", "monitoring", "preview", "reviewed", "closed"] as const).flatMap((stage) => [
    {
      id: `cases-${stage}` as const,
      path: `/continuous-monitoring/cases/${stage}`,
      title: `${segmentTitles[stage]} cases`,
      layout: "app" as const,
      access: "cases:read" as const,
    },
    // Spec §2 lists detail routes for monitoring, preview, reviewed and closed; intake cases open the same way.
    {
      id: `case-${stage}-detail` as const,
      path: `/continuous-monitoring/cases/${stage}/:caseId/:tab`,
      title: "Case",
      layout: "app" as const,
      access: "cases:read" as const,
    },
  ]),
  {
    id: "cases-assignments",
    path: "/continuous-monitoring/cases/assignments",
    title: "Assignments",
    layout: "app",
    access: "cases:read",
  },
] as const satisfies readonly PageDefinition[];

export type PageId = (typeof pages)[number]["id"];

/** Match a concrete path against a pattern; returns its params or undefined. Static patterns win over params. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const patternParts = pattern.split("/").filter(Boolean);
  const pathParts = path.split("/").filter(Boolean);
  if (patternParts.length !== pathParts.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < patternParts.length; index++) {
    const expected = patternParts[index] as string;
    let actual: string;
    try {
      actual = decodeURIComponent(pathParts[index] as string);
    } catch {
      // A malformed %-escape (`/clients/50%`) names no page; decodeURIComponent's URIError made the breadcrumbs a 500.
      return undefined;
    }
    if (expected.startsWith(":")) params[expected.slice(1)] = actual;
    else if (expected !== actual) return undefined;
  }
  return params;
}

function staticSegments(pattern: string): number {
  return pattern.split("/").filter((part) => part && !part.startsWith(":")).length;
}

/** The page a path opens (the most specific pattern that matches), or undefined for "Page Not Found". */
export function findPage(path: string): { page: PageDefinition; params: Record<string, string> } | undefined {
  let best: { page: PageDefinition; params: Record<string, string> } | undefined;
  for (const page of pages as readonly PageDefinition[]) {
    const params = matchPath(page.path, path);
    if (!params) continue;
    if (!best || staticSegments(page.path) > staticSegments(best.page.path)) best = { page, params };
  }
  return best;
}
