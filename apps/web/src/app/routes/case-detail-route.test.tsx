import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import type { Case } from "@vigil/contract";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { AccessProvider } from "../../components/access/access-context";
import { theme } from "../../config/theme";
import { caseId, testCase } from "../../features/cases/testing/render-case-screen";
import { configureAuth } from "../../lib/auth";
import { createQueryClient } from "../../lib/query-client";
import { envelope, type Handler, installFetch, storeSignedInTokens, testConfig } from "../../test/fake-server";
import { CaseDetailRoutePage } from "./case-detail-route";

function renderCaseRoute(path: string, item: Case, routes: Record<string, Handler> = {}) {
  // Without federation, Amplify is configured before the first await; nothing is left to wait for.
  void configureAuth(testConfig);
  storeSignedInTokens("alice", ["technologist"]);
  const stagePath = `/api/continuous-monitoring/cases`;
  installFetch({
    [`GET ${stagePath}/${caseId}`]: () => envelope(item),
    [`GET ${stagePath}/monitoring/${caseId}/case-notes`]: () =>
      envelope({
        caseId,
        stage: item.stage,
        write: { allowed: true, reason: null, reasonRequired: false },
        items: [],
        total: 0,
        limit: 50,
        offset: 0,
        summary: {},
      }),
    ...routes,
  });
  const router = createMemoryRouter(
    [{ path: "/continuous-monitoring/cases/:stage/:caseId/:tab", element: <CaseDetailRoutePage /> }],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider theme={theme}>
        <AccessProvider groups={["technologist"]}>
          <RouterProvider router={router} />
        </AccessProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return router;
}

describe("case detail route", () => {
  it("shows a record tab of the case from the case-records feature, loaded on demand", async () => {
    renderCaseRoute(`/continuous-monitoring/cases/monitoring/${caseId}/case-notes`, testCase({ stage: "monitoring" }));
    expect(await screen.findByRole("tab", { name: "Case notes", selected: true })).toBeTruthy();
    expect(await screen.findByText("No case notes yet.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Add case note" })).toBeTruthy();
  });

  it("offers billing notes only once the case is reviewed", async () => {
    const router = renderCaseRoute(
      `/continuous-monitoring/cases/monitoring/${caseId}/billing-notes`,
      testCase({ stage: "monitoring" }),
    );
    expect(await screen.findByRole("tab", { name: "Overview", selected: true })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/continuous-monitoring/cases/monitoring/${caseId}/overview`);
    expect(screen.queryByRole("tab", { name: "Billing notes" })).toBeNull();
  });

  it("shows the billing notes tab on a reviewed case", async () => {
    renderCaseRoute(`/continuous-monitoring/cases/reviewed/${caseId}/overview`, testCase({ stage: "reviewed" }));
    expect(await screen.findByRole("tab", { name: "Billing notes" })).toBeTruthy();
  });

  it("leads the overview with the case's critical findings from their own feature, the raise one click away", async () => {
    const api = `/api/continuous-monitoring/cases/${caseId}`;
    renderCaseRoute(`/continuous-monitoring/cases/monitoring/${caseId}/overview`, testCase({ stage: "monitoring" }), {
      [`GET ${api}/clocks`]: () => envelope({ caseId, asOf: new Date().toISOString(), clocks: [] }),
      [`GET ${api}/critical-findings`]: () => envelope({ items: [] }),
    });
    const findings = await screen.findByRole("heading", { name: "Critical findings" });
    const caseFields = screen.getByRole("heading", { name: "Case" });
    expect(findings.compareDocumentPosition(caseFields) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(await screen.findByText("No critical findings on this case.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Raise critical finding" })).toBeTruthy();
  });

  it("shows the case's reports below its interpretations", async () => {
    const item = testCase({ stage: "preview" });
    const casePath = `/api/continuous-monitoring/cases`;
    renderCaseRoute(`/continuous-monitoring/cases/preview/${caseId}/interpretations`, item, {
      [`GET ${casePath}/preview/${caseId}/interpretations`]: () =>
        envelope({
          caseId,
          stage: "preview",
          write: { allowed: false, reason: "Only reviewers interpret.", reasonRequired: false },
          items: [],
          total: 0,
          limit: 50,
          offset: 0,
          summary: { signed: false, canSign: false },
        }),
      [`GET ${casePath}/${caseId}/reports`]: () =>
        envelope({ caseId, caseNumber: item.caseNumber, items: [], recipients: [], canSend: false }),
    });
    expect(await screen.findByRole("tab", { name: "Interpretations", selected: true })).toBeTruthy();
    const reports = await screen.findByRole("region", { name: "Reports" });
    await waitFor(() => expect(reports.textContent).toContain("No signed report yet."));
  });
});
