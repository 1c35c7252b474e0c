import type { Access } from "./access.js";

/**
 * The web app's pages: exactly the route table of spec §2, with each page's layout, title and the permission a
 * user needs to open it. The web router renders from this table, the server's breadcrumbs read it, and every link
 * is made by its page's `href`, so a page's address and title are written once.
 */
export type Layout = "default" | "base" | "app";

export type PageDefinition = {
  id: string;
  /** React Router / Fastify style pattern: `/continuous-monitoring/clients/:clientId/:tab`. */
  path: string;
  title: string;
  layout: Layout;
  access: Access;
  /** The values the page's `:tab` segment takes, for pages whose tabs are routes. */
  tabs?: readonly string[];
};

export const clientTabs = ["overview", "protocol", "contacts", "useful-links", "cases", "interfaces"] as const;
export type ClientTab = (typeof clientTabs)[number];
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
export type CaseTab = (typeof caseTabs)[number];

/** The names of a path pattern's parameters: `"/clients/:clientId/:tab"` gives `"clientId" | "tab"`. */
type ParamNames<Path extends string> = Path extends `${infer Head}/${infer Tail}`
  ? ParamNames<Head> | ParamNames<Tail>
  : Path extends `:${infer Name}`
    ? Name
    : never;

/** What a page's address needs: one string per `:param` of its pattern; `tab` is one of the page's tabs. */
export type PageParams<Path extends string, Tab extends string = string> = {
  [Name in ParamNames<Path>]: Name extends "tab" ? Tab : string;
};

/** The query of a page address (filters a list keeps in its URL); empty values are left out. */
export type PageQuery = Readonly<Record<string, string | undefined>>;

type TabOf<Definition extends PageDefinition> = Definition["tabs"] extends readonly (infer Tab extends string)[]
  ? Tab
  : string;

type Href<Params> = [keyof Params] extends [never]
  ? (params?: Record<string, never>, query?: PageQuery) => string
  : (params: Params, query?: PageQuery) => string;

export type Page<Definition extends PageDefinition> = Definition & {
  /** The page's address with its params filled in (each encoded) and the query's non-empty values. */
  href: Href<PageParams<Definition["path"], TabOf<Definition>>>;
};

/** A page's address: the pattern's `:params` filled in, then the query without its empty values. */
export function pageHref(
  pattern: string,
  params: Readonly<Record<string, string>> = {},
  query: PageQuery = {},
): string {
  const path = pattern.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing page parameter ${name} for ${pattern}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

// Written out rather than read from `caseStages` (schemas/case-workflow.ts): the signed-in shell imports this table and must
// not pull the case schemas in with it, and the case schema reads `caseTabs` from here. The contract's tests keep the
// two lists alike.
const stagesOfPages = ["intake", "monitoring", "preview", "reviewed", "closed"] as const;

function page<const Definition extends PageDefinition>(definition: Definition): Page<Definition> {
  const href = (params?: Record<string, string>, query?: PageQuery) => pageHref(definition.path, params, query);
  return { ...definition, href: href as Page<Definition>["href"] };
}

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
  interfaces: "Interfaces",
  hl7: "HL7",
  conformance: "Conformance",
};

/** Every page, in the order the router tries them. */
export const pageList = [
  page({ id: "home", path: "/", title: "Home", layout: "default", access: "signed-in" }),
  page({ id: "signin", path: "/signin", title: "Sign in", layout: "base", access: "public" }),
  // The link a critical finding's recipient gets (no account needed); the token stays in the address's fragment.
  page({
    id: "finding-acknowledgement",
    path: "/acknowledge/:token",
    title: "Acknowledge a critical finding",
    layout: "base",
    access: "public",
  }),
  // The link a report's recipient gets (no account needed): the page POSTs the token and receives the PDF once.
  page({
    id: "report-download",
    path: "/report/:token",
    title: "Download an EEG report",
    layout: "base",
    access: "public",
  }),
  // The link an invoice's billing contact gets when the client takes links, not attachments (no account needed).
  page({
    id: "invoice-download",
    path: "/invoice/:token",
    title: "Download an invoice",
    layout: "base",
    access: "public",
  }),
  page({ id: "unauthorized", path: "/unauthorized", title: "Unauthorized", layout: "app", access: "public" }),
  page({ id: "bugs", path: "/bugs", title: "Bugs", layout: "app", access: "bugs:triage" }),
  page({
    id: "integration-testing",
    path: "/bugs/integration-testing",
    title: "Integration testing",
    layout: "app",
    access: "integration:run",
  }),
  /** Not in spec §2: the Unit tests tab of /bugs has this address too (people type or bookmark it). */
  page({ id: "unit-tests", path: "/bugs/unit-tests", title: "Unit tests", layout: "app", access: "tests:read" }),
  /** Not in spec §2: the watch's board, every open case's next-due service clock (PRODUCT.md §10). */
  page({ id: "watch-board", path: "/watch", title: "Watch board", layout: "app", access: "cases:read" }),
  page({ id: "users", path: "/users", title: "Users", layout: "app", access: "users:manage" }),
  /** Not in spec §2: a signed-in user's own password, second factors, contact details and sessions. */
  page({ id: "account", path: "/account", title: "Account", layout: "app", access: "signed-in" }),
  /** Not in spec §2: the audit viewer administrators need (PRODUCT.md §6). */
  page({ id: "audit", path: "/audit", title: "Audit log", layout: "app", access: "audit:read" }),
  /** Not in spec §2: one patient's accounting of disclosures (every delivery, download and export of a report). */
  page({
    id: "audit-disclosures",
    path: "/audit/disclosures",
    title: "Accounting of disclosures",
    layout: "app",
    access: "audit:read",
  }),
  /** Not in spec §2: every HL7 v2 message in and out (HL7.md, "The message log"); a read of each is audited. */
  page({
    id: "interface-messages",
    path: "/interfaces/hl7/messages",
    title: "HL7 message log",
    layout: "app",
    access: "interfaces:read",
  }),
  page({
    id: "interface-message-detail",
    path: "/interfaces/hl7/messages/:messageId",
    title: "HL7 message",
    layout: "app",
    access: "interfaces:read",
  }),
  page({
    id: "interface-conformance",
    path: "/interfaces/conformance",
    title: "Interface conformance",
    layout: "app",
    access: "interfaces:read",
  }),
  page({ id: "billing", path: "/billing", title: "Billing", layout: "app", access: "billing:read" }),
  page({
    id: "billing-overview",
    path: "/billing/continuous-monitoring",
    title: "Continuous monitoring billing",
    layout: "app",
    access: "billing:read",
  }),
  page({
    id: "billing-client",
    path: "/billing/continuous-monitoring/:clientId",
    title: "Client billing",
    layout: "app",
    access: "billing:read",
  }),
  page({
    id: "billing-statement",
    path: "/billing/continuous-monitoring/:clientId/:month",
    title: "Monthly statement",
    layout: "base",
    access: "billing:read",
  }),
  page({ id: "billing-invoices", path: "/billing/invoices", title: "Invoices", layout: "app", access: "billing:read" }),
  page({
    id: "billing-receivables",
    path: "/billing/receivables",
    title: "Receivables",
    layout: "app",
    access: "billing:read",
  }),
  page({ id: "billing-payments", path: "/billing/payments", title: "Payments", layout: "app", access: "billing:read" }),
  page({
    id: "billing-statement-of-account",
    path: "/billing/receivables/:clientId",
    title: "Statement of account",
    layout: "base",
    access: "billing:read",
  }),
  page({
    id: "billing-exports",
    path: "/billing/exports",
    title: "Exports for the accountant",
    layout: "app",
    access: "billing:read",
  }),
  page({
    id: "billing-invoice",
    path: "/billing/invoices/:invoiceId",
    title: "Invoice",
    layout: "base",
    access: "billing:read",
  }),
  page({ id: "reporting", path: "/reporting", title: "Reporting", layout: "app", access: "reporting:read" }),
  page({
    id: "reporting-overview",
    path: "/reporting/continuous-monitoring",
    title: "Billable hours",
    layout: "app",
    access: "reporting:read",
  }),
  page({
    id: "reporting-client",
    path: "/reporting/continuous-monitoring/:clientId",
    title: "Client report",
    layout: "base",
    access: "reporting:read",
  }),
  /** Not in spec §2: the monthly service-level report (PRODUCT.md §10). */
  page({
    id: "reporting-service-levels",
    path: "/reporting/service-levels",
    title: "Service levels",
    layout: "app",
    access: "reporting:read",
  }),
  page({
    id: "clients",
    path: "/continuous-monitoring/clients",
    title: "Clients",
    layout: "app",
    access: "clients:read",
  }),
  page({
    id: "client-create",
    path: "/continuous-monitoring/clients/create",
    title: "New client",
    layout: "app",
    access: "clients:write",
  }),
  page({
    id: "client-detail",
    path: "/continuous-monitoring/clients/:clientId/:tab",
    title: "Client",
    layout: "app",
    access: "clients:read",
    tabs: clientTabs,
  }),
  page({
    id: "contact-create",
    path: "/continuous-monitoring/clients/:clientId/contacts/create",
    title: "New contact",
    layout: "app",
    access: "clients:write",
  }),
  page({
    id: "useful-link-create",
    path: "/continuous-monitoring/clients/:clientId/useful-links/create",
    title: "New useful link",
    layout: "app",
    access: "clients:write",
  }),
  page({
    id: "case-create",
    path: "/continuous-monitoring/cases/create",
    title: "New case",
    layout: "app",
    access: "cases:create",
  }),
  ...stagesOfPages.flatMap((stage) => [
    page({
      id: `cases-${stage}`,
      path: `/continuous-monitoring/cases/${stage}`,
      title: `${segmentTitles[stage]} cases`,
      layout: "app",
      access: "cases:read",
    }),
    // Spec §2 lists detail routes for monitoring, preview, reviewed and closed; intake cases open the same way.
    page({
      id: `case-${stage}-detail`,
      path: `/continuous-monitoring/cases/${stage}/:caseId/:tab`,
      title: "Case",
      layout: "app",
      access: "cases:read",
      tabs: caseTabs,
    }),
  ]),
  /** Not in spec §2: one version of a signed EEG report as a page to print (the same content as its PDF). */
  page({
    id: "case-report-print",
    path: "/continuous-monitoring/cases/:caseId/reports/:reportId/print",
    title: "EEG report",
    layout: "base",
    access: "cases:read",
  }),
  page({
    id: "cases-assignments",
    path: "/continuous-monitoring/cases/assignments",
    title: "Assignments",
    layout: "app",
    access: "cases:read",
  }),
] as const;

type PageOfList = (typeof pageList)[number];

/** The page table by id: `pages["client-detail"].href({ clientId, tab: "contacts" })`. */
export const pages = Object.fromEntries(pageList.map((entry) => [entry.id, entry])) as {
  readonly [Entry in PageOfList as Entry["id"]]: Entry;
};

export type PageId = keyof typeof pages;

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
  for (const page of pageList as readonly PageDefinition[]) {
    const params = matchPath(page.path, path);
    if (!params) continue;
    if (!best || staticSegments(page.path) > staticSegments(best.page.path)) best = { page, params };
  }
  return best;
}

/** The case stage a queue or case page's path is under (`/continuous-monitoring/cases/monitoring/…`), if any. */
export function caseStageOfPath(path: string): (typeof stagesOfPages)[number] | undefined {
  const id = findPage(path)?.page.id;
  return stagesOfPages.find((stage) => id === `cases-${stage}` || id === `case-${stage}-detail`);
}
