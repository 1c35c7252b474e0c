import type { BugReport, BugReportEvent, BugReportSummary } from "@vigil/contract";
import type { ReactNode } from "react";
import { renderWithRoutes, type ScreenOptions } from "../../../test/render-page-screens";

/** Renders `element` at `/bugs` (or `path`) for a signed-in user in `groups` (see test/render-page-screens.tsx). */
export function renderBugScreen(
  element: ReactNode,
  { path = "/bugs", groups = ["developer"], routes = {} }: ScreenOptions & { path?: string } = {},
) {
  return renderWithRoutes(path, [{ path: "/bugs", element }], { groups, routes, username: "dana" });
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
