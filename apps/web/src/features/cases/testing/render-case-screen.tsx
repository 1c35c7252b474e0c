import type { AllowedTransition, Case, CaseListItem, CaseStage, CaseTab, PageDefinition } from "@vigil/contract";
import { caseTabs, pageList } from "@vigil/contract";
import type { ComponentType } from "react";
import type { Handler } from "../../../test/fake-server";
import { renderWithRoutes, type ScreenOptions } from "../../../test/render-page-screens";
import { CaseAssignmentsPage } from "../components/case-assignments";
import { CaseCreatePage } from "../components/case-create";
import { CaseDetailPage } from "../components/case-detail";
import { CaseQueuePage } from "../components/case-queue";

function screenOf(pageId: string): ComponentType | undefined {
  if (pageId === "case-create") return CaseCreatePage;
  if (pageId === "cases-assignments") return CaseAssignmentsPage;
  if (/^cases-[a-z]+$/.test(pageId)) return CaseQueuePage;
  if (/^case-[a-z]+-detail$/.test(pageId)) return CaseDetailPage;
  return undefined;
}

/** Answers every picker the case screens load, so tests only route what they are about. */
export const pickerRoutes: Record<string, Handler> = {
  "GET /api/continuous-monitoring/clients/ids": () =>
    Response.json({ enoch: "release-1", data: [{ id: clientId, name: "Pacific Neurology Institute", code: "PNI" }] }),
  "GET /api/users/continuous-monitoring/technologists": () =>
    Response.json({
      enoch: "release-1",
      data: page([{ id: technologistSub, username: "technologist", name: "Taylor Technologist" }]),
    }),
  "GET /api/users/continuous-monitoring/reviewers": () =>
    Response.json({
      enoch: "release-1",
      data: page([{ id: reviewerSub, username: "reviewer", name: "Dr. Riley Reviewer" }]),
    }),
};

/** Renders the case screens on their page-table routes (see test/render-page-screens.tsx). */
export function renderCaseScreen(path: string, { groups = ["coordinator"], routes = {} }: ScreenOptions = {}) {
  const screens = (pageList as readonly PageDefinition[]).flatMap((page) => {
    const Screen = screenOf(page.id);
    return Screen ? [{ path: page.path, element: <Screen /> }] : [];
  });
  return renderWithRoutes(path, screens, { groups, routes: { ...pickerRoutes, ...noClocksRoute(), ...routes } });
}

/** The case's service clocks, none running: tests about the clocks route their own answer. */
function noClocksRoute(): Record<string, Handler> {
  return {
    [`GET /api/continuous-monitoring/cases/${caseId}/clocks`]: () =>
      Response.json({ enoch: "release-1", data: { caseId, asOf: new Date().toISOString(), clocks: [] } }),
  };
}

export const clientId = "0b6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a10";
export const caseId = "9f1e2d3c-3333-4a2b-9c3d-000000000001";
export const technologistSub = "3a1b2c3d-4e5f-4a6b-8c7d-000000000011";
export const reviewerSub = "3a1b2c3d-4e5f-4a6b-8c7d-000000000012";

const taylor = { sub: technologistSub, username: "technologist", name: "Taylor Technologist" };
const casey = { sub: "3a1b2c3d-4e5f-4a6b-8c7d-000000000010", username: "coordinator", name: "Casey Coordinator" };

/** A page as the case lists answer it (a queue's total may be an estimate; other lists ignore the flag). */
export function page<T>(items: T[], total = items.length, limit = 25, offset = 0, totalIsEstimate = false) {
  return { items, total, limit, offset, totalIsEstimate };
}

export function testMove(overrides: Partial<AllowedTransition> = {}): AllowedTransition {
  return {
    ruleId: "start-monitoring",
    to: "monitoring",
    label: "Start monitoring",
    reasonRequired: false,
    needsApproval: false,
    allowed: true,
    failedChecks: [],
    ...overrides,
  };
}

export function testCase(overrides: Partial<Case> = {}): Case {
  return {
    id: caseId,
    caseNumber: "CM-2026-000123",
    clientId,
    studyType: "icu-ceeg",
    hasVideo: true,
    priority: "routine",
    stage: "intake",
    createdAt: "2026-11-22T14:14:00.000Z",
    updatedAt: "2026-11-22T14:14:00.000Z",
    client: { id: clientId, name: "Pacific Neurology Institute", code: "PNI", timezone: "America/Los_Angeles" },
    patient: {
      mrn: "MRN-0042",
      firstName: "Jamie",
      lastName: "Rivera",
      dateOfBirth: "1961-04-02",
      sex: "female",
      location: { unit: "Neuro ICU", room: "12", bed: "A" },
      revision: 1,
    },
    technologists: [
      {
        id: "5d1e2f3a-0000-4000-8000-000000000001",
        technologist: taylor,
        startedAt: "2026-11-22T14:20:00.000Z",
        endedAt: null,
        assignedBy: casey,
      },
    ],
    reviewer: null,
    acknowledgedBy: null,
    acknowledgedAt: null,
    protocolRevisionId: null,
    protocolRevision: null,
    recordingStartedAt: null,
    recordingEndedAt: null,
    archivedAt: null,
    createdBy: casey,
    order: null,
    version: 2,
    pendingTransition: null,
    allowedActions: [],
    allowedTransitions: [],
    allowedChanges: { edit: false, archive: false },
    tabs: tabsInStage(overrides.stage ?? "intake"),
    ...overrides,
  };
}

/** The tabs the server sends with a case in `stage` (apps/server/src/modules/cases/case-screen-rules.ts). */
function tabsInStage(stage: CaseStage): CaseTab[] {
  return caseTabs.filter(
    (tab) =>
      (tab !== "client-protocol" || stage === "closed") &&
      (tab !== "billing-notes" || stage === "reviewed" || stage === "closed"),
  );
}

export function testListItem(overrides: Partial<CaseListItem> = {}): CaseListItem {
  return {
    id: caseId,
    caseNumber: "CM-2026-000123",
    clientId,
    studyType: "icu-ceeg",
    hasVideo: false,
    priority: "routine",
    stage: "intake",
    createdAt: "2026-11-22T14:14:00.000Z",
    updatedAt: "2026-11-22T14:14:00.000Z",
    clientName: "Pacific Neurology Institute",
    clientCode: "PNI",
    clientTimezone: "America/Los_Angeles",
    patientName: "Rivera, Jamie",
    mrn: "MRN-0042",
    technologists: [taylor],
    reviewer: null,
    acknowledgedAt: null,
    recordingStartedAt: null,
    recordingEndedAt: null,
    hasPendingTransition: false,
    version: 1,
    ...overrides,
  };
}
