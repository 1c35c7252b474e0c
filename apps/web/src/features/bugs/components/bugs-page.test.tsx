import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type BugReport, versionEtag } from "@vigil/contract";
import { describe, expect, it, vi } from "vitest";
import { envelope, type Handler } from "../../../test/fake-server";
import {
  page,
  renderBugScreen,
  reportId,
  testEvent,
  testReport,
  testReportSummary,
} from "../testing/render-bug-reports";
import { BugsPage } from "./bugs-page";

// The Unit tests tab is another screen's; here it only has to be where the tab says.
vi.mock("./unit-tests-panel", () => ({ UnitTestsPanel: () => <p>The unit-test catalogue</p> }));

const listPath = "/api/bugs/reports";
const detailPath = `/api/bugs/reports/${reportId}`;

function queryOf(path: string | undefined) {
  return Object.fromEntries(new URL(path ?? "", "http://localhost").searchParams);
}

function listCalls(calls: { method: string; path: string }[]) {
  return calls.filter((call) => call.method === "GET" && call.path.startsWith(`${listPath}?`));
}

/** jsdom's Blob has no `text()`; FileReader it has. */
function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

const triaged = testReport({
  status: "triaged",
  version: 2,
  updatedAt: "2026-11-23T09:30:00.000Z",
  history: [
    testEvent(),
    testEvent({
      id: "8a1b2c3d-0000-4000-8000-000000000002",
      at: "2026-11-23T09:30:00.000Z",
      by: { sub: null, username: "dana", name: "Dana Developer" },
      fromStatus: "open",
      toStatus: "triaged",
      comment: "Seen on two wards; looking at the chart's data source.",
    }),
  ],
});

function reportRoutes(report: BugReport, patch?: Handler): Record<string, Handler> {
  return {
    [`GET ${listPath}`]: ({ url }) =>
      envelope(page([testReportSummary(report)], 1, Number(url.searchParams.get("limit") ?? 25))),
    [`GET ${detailPath}`]: () => envelope(report),
    ...(patch ? { [`PATCH ${detailPath}`]: patch } : {}),
  };
}

describe("the bugs page", () => {
  it("reads the filters from the URL, sends them, and keeps a changed filter in the URL from the first page", async () => {
    const user = userEvent.setup();
    const { calls, location } = renderBugScreen(<BugsPage />, {
      path: "/bugs?status=triaged&severity=high&reporter=ada&search=chart&sort=severity&page=1",
      routes: {
        [`GET ${listPath}`]: ({ url }) =>
          envelope(page([testReportSummary({ status: "triaged" })], 26, 25, Number(url.searchParams.get("offset")))),
      },
    });

    const table = await screen.findByRole("table", { name: "Bug reports" });
    const row = (await within(table).findByRole("link", { name: "Impedance chart stays empty" })).closest("tr");
    expect(row && within(row).getByText("BUG-7")).toBeTruthy();
    expect(row && within(row).getByText("High")).toBeTruthy();
    expect(row && within(row).getByText("Triaged")).toBeTruthy();
    expect(row && within(row).getByText("Ada Lovelace")).toBeTruthy();
    expect(row && within(row).getByText("/continuous-monitoring/cases/monitoring/42/impedances")).toBeTruthy();
    expect(queryOf(listCalls(calls)[0]?.path)).toEqual({
      status: "triaged",
      severity: "high",
      reporter: "ada",
      search: "chart",
      sort: "severity",
      limit: "25",
      offset: "25",
    });
    expect((screen.getByLabelText("Status") as HTMLSelectElement).value).toBe("triaged");
    expect((screen.getByLabelText("Reporter") as HTMLInputElement).value).toBe("ada");

    await user.selectOptions(screen.getByLabelText("Status"), "fixed");
    await waitFor(() =>
      expect(location()).toBe("/bugs?status=fixed&severity=high&reporter=ada&search=chart&sort=severity"),
    );
    await waitFor(() => expect(queryOf(listCalls(calls).at(-1)?.path)).toMatchObject({ status: "fixed", offset: "0" }));

    await user.clear(screen.getByLabelText("Reporter"));
    await waitFor(() => expect(location()).toBe("/bugs?status=fixed&severity=high&search=chart&sort=severity"));
    await waitFor(() => expect(queryOf(listCalls(calls).at(-1)?.path)).not.toHaveProperty("reporter"));
  });

  it("exports every report of the current filter as CSV", async () => {
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return "blob:export";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const { calls } = renderBugScreen(<BugsPage />, { path: "/bugs?severity=critical", routes: reportRoutes(triaged) });
    await screen.findByRole("link", { name: "Impedance chart stays empty" });

    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(blobs).toHaveLength(1));

    const exportCall = listCalls(calls).find((call) => call.path.includes("limit=200"));
    expect(queryOf(exportCall?.path)).toMatchObject({ severity: "critical", offset: "0", limit: "200" });
    const lines = (await readBlob(blobs[0] as Blob))
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe("Number,Title,Severity,Status,Reporter,Reporter name,Page,Filed (UTC),Updated (UTC)");
    expect(lines[1]).toMatch(/^BUG-7,Impedance chart stays empty,High,Triaged,ada,Ada Lovelace,https:/);
  });

  it("opens a report from the list with everything filed and its history, keeping the filters", async () => {
    const user = userEvent.setup();
    const { location } = renderBugScreen(<BugsPage />, { path: "/bugs?status=triaged", routes: reportRoutes(triaged) });

    await user.click(await screen.findByRole("link", { name: "Impedance chart stays empty" }));
    await waitFor(() => expect(location()).toBe(`/bugs?status=triaged&report=${reportId}`));
    const dialog = await screen.findByRole("dialog", { name: "BUG-7: Impedance chart stays empty" });

    expect(await within(dialog).findByText("The chart shows no electrodes after saving a check.")).toBeTruthy();
    expect(within(dialog).getByText(/1\. Open a case/)).toBeTruthy();
    const pageLink = within(dialog).getByRole("link", { name: triaged.context.pageUrl });
    expect(pageLink.getAttribute("href")).toBe(triaged.context.pageUrl);
    expect(within(dialog).getByText("Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0")).toBeTruthy();
    expect(within(dialog).getByText("1920 × 1080 at 2× pixel ratio")).toBeTruthy();
    expect(within(dialog).getByText("server release release-41, web build build-2026-11-20")).toBeTruthy();

    const history = within(dialog).getByRole("list", { name: "History" });
    const entries = within(history).getAllByRole("listitem");
    expect(entries.map((entry) => entry.querySelector("p")?.textContent)).toEqual([
      "Ada Lovelace filed it as Open",
      "Dana Developer moved it from Open to Triaged",
    ]);
    expect(within(entries[1] as HTMLElement).getByText(/Seen on two wards/)).toBeTruthy();
    expect(within(entries[1] as HTMLElement).getByText(/Nov 23, 2026/)).toBeTruthy();

    await user.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(location()).toBe("/bugs?status=triaged"));
  });

  it("changes the status with If-Match and the comment", async () => {
    const user = userEvent.setup();
    const sent: { ifMatch: string | null; body: unknown }[] = [];
    const moved = testReport({
      ...triaged,
      status: "in-progress",
      version: 3,
      history: [
        ...triaged.history,
        testEvent({ id: "8a1b2c3d-0000-4000-8000-000000000003", fromStatus: "triaged", toStatus: "in-progress" }),
      ],
    });
    renderBugScreen(<BugsPage />, {
      path: `/bugs?report=${reportId}`,
      routes: reportRoutes(triaged, async ({ headers, text }) => {
        sent.push({ ifMatch: headers.get("if-match"), body: JSON.parse(await text()) });
        return envelope(moved);
      }),
    });
    const dialog = await screen.findByRole("dialog", { name: "BUG-7: Impedance chart stays empty" });
    const form = await within(dialog).findByRole("form", { name: "Change status" });

    await user.click(within(form).getByRole("button", { name: "Change status" }));
    expect(await within(form).findByText("New status is required")).toBeTruthy();
    expect(within(form).getByText("Comment is required")).toBeTruthy();

    await user.selectOptions(within(form).getByLabelText(/^New status/), "in-progress");
    await user.click(within(form).getByLabelText(/^Comment/));
    await user.paste("Fixing the chart's query.");
    await user.click(within(form).getByRole("button", { name: "Change status" }));

    expect(await within(form).findByText("Moved to In progress.")).toBeTruthy();
    expect(sent).toEqual([
      { ifMatch: versionEtag(2), body: { status: "in-progress", comment: "Fixing the chart's query." } },
    ]);
    expect(within(dialog).getByText("Ada Lovelace moved it from Triaged to In progress")).toBeTruthy();
    expect((within(form).getByLabelText(/^Comment/) as HTMLTextAreaElement).value).toBe("");
  });

  it("says who changed the report first, keeps the comment and applies it on top of their version", async () => {
    const user = userEvent.setup();
    const theirs = testReport({
      ...triaged,
      status: "fixed",
      version: 3,
      history: [
        ...triaged.history,
        testEvent({
          id: "8a1b2c3d-0000-4000-8000-000000000004",
          by: { sub: null, username: "bob", name: "Bob Builder" },
          fromStatus: "triaged",
          toStatus: "fixed",
          comment: "Fixed in build 2026-11-24.",
        }),
      ],
    });
    const mine = testReport({ ...theirs, status: "closed", version: 4 });
    const sent: { ifMatch: string | null; body: unknown }[] = [];
    renderBugScreen(<BugsPage />, {
      path: `/bugs?report=${reportId}`,
      routes: reportRoutes(triaged, async ({ headers, text }) => {
        sent.push({ ifMatch: headers.get("if-match"), body: JSON.parse(await text()) });
        if (headers.get("if-match") === versionEtag(2)) {
          return Response.json(
            {
              enoch: "release-41",
              error: {
                status: 412,
                code: "precondition_failed",
                message: "The report was changed by someone else",
                details: { current: theirs },
              },
            },
            { status: 412 },
          );
        }
        return envelope(mine);
      }),
    });
    const dialog = await screen.findByRole("dialog", { name: "BUG-7: Impedance chart stays empty" });
    const form = await within(dialog).findByRole("form", { name: "Change status" });
    await user.selectOptions(within(form).getByLabelText(/^New status/), "closed");
    await user.click(within(form).getByLabelText(/^Comment/));
    await user.paste("Verified on the ward.");
    await user.click(within(form).getByRole("button", { name: "Change status" }));

    const alert = await within(form).findByRole("alert");
    expect(within(alert).getByText("Someone changed this report first")).toBeTruthy();
    expect(alert.textContent).toContain("It is now Fixed — changed by Bob Builder");
    expect(alert.textContent).toContain("“Fixed in build 2026-11-24.”");
    expect((within(form).getByLabelText(/^Comment/) as HTMLTextAreaElement).value).toBe("Verified on the ward.");
    expect((within(form).getByLabelText(/^New status/) as HTMLSelectElement).value).toBe("closed");
    // The panel shows the report as it is now.
    expect(within(dialog).getByText("Bob Builder moved it from Triaged to Fixed")).toBeTruthy();

    await user.click(within(alert).getByRole("button", { name: "Apply my change on top" }));
    expect(await within(form).findByText("Moved to Closed.")).toBeTruthy();
    expect(sent).toEqual([
      { ifMatch: versionEtag(2), body: { status: "closed", comment: "Verified on the ward." } },
      { ifMatch: versionEtag(3), body: { status: "closed", comment: "Verified on the ward." } },
    ]);
  });

  it("shows the Unit tests tab the URL names and links to Integration testing", async () => {
    const { calls } = renderBugScreen(<BugsPage />, { path: "/bugs?tab=unit-tests" });
    expect(await screen.findByText("The unit-test catalogue")).toBeTruthy();
    expect(screen.getByRole("tab", { name: "Unit tests" }).getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("tab", { name: "Reports" }).getAttribute("href")).toBe("/bugs");
    expect(screen.getByRole("link", { name: "Integration testing" }).getAttribute("href")).toBe(
      "/bugs/integration-testing",
    );
    expect(listCalls(calls)).toEqual([]);
  });
});
