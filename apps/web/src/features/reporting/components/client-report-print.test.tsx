import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { envelope, errorEnvelope } from "../../../test/fake-server";
import {
  clientId,
  renderReportingScreen,
  reportFor,
  reportPath,
  row,
  testClient,
} from "../testing/render-reporting-screen";

const byMonth = [row("2026-10", "October 2026", "20.50", 2, 6), row("2026-11", "November 2026", "31.00", 3, 8)];
const byTechnologist = [row("nora", "Nora Night", "22.25", 2, 5), row("taylor", "Taylor Technologist", "29.25", 3, 9)];

function tableCells(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole("row")
    .map((tableRow) => [...tableRow.querySelectorAll("th, td")].map((cell) => cell.textContent ?? ""));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("printable client report", () => {
  it("shows the client's hours by month and by technologist with totals, in the client's zone", async () => {
    const { calls } = renderReportingScreen(
      `/reporting/continuous-monitoring/${clientId}?from=2026-10-01&to=2026-11-22`,
      {
        routes: {
          [`GET /api/continuous-monitoring/clients/${clientId}`]: () => envelope(testClient()),
          [`GET ${reportPath}`]: ({ url }) =>
            envelope(
              url.searchParams.get("groupBy") === "technologist"
                ? reportFor(url, byTechnologist, { hours: "51.50", caseCount: 4, logCount: 14 })
                : reportFor(url, byMonth, { hours: "51.50", caseCount: 4, logCount: 14 }),
            ),
        },
      },
    );

    const months = await screen.findByRole("table", { name: "Billable hours by month" });
    expect(tableCells(months)).toEqual([
      ["Month", "Hours", "Cases", "Logs"],
      ["October 2026", "20.50", "2", "6"],
      ["November 2026", "31.00", "3", "8"],
      ["Total", "51.50", "4", "14"],
    ]);
    expect(tableCells(screen.getByRole("table", { name: "Billable hours by technologist" }))).toEqual([
      ["Technologist", "Hours", "Cases", "Logs"],
      ["Nora Night", "22.25", "2", "5"],
      ["Taylor Technologist", "29.25", "3", "9"],
      ["Total", "51.50", "4", "14"],
    ]);
    const report = screen.getByRole("article", { name: "Printable client report" });
    expect(within(report).getByRole("heading", { level: 1, name: "St. Mary's Regional Medical Center" })).toBeTruthy();
    expect(
      within(report).getByText("Oct 1, 2026 – Nov 22, 2026, days in the client's time zone (America/New_York)"),
    ).toBeTruthy();
    // 14:14 UTC is 09:14 in Boston.
    expect(within(report).getByText("Nov 22, 2026, 09:14 EST (America/New_York)")).toBeTruthy();
    expect(within(report).getByText("51.50 hours · 4 cases · 14 time logs")).toBeTruthy();

    const queries = calls
      .filter((call) => call.path.startsWith(reportPath))
      .map((call) => Object.fromEntries(new URL(call.path, "http://localhost").searchParams));
    expect(queries).toEqual(
      expect.arrayContaining([
        { from: "2026-10-01", to: "2026-11-22", clientId, groupBy: "month" },
        { from: "2026-10-01", to: "2026-11-22", clientId, groupBy: "technologist" },
      ]),
    );
    expect(queries).toHaveLength(2);
    const back = screen.getByRole("link", { name: "Back to billable hours" });
    expect(back.getAttribute("href")).toBe(
      `/reporting/continuous-monitoring?from=2026-10-01&to=2026-11-22&client=${clientId}`,
    );
    expect(back.closest(".vigil-no-print")).toBeTruthy();
  });

  it("prints with the browser's dialog, its buttons left off the paper", async () => {
    const user = userEvent.setup({ delay: null });
    const print = vi.spyOn(window, "print").mockImplementation(() => {});
    renderReportingScreen(`/reporting/continuous-monitoring/${clientId}?from=2026-11-01&to=2026-11-22`, {
      routes: {
        [`GET /api/continuous-monitoring/clients/${clientId}`]: () => envelope(testClient()),
        [`GET ${reportPath}`]: ({ url }) => envelope(reportFor(url, [], { hours: "0.00", caseCount: 0, logCount: 0 })),
      },
    });
    await screen.findByRole("table", { name: "Billable hours by month" });
    const button = screen.getByRole("button", { name: "Print / Save as PDF" });
    expect(button.closest(".vigil-no-print")).toBeTruthy();
    await user.click(button);
    expect(print).toHaveBeenCalledTimes(1);
  });

  it("says so when the client does not exist", async () => {
    renderReportingScreen(`/reporting/continuous-monitoring/${clientId}?from=2026-11-01&to=2026-11-22`, {
      routes: {
        [`GET /api/continuous-monitoring/clients/${clientId}`]: () =>
          errorEnvelope(404, "not_found", "Client not found"),
        [`GET ${reportPath}`]: ({ url }) => envelope(reportFor(url, [], { hours: "0.00", caseCount: 0, logCount: 0 })),
      },
    });
    expect(await screen.findByText("There is no client with this id.")).toBeTruthy();
  });
});
