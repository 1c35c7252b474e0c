import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { clientId, page, renderCaseScreen, testListItem } from "../testing/render-case-screen";

const statCase = testListItem({
  id: "9f1e2d3c-3333-4a2b-9c3d-000000000002",
  caseNumber: "CM-2026-000200",
  priority: "stat",
  patientName: "Nguyen, Ada",
  mrn: "MRN-0200",
});
const routineCase = testListItem();

describe("case queues", () => {
  it("renders the server's page in its order, STAT cases first and marked, and sends the URL's filters", async () => {
    const { calls } = renderCaseScreen(
      `/continuous-monitoring/cases/intake?search=riv&client=${clientId}&priority=stat&from=2026-11-01&page=1`,
      {
        routes: {
          "GET /api/continuous-monitoring/cases/intake": () => envelope(page([statCase, routineCase], 27, 25, 25)),
        },
      },
    );

    const table = await screen.findByRole("table", { name: "Intake cases" });
    await within(table).findByRole("link", { name: "CM-2026-000200" });
    const rows = within(table).getAllByRole("row");
    // Header, then the STAT case first, marked with a chip; the routine one has none.
    expect(within(rows[1] as HTMLElement).getByRole("link", { name: "CM-2026-000200" })).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getAllByText("STAT").length).toBeGreaterThan(0);
    expect(within(rows[2] as HTMLElement).getByRole("link", { name: "CM-2026-000123" })).toBeTruthy();
    expect(within(rows[2] as HTMLElement).queryByText("STAT")).toBeNull();
    expect(screen.getByRole("link", { name: "CM-2026-000200" }).getAttribute("href")).toBe(
      `/continuous-monitoring/cases/intake/${statCase.id}/overview`,
    );

    const listCall = calls.find((call) => call.path.startsWith("/api/continuous-monitoring/cases/intake"));
    const query = Object.fromEntries(new URL(listCall?.path ?? "", "http://localhost").searchParams);
    expect(query).toMatchObject({
      search: "riv",
      clientId,
      priority: "stat",
      sort: "priority",
      order: "asc",
      limit: "25",
      offset: "25",
    });
    expect(query.createdFrom).toMatch(/^2026-(10-31|11-01)T/);
    expect((screen.getByLabelText("Search") as HTMLInputElement).value).toBe("riv");
    expect((screen.getByLabelText("Priority") as HTMLSelectElement).value).toBe("stat");
  });

  it("says about how many cases there are when the server only estimates a long queue's total", async () => {
    renderCaseScreen("/continuous-monitoring/cases/closed", {
      routes: {
        "GET /api/continuous-monitoring/cases/closed": () => envelope(page([routineCase], 96_897, 25, 0, true)),
      },
    });
    expect(await screen.findByText("1–25 of about 96,897")).toBeTruthy();
  });

  it("shows when a case was opened in its client's time zone, naming the zone", async () => {
    renderCaseScreen("/continuous-monitoring/cases/intake", {
      routes: { "GET /api/continuous-monitoring/cases/intake": () => envelope(page([routineCase], 1, 25, 0)) },
    });
    const table = await screen.findByRole("table", { name: "Intake cases" });
    // 14:14 UTC is 06:14 in Los Angeles in November (PST).
    expect(await within(table).findByText(/Nov 22, 2026, 06:14 PST \(America\/Los_Angeles\)/)).toBeTruthy();
  });

  it("keeps a changed filter in the URL and starts again at the first page", async () => {
    const user = userEvent.setup();
    const { location } = renderCaseScreen("/continuous-monitoring/cases/monitoring?page=2", {
      routes: {
        "GET /api/continuous-monitoring/cases/monitoring": ({ url }) =>
          envelope(page(url.searchParams.get("priority") === "routine" ? [] : [statCase], 1)),
      },
    });
    await screen.findByRole("link", { name: "CM-2026-000200" });
    await user.selectOptions(screen.getByLabelText("Priority"), "routine");
    await waitFor(() => expect(location()).toBe("/continuous-monitoring/cases/monitoring?priority=routine"));
    expect(await screen.findByText("No cases match these filters.")).toBeTruthy();
    await user.type(screen.getByLabelText("Search"), "MRN-02");
    await waitFor(() =>
      expect(location()).toBe("/continuous-monitoring/cases/monitoring?priority=routine&search=MRN-02"),
    );
  });

  it("marks 'Opened from' when it is after 'Opened to' and asks nothing, as the other date ranges do", async () => {
    const { calls } = renderCaseScreen("/continuous-monitoring/cases/intake?from=2026-11-20&to=2026-11-01", {
      routes: { "GET /api/continuous-monitoring/cases/intake": () => envelope(page([routineCase], 1, 25, 0)) },
    });
    const from = await screen.findByLabelText("Opened from");
    expect(from.getAttribute("aria-invalid")).toBe("true");
    const described = document.getElementById(from.getAttribute("aria-describedby") ?? "");
    expect(described?.textContent).toBe("Must not be after the end of the period");
    expect(screen.getByLabelText("Opened to").getAttribute("aria-invalid")).toBe("false");
    expect(await screen.findByText("No cases are shown until the filters marked above are corrected.")).toBeTruthy();
    expect(screen.queryByText("No cases match these filters.")).toBeNull();
    expect(calls.some((call) => call.path.startsWith("/api/continuous-monitoring/cases/intake"))).toBe(false);
  });

  it("shows the server's refusal of a filter beside its field", async () => {
    renderCaseScreen("/continuous-monitoring/cases/intake?from=2026-11-01&to=2026-11-20", {
      routes: {
        "GET /api/continuous-monitoring/cases/intake": () =>
          Response.json(
            {
              enoch: "release-1",
              error: {
                status: 400,
                code: "bad_request",
                message: "Invalid request: querystring.createdTo must be between 1900-01-01T00:00:00Z and …",
                details: { issues: [{ path: "querystring.createdTo", message: "must be on a supported day" }] },
              },
            },
            { status: 400 },
          ),
      },
    });
    const to = await screen.findByLabelText("Opened to");
    await waitFor(() => expect(to.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(to.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Must be on a supported day",
    );
  });

  it("offers New case only to users who may create cases", async () => {
    renderCaseScreen("/continuous-monitoring/cases/intake", {
      groups: ["technologist"],
      routes: { "GET /api/continuous-monitoring/cases/intake": () => envelope(page([routineCase])) },
    });
    await screen.findByRole("link", { name: "CM-2026-000123" });
    expect(screen.queryByRole("link", { name: "New case" })).toBeNull();
    expect(screen.getByRole("button", { name: "Export CSV" })).toBeTruthy();
  });
});
