import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { envelope } from "../../../test/fake-server";
import {
  clientId,
  clientOptions,
  parseCsv,
  readBlob,
  refusedQuery,
  renderReportingScreen,
  reportFor,
  reportPath,
  row,
  technologists,
} from "../testing/render-reporting-screen";

const pickers = {
  "GET /api/continuous-monitoring/clients/ids": () => envelope(clientOptions),
  "GET /api/users/continuous-monitoring/technologists": () =>
    envelope({ items: technologists, total: technologists.length, limit: 200, offset: 0 }),
};

const weeks = [row("2026-W45", "2026-W45", "12.50", 2, 5), row("2026-W46", "2026-W46", "30.25", 3, 9)];
const days = [row("2026-11-01", "Nov 1", "4.00", 1, 1), row("2026-11-02", "Nov 2", "0.00", 0, 0)];

function reportQueries(calls: { path: string }[]) {
  return calls
    .filter((call) => call.path.startsWith(reportPath))
    .map((call) => Object.fromEntries(new URL(call.path, "http://localhost").searchParams));
}

/** The table's cells row by row: header, body rows, the totals row. */
function tableCells(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole("row")
    .map((tableRow) => [...tableRow.querySelectorAll("th, td")].map((cell) => cell.textContent ?? ""));
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("billable hours overview", () => {
  it("asks the server for the filters in the URL and shows the rows with their totals", async () => {
    const { calls } = renderReportingScreen(
      `/reporting/continuous-monitoring?from=2026-11-01&to=2026-11-22&client=${clientId}&technologist=taylor&groupBy=week`,
      {
        routes: {
          ...pickers,
          [`GET ${reportPath}`]: ({ url }) =>
            envelope(reportFor(url, weeks, { hours: "42.75", caseCount: 4, logCount: 14 })),
        },
      },
    );

    const table = await screen.findByRole("table", { name: "Billable hours" });
    expect(tableCells(table)).toEqual([
      ["Week", "Hours", "Cases", "Logs"],
      ["2026-W45", "12.50", "2", "5"],
      ["2026-W46", "30.25", "3", "9"],
      ["Total", "42.75", "4", "14"],
    ]);
    expect(within(table).getByText(/Total hours is the sum of the rows shown/)).toBeTruthy();
    expect(reportQueries(calls)).toEqual([
      { from: "2026-11-01", to: "2026-11-22", groupBy: "week", clientId, technologist: "taylor" },
    ]);
    expect((screen.getByLabelText("From") as HTMLInputElement).value).toBe("2026-11-01");
    expect((screen.getByLabelText("To") as HTMLInputElement).value).toBe("2026-11-22");
    await waitFor(() => expect((screen.getByLabelText("Client") as HTMLSelectElement).value).toBe(clientId));
    await waitFor(() => expect((screen.getByLabelText("Technologist") as HTMLSelectElement).value).toBe("taylor"));
    expect(screen.getByRole("button", { name: "Week" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("link", { name: "Printable client report" }).getAttribute("href")).toBe(
      `/reporting/continuous-monitoring/${clientId}?from=2026-11-01&to=2026-11-22`,
    );
  });

  it("starts with the current month to date, puts changed filters in the URL and re-queries on the group-by switch", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 10, 22, 10, 30));
    const user = userEvent.setup({ delay: null });
    const { calls, location } = renderReportingScreen("/reporting/continuous-monitoring", {
      routes: {
        ...pickers,
        [`GET ${reportPath}`]: ({ url }) =>
          envelope(
            url.searchParams.get("groupBy") === "week"
              ? reportFor(url, weeks, { hours: "42.75", caseCount: 4, logCount: 14 })
              : reportFor(url, days, { hours: "4.00", caseCount: 1, logCount: 1 }),
          ),
      },
    });
    const table = await screen.findByRole("table", { name: "Billable hours" });
    expect(tableCells(table)[0]?.[0]).toBe("Day");
    expect(reportQueries(calls)).toEqual([{ from: "2026-11-01", to: "2026-11-22", groupBy: "day" }]);
    expect(screen.queryByRole("link", { name: "Printable client report" })).toBeNull();

    await user.selectOptions(await screen.findByLabelText("Client"), clientId);
    await waitFor(() => expect(location()).toBe(`/reporting/continuous-monitoring?client=${clientId}`));
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2026-10-15" } });
    await waitFor(() => expect(location()).toBe(`/reporting/continuous-monitoring?client=${clientId}&from=2026-10-15`));
    await waitFor(() =>
      expect(reportQueries(calls).at(-1)).toEqual({ from: "2026-10-15", to: "2026-11-22", groupBy: "day", clientId }),
    );

    await user.click(screen.getByRole("button", { name: "Week" }));
    await waitFor(() =>
      expect(location()).toBe(`/reporting/continuous-monitoring?client=${clientId}&from=2026-10-15&groupBy=week`),
    );
    await waitFor(() => expect(tableCells(screen.getByRole("table", { name: "Billable hours" }))[0]?.[0]).toBe("Week"));
    expect(reportQueries(calls).at(-1)).toEqual({ from: "2026-10-15", to: "2026-11-22", groupBy: "week", clientId });
    expect(screen.getByRole("link", { name: "Printable client report" }).getAttribute("href")).toBe(
      `/reporting/continuous-monitoring/${clientId}?from=2026-10-15&to=2026-11-22`,
    );
  });

  it("exports as CSV exactly the rows and totals the table shows, with the filters named", async () => {
    const user = userEvent.setup({ delay: null });
    const blobs: Blob[] = [];
    const downloads: string[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return "blob:export";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    const byTechnologist = [
      row("nora", 'Night, Nora "the owl"', "10.00", 2, 3),
      row("taylor", "Taylor Technologist", "7.25", 1, 4),
    ];
    renderReportingScreen("/reporting/continuous-monitoring?from=2026-11-01&to=2026-11-22&groupBy=technologist", {
      routes: {
        ...pickers,
        [`GET ${reportPath}`]: ({ url }) =>
          envelope(reportFor(url, byTechnologist, { hours: "17.25", caseCount: 2, logCount: 7 })),
      },
    });
    const table = await screen.findByRole("table", { name: "Billable hours" });

    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    const text = await readBlob(blobs[0] as Blob);
    expect(parseCsv(text)).toEqual(tableCells(table));
    expect(parseCsv(text).at(-1)).toEqual(["Total", "17.25", "2", "7"]);
    const comments = text
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter((line) => line.startsWith("#"));
    expect(comments).toContain("# Period: 2026-11-01 to 2026-11-22 (days in each client's time zone)");
    expect(comments).toContain("# Grouped by: Technologist");
    expect(comments).toContain("# Client: All clients");
    expect(downloads).toEqual(["billable-hours-2026-11-01-to-2026-11-22-by-technologist.csv"]);
  });

  it("shows the server's refusal beside its field, and checks the period before asking", async () => {
    const user = userEvent.setup({ delay: null });
    const tooLong = "the period is too long for this grouping (by day at most 92 days, by week 371, otherwise 3 years)";
    const { calls } = renderReportingScreen("/reporting/continuous-monitoring?from=2026-11-01&to=2026-11-22", {
      routes: {
        ...pickers,
        [`GET ${reportPath}`]: ({ url }) =>
          url.searchParams.get("groupBy") === "day"
            ? refusedQuery("querystring.to", tooLong)
            : envelope(reportFor(url, weeks, { hours: "42.75", caseCount: 4, logCount: 14 })),
      },
    });

    const to = screen.getByLabelText("To");
    expect(await screen.findByText(/The period is too long for this grouping/)).toBeTruthy();
    expect(to.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("From").getAttribute("aria-invalid")).toBe("false");
    expect(screen.queryByRole("table", { name: "Billable hours" })).toBeNull();
    expect((screen.getByRole("button", { name: "Export CSV" }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole("button", { name: "Week" }));
    await screen.findByRole("table", { name: "Billable hours" });
    expect(to.getAttribute("aria-invalid")).toBe("false");

    // Six months by day: the contract's own rule says no before anything is sent.
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2026-05-01" } });
    await waitFor(() => expect(reportQueries(calls).at(-1)?.from).toBe("2026-05-01"));
    const asked = reportQueries(calls).length;
    await user.click(screen.getByRole("button", { name: "Day" }));
    expect(await screen.findByText(/The period is too long for this grouping/)).toBeTruthy();
    expect(screen.getByLabelText("To").getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2026-12-01" } });
    expect(await screen.findByText("Must not be after the end of the period")).toBeTruthy();
    expect(screen.getByLabelText("From").getAttribute("aria-invalid")).toBe("true");
    expect(reportQueries(calls).length).toBe(asked);
  });
});
