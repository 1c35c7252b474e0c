import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { WatchBoardRow } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { testFinding } from "../../features/critical-findings/testing/finding-fixtures";
import { envelope } from "../../test/fake-server";
import { renderPageScreens } from "../../test/render-page-screens";
import { WatchBoardRoutePage } from "./watch-board-route";

const clientId = "5b6a7c8d-1111-4a2b-9c3d-000000000001";
const monitoredCaseId = "9f1e2d3c-3333-4a2b-9c3d-000000000001";
const intakeCaseId = "9f1e2d3c-3333-4a2b-9c3d-000000000002";

function row(caseId: string, caseNumber: string, stage: WatchBoardRow["stage"]): WatchBoardRow {
  const dueAt = Date.now() + 90 * 60_000;
  return {
    caseId,
    caseNumber,
    stage,
    priority: "routine",
    patientName: "Ada Rivera",
    mrn: "MRN-0101",
    client: { id: clientId, name: "Mercy General", code: "MGH", timezone: "America/New_York" },
    clock: {
      kind: stage === "intake" ? "stat-acknowledgement" : "impedance-check",
      startedAt: new Date(dueAt - 720 * 60_000).toISOString(),
      dueSoonAt: new Date(dueAt - 180 * 60_000).toISOString(),
      dueAt: new Date(dueAt).toISOString(),
      windowMinutes: 720,
      state: "ok",
      owner: { kind: "coordinators" },
    },
    otherClocks: 0,
    dischargedAt: null,
  };
}

const rows = [row(monitoredCaseId, "CM-2026-000101", "monitoring"), row(intakeCaseId, "CM-2026-000102", "intake")];

const routes = {
  "GET /api/continuous-monitoring/board": () =>
    envelope({ items: rows, total: rows.length, limit: 25, offset: 0, asOf: new Date().toISOString() }),
  "GET /api/continuous-monitoring/clients/ids": () => envelope([{ id: clientId, name: "Mercy General", code: "MGH" }]),
  "GET /api/users/continuous-monitoring/technologists": () => envelope({ items: [], total: 0, limit: 200, offset: 0 }),
  "GET /api/users/continuous-monitoring/reviewers": () => envelope({ items: [], total: 0, limit: 200, offset: 0 }),
};

describe("the watch board route", () => {
  it("offers a technologist the raise on a monitored case's row, two clicks to the dialog, with the way to the case after", async () => {
    const user = userEvent.setup();
    const raised = testFinding({ caseId: monitoredCaseId, caseNumber: "CM-2026-000101" });
    renderPageScreens(
      "/watch",
      { "watch-board": WatchBoardRoutePage },
      {
        groups: ["technologist"],
        routes: {
          ...routes,
          [`POST /api/continuous-monitoring/cases/${monitoredCaseId}/critical-findings`]: () =>
            envelope(raised, { status: 201 }),
        },
      },
    );
    await user.click(await screen.findByRole("button", { name: "Raise critical finding: CM-2026-000101" }));
    // Findings are raised on cases in monitoring or preview only.
    expect(screen.queryByRole("button", { name: "Raise critical finding: CM-2026-000102" })).toBeNull();

    const dialog = await screen.findByRole("dialog", { name: "Raise critical finding" });
    expect(dialog.textContent).toContain("Case CM-2026-000101.");
    expect(
      within(dialog)
        .getByLabelText(/EEG onset/)
        .getAttribute("aria-describedby"),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole("radio", { name: "Electrographic seizure (ESz)" }));
    await user.click(within(dialog).getByRole("textbox", { name: "Description" }));
    await user.paste("Right temporal discharges");
    await user.click(within(dialog).getByRole("button", { name: "Raise and notify" }));
    const toCase = await within(dialog).findByRole("link", { name: "Open the case" });
    expect(toCase.getAttribute("href")).toBe(`/continuous-monitoring/cases/monitoring/${monitoredCaseId}/overview`);
  });

  it("offers no raise to a coordinator, who does not read the EEG", async () => {
    renderPageScreens("/watch", { "watch-board": WatchBoardRoutePage }, { groups: ["coordinator"], routes });
    await waitFor(() => expect(screen.getAllByText("Ada Rivera")).toHaveLength(2));
    expect(screen.queryByRole("button", { name: /Raise critical finding/ })).toBeNull();
  });
});
