import { type PageDefinition, type PageId, pageList } from "@vigil/contract";
import type { ComponentType } from "react";
import { createHashRouter, type RouteObject } from "react-router";
import { RouteErrorPage } from "../components/errors/route-error-page";
import { LoadingScreen } from "../components/feedback/loading-screen";
import { BasePageLayout } from "./layouts/base-page-layout";
import { ChromeLayout } from "./layouts/chrome-layout";
import { NotFoundRoute } from "./layouts/not-found-route";
import { RootErrorRoute } from "./layouts/root-error-route";
import { RootRoute } from "./layouts/root-route";
import type { RouteHandle } from "./route-handle";

type PageComponentLoader = () => Promise<ComponentType>;

/**
 * Every page of the contract's table and the (lazily loaded) screen that renders it. Each screen is its own
 * chunk, so the signed-in shell's first load stays small.
 */
export const pageComponents: Record<PageId, PageComponentLoader> = {
  home: () => import("./routes/home").then((module) => module.HomePage),
  signin: () => import("./routes/signin").then((module) => module.SignInPage),
  "finding-acknowledgement": () =>
    import("../features/critical-findings/components/finding-acknowledgement-page").then(
      (module) => module.FindingAcknowledgementPage,
    ),
  "report-download": () =>
    import("../features/reports/components/report-download-page").then((module) => module.ReportDownloadPage),
  "invoice-download": () =>
    import("../features/billing/components/invoice-download-page").then((module) => module.InvoiceDownloadPage),
  unauthorized: () => import("./routes/unauthorized").then((module) => module.UnauthorizedPage),
  bugs: () => import("../features/bugs/components/bugs-page").then((module) => module.BugsPage),
  "integration-testing": () =>
    import("../features/bugs/components/integration-testing-page").then((module) => module.IntegrationTestingPage),
  "unit-tests": () =>
    import("../features/bugs/components/unit-tests-address").then((module) => module.UnitTestsAddress),
  users: () => import("./routes/users").then((module) => module.UsersPage),
  // The board with the critical-findings feature's raise in each row, composed in app/ (features never import each other).
  "watch-board": () => import("./routes/watch-board-route").then((module) => module.WatchBoardRoutePage),
  account: () => import("./routes/account").then((module) => module.AccountPage),
  audit: () => import("../features/audit/components/audit-log-page").then((module) => module.AuditLogPage),
  "audit-disclosures": () =>
    import("../features/audit/components/disclosures-page").then((module) => module.DisclosuresPage),
  "interface-messages": () =>
    import("../features/interfaces/components/message-log-page").then((module) => module.MessageLogPage),
  "interface-message-detail": () =>
    import("../features/interfaces/components/message-log-detail-page").then((module) => module.MessageLogDetailPage),
  "interface-conformance": () =>
    import("../features/interfaces/components/interface-conformance-page").then(
      (module) => module.InterfaceConformancePage,
    ),
  billing: () => import("../features/billing/components/billing-landing").then((module) => module.BillingPage),
  "billing-overview": () =>
    import("../features/billing/components/billing-overview").then((module) => module.BillingOverviewPage),
  "billing-client": () =>
    import("../features/billing/components/billing-client").then((module) => module.BillingClientPage),
  "billing-statement": () =>
    import("../features/billing/components/billing-statement").then((module) => module.BillingStatementPage),
  "billing-invoices": () =>
    import("../features/billing/components/invoice-list").then((module) => module.BillingInvoicesPage),
  "billing-receivables": () =>
    import("../features/billing/components/receivables-aging").then((module) => module.BillingReceivablesPage),
  "billing-statement-of-account": () =>
    import("../features/billing/components/statement-of-account").then(
      (module) => module.BillingStatementOfAccountPage,
    ),
  "billing-payments": () =>
    import("../features/billing/components/payments-page").then((module) => module.BillingPaymentsPage),
  "billing-invoice": () =>
    import("../features/billing/components/invoice-print").then((module) => module.BillingInvoicePage),
  "billing-exports": () =>
    import("../features/billing/components/billing-exports-page").then((module) => module.BillingExportsPage),
  reporting: () => import("../features/reporting/components/reporting-home").then((module) => module.ReportingHomePage),
  "reporting-overview": () =>
    import("../features/reporting/components/billable-hours-overview").then(
      (module) => module.BillableHoursOverviewPage,
    ),
  "reporting-client": () =>
    import("../features/reporting/components/client-report-print").then((module) => module.ClientReportPage),
  "reporting-service-levels": () =>
    import("../features/reporting/components/service-levels-page").then((module) => module.ServiceLevelsPage),
  clients: () => import("../features/clients/components/client-list").then((module) => module.ClientListPage),
  "client-create": () =>
    import("../features/clients/components/client-create").then((module) => module.ClientCreatePage),
  "client-detail": () => import("./routes/client-detail-route").then((module) => module.ClientDetailRoutePage),
  "contact-create": () =>
    import("../features/clients/components/contact-create").then((module) => module.ContactCreatePage),
  "useful-link-create": () =>
    import("../features/clients/components/useful-link-create").then((module) => module.UsefulLinkCreatePage),
  "case-create": () => import("../features/cases/components/case-create").then((module) => module.CaseCreatePage),
  "cases-intake": () => import("../features/cases/components/case-queue").then((module) => module.CaseQueuePage),
  "case-intake-detail": () => import("./routes/case-detail-route").then((module) => module.CaseDetailRoutePage),
  "cases-monitoring": () => import("../features/cases/components/case-queue").then((module) => module.CaseQueuePage),
  "case-monitoring-detail": () => import("./routes/case-detail-route").then((module) => module.CaseDetailRoutePage),
  "cases-preview": () => import("../features/cases/components/case-queue").then((module) => module.CaseQueuePage),
  "case-preview-detail": () => import("./routes/case-detail-route").then((module) => module.CaseDetailRoutePage),
  "cases-reviewed": () => import("../features/cases/components/case-queue").then((module) => module.CaseQueuePage),
  "case-reviewed-detail": () => import("./routes/case-detail-route").then((module) => module.CaseDetailRoutePage),
  "cases-closed": () => import("../features/cases/components/case-queue").then((module) => module.CaseQueuePage),
  "case-closed-detail": () => import("./routes/case-detail-route").then((module) => module.CaseDetailRoutePage),
  "case-report-print": () =>
    import("../features/reports/components/report-print-page").then((module) => module.ReportPrintPage),
  "cases-assignments": () =>
    import("../features/cases/components/case-assignments").then((module) => module.CaseAssignmentsPage),
};

export const baseLayoutRouteId = "layout-base";
export const chromeLayoutRouteId = "layout-chrome";

/** Rethrows a screen's load failure while rendering, where the route's error boundary can see it. */
function ScreenLoadFailed({ error }: { error: unknown }): never {
  throw error;
}

/**
 * Loads a page's screen. A rejected `lazy` at the first page load leaves React Router rendering an empty outlet
 * (the route keeps its `lazy` and is treated as still loading), so a failed chunk is turned into a screen that
 * throws: the page's error boundary then reloads once for a new build or shows the 500 page.
 */
async function loadScreen(page: PageDefinition): Promise<Pick<RouteObject, "Component" | "element">> {
  const load = pageComponents[page.id as PageId];
  try {
    if (!load) throw new Error(`No screen registered for page ${page.id}`);
    return { Component: await load() };
  } catch (error) {
    return { element: <ScreenLoadFailed error={error} /> };
  }
}

function pageRoute(page: PageDefinition): RouteObject {
  const handle: RouteHandle = { page };
  return {
    id: `page:${page.id}`,
    path: page.path,
    handle,
    // A crash inside a page keeps the layout (and its menu) around the 500 page.
    ErrorBoundary: RouteErrorPage,
    lazy: () => loadScreen(page),
  };
}

/** The route tree, built from the page table: one layout route per layout family, then the catch-all. */
export function createRoutes(): RouteObject[] {
  const allPages = pageList as readonly PageDefinition[];
  const notFoundHandle: RouteHandle = { title: "Page Not Found" };
  return [
    {
      id: "root",
      Component: RootRoute,
      ErrorBoundary: RootErrorRoute,
      HydrateFallback: LoadingScreen,
      children: [
        {
          id: baseLayoutRouteId,
          Component: BasePageLayout,
          children: allPages.filter((page) => page.layout === "base").map(pageRoute),
        },
        {
          id: chromeLayoutRouteId,
          Component: ChromeLayout,
          children: allPages.filter((page) => page.layout !== "base").map(pageRoute),
        },
        { id: "not-found", path: "*", Component: NotFoundRoute, handle: notFoundHandle },
      ],
    },
  ];
}

export function createAppRouter() {
  return createHashRouter(createRoutes());
}

export type AppRouter = ReturnType<typeof createAppRouter>;
