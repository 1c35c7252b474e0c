import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { BugReport, BugReportEvent, BugReportSummary } from "@vigil/contract";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AccessProvider } from "../../../components/access/access-context";
import { ApiErrorStack } from "../../../components/feedback/api-error-stack";
import { theme } from "../../../config/theme";
import { configureAuth } from "../../../lib/auth";
import { createQueryClient } from "../../../lib/query-client";
import { type Handler, installFetch, storeSignedInTokens, testConfig } from "../../../test/fake-server";

/**
 * Renders `element` at `/bugs` (or `path`) for a signed-in user in `groups`, against a fake server at the fetch
 * boundary: the API client, TanStack Query and the router are the real code.
 */
export function renderBugScreen(
  element: ReactNode,
  {
    path = "/bugs",
    groups = ["developer"],
    routes = {},
  }: { path?: string; groups?: string[]; routes?: Record<string, Handler> } = {},
) {
  configureAuth(testConfig);
  storeSignedInTokens("dana", groups);
  const network = installFetch(routes);
  const queryClient = createQueryClient();
  const router = createMemoryRouter(
    [
      { path: "/bugs", element },
      { path: "*", element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <AccessProvider groups={groups}>
          <ApiErrorStack />
          <RouterProvider router={router} />
        </AccessProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...view, ...network, router, queryClient, location };
}

export const reportId = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";

export function testEvent(overrides: Partial<BugReportEvent> = {}): BugReportEvent {
  return {
    id: "8a1b2c3d-0000-4000-8000-000000000001",
    at: "2026-11-22T14:14:00.000Z",
    by: { sub: null, username: "ada", name: "Ada Lovelace" },
    fromStatus: null,
    toStatus: "open",
    comment: "",
    ...overrides,
  };
}

export function testReportSummary(overrides: Partial<BugReportSummary> = {}): BugReportSummary {
  return {
    id: reportId,
    number: "BUG-7",
    title: "Impedance chart stays empty",
    severity: "high",
    status: "open",
    reporter: { sub: null, username: "ada", name: "Ada Lovelace" },
    pageUrl: "https://vigil.example.org/#/continuous-monitoring/cases/monitoring/42/impedances",
    createdAt: "2026-11-22T14:14:00.000Z",
    updatedAt: "2026-11-22T14:14:00.000Z",
    version: 1,
    ...overrides,
  };
}

export function testReport(overrides: Partial<BugReport> = {}): BugReport {
  return {
    ...testReportSummary(),
    description: "The chart shows no electrodes after saving a check.",
    stepsToReproduce: "1. Open a case\n2. Add an impedance check",
    context: {
      pageUrl: "https://vigil.example.org/#/continuous-monitoring/cases/monitoring/42/impedances",
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
      screen: { width: 1920, height: 1080, devicePixelRatio: 2 },
      viewport: { width: 1280, height: 720 },
      appVersion: { enoch: "release-41", buildId: "build-2026-11-20" },
    },
    history: [testEvent()],
    ...overrides,
  };
}

export function page<T>(items: T[], total = items.length, limit = 25, offset = 0) {
  return { items, total, limit, offset };
}
