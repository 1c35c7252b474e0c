import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { type Author, type Case, type CaseStage, type CaseTab, caseTabs, type RecordWriteState } from "@vigil/contract";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AccessProvider } from "../../../components/access/access-context";
import { ApiErrorStack } from "../../../components/feedback/api-error-stack";
import { theme } from "../../../config/theme";
import { configureAuth } from "../../../lib/auth";
import { createQueryClient } from "../../../lib/query-client";
import { envelope, type Handler, installFetch, storeSignedInTokens, testConfig } from "../../../test/fake-server";

/**
 * Renders a record screen for a signed-in user in `groups` against a fake server at the fetch boundary (the API
 * client, TanStack Query and the router above it are the real code).
 */
export function renderRecords(
  ui: ReactNode,
  { groups = ["technologist"], routes = {} }: { groups?: string[]; routes?: Record<string, Handler> } = {},
) {
  // Without federation, Amplify is configured before the first await; nothing is left to wait for.
  void configureAuth(testConfig);
  storeSignedInTokens("alice", groups);
  const network = installFetch(routes);
  const queryClient = createQueryClient();
  // The error stack belongs to the page it is shown on (it reads the location), so it sits inside the router.
  const page = (
    <>
      <ApiErrorStack />
      {ui}
    </>
  );
  const router = createMemoryRouter([{ path: "*", element: page }], { initialEntries: ["/records"] });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <AccessProvider groups={groups}>
          <RouterProvider router={router} />
        </AccessProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return { ...view, ...network, router, queryClient };
}

export const clientId = "0b6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a10";
export const caseId = "9f1e2d3c-3333-4a2b-9c3d-000000000001";
export const contactId = "0c6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a21";

export const taylor: Author = {
  sub: "3a1b2c3d-4e5f-4a6b-8c7d-000000000011",
  username: "technologist",
  name: "Taylor Technologist",
};
export const nora: Author = { sub: "3a1b2c3d-4e5f-4a6b-8c7d-000000000013", username: "night", name: "Nora Night" };

/** Collection paths of the kinds (the contract's spelling: billing notes under `reviewed`). */
export const recordApi = (segment: string, stage: "monitoring" | "reviewed" = "monitoring") =>
  `/api/continuous-monitoring/cases/${stage}/${caseId}/${segment}`;

export function testCase(overrides: Partial<Case> = {}): Case {
  const casey = { sub: "3a1b2c3d-4e5f-4a6b-8c7d-000000000010", username: "coordinator", name: "Casey Coordinator" };
  return {
    id: caseId,
    caseNumber: "CM-2026-000123",
    clientId,
    studyType: "icu-ceeg",
    hasVideo: true,
    priority: "routine",
    stage: "monitoring",
    createdAt: "2026-11-22T14:14:00.000Z",
    updatedAt: "2026-11-22T14:14:00.000Z",
    // Boston: 09:14 EST is 14:14 UTC, so tests see times converted to the client's zone.
    client: { id: clientId, name: "Pacific Neurology Institute", code: "PNI", timezone: "America/New_York" },
    patient: {
      mrn: "MRN-0042",
      firstName: "Jamie",
      lastName: "Rivera",
      dateOfBirth: "1961-04-02",
      sex: "female",
      location: { unit: "Neuro ICU", room: "12", bed: "A" },
      revision: 1,
    },
    technologists: [],
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

export const writable: RecordWriteState = { allowed: true, reason: null, reasonRequired: false };

/** The item fields every kind shares, for revision `revision` by `author`. */
export function itemFields(id: string, revision = 1, author: Author = taylor) {
  return {
    id,
    caseId,
    revision,
    deleted: false,
    createdAt: "2026-11-22T14:14:00.000Z",
    createdBy: taylor,
    updatedAt: revision === 1 ? "2026-11-22T14:14:00.000Z" : "2026-11-22T15:30:00.000Z",
    updatedBy: author,
  };
}

export function listOf<T>(
  items: T[],
  { write = writable, summary = {} as unknown, stage = "monitoring" as Case["stage"] } = {},
) {
  return envelope({ caseId, stage, write, items, total: items.length, limit: 50, offset: 0, summary });
}

/** A 409 for a stale base, carrying the current item as the server does. */
export function staleBase(current: unknown): Response {
  return Response.json(
    {
      enoch: "release-1",
      error: { status: 409, code: "conflict", message: "This record was changed meanwhile.", details: { current } },
    },
    { status: 409 },
  );
}

export async function jsonBody(request: { text: () => Promise<string> }): Promise<Record<string, unknown>> {
  return JSON.parse(await request.text()) as Record<string, unknown>;
}
