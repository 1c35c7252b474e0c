import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { UnitTest, UnitTestPage } from "@vigil/contract";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { AccessProvider } from "../../../components/access/access-context";
import { theme } from "../../../config/theme";
import { configureAuth } from "../../../lib/auth";
import { createQueryClient } from "../../../lib/query-client";
import { envelope, type Handler, installFetch, storeSignedInTokens, testConfig } from "../../../test/fake-server";
import { UnitTestsPanel } from "./unit-tests-panel";

/** The panel on the /bugs page, for a developer, against a fake server at the fetch boundary. */
function renderPanel(path: string, routes: Record<string, Handler>) {
  // Without federation, Amplify is configured before the first await; nothing is left to wait for.
  void configureAuth(testConfig);
  storeSignedInTokens("dana", ["developer"]);
  const network = installFetch(routes);
  const router = createMemoryRouter([{ path: "/bugs", element: <UnitTestsPanel /> }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider theme={theme}>
        <AccessProvider groups={["developer"]}>
          <RouterProvider router={router} />
        </AccessProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...network, location };
}

function unitTest(overrides: Partial<UnitTest> = {}): UnitTest {
  return {
    suite: "server",
    file: "apps/server/src/modules/clients/clients.test.ts",
    name: "clients › archives a client without open cases",
    status: "passed",
    durationMs: 42,
    failure: null,
    ...overrides,
  };
}

const failing = unitTest({
  file: "apps/server/src/modules/cases/cases.test.ts",
  name: "cases › refuses a stale move",
  status: "failed",
  durationMs: 1250,
  failure: "AssertionError: expected 409 to be 200",
});

function testPage(items: UnitTest[], overrides: Partial<UnitTestPage> = {}): UnitTestPage {
  return {
    available: true,
    ranAt: "2026-11-22T14:14:00.000Z",
    revision: "3c0fc59e",
    totals: { total: 240, passed: 236, failed: 3, skipped: 1 },
    matching: { total: items.length, passed: 0, failed: items.length, skipped: 0 },
    suites: [
      { suite: "contract", total: 40, passed: 40, failed: 0, skipped: 0 },
      { suite: "server", total: 150, passed: 147, failed: 3, skipped: 0 },
      { suite: "web", total: 50, passed: 49, failed: 0, skipped: 1 },
    ],
    items,
    total: items.length,
    limit: 50,
    offset: 0,
    ...overrides,
  };
}

function queryOf(path: string | undefined): Record<string, string> {
  return Object.fromEntries(new URL(path ?? "", "http://localhost").searchParams);
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

describe("unit tests panel", () => {
  it("says plainly that there are no results yet, and how to produce them, when no run has written any", async () => {
    renderPanel("/bugs", {
      "GET /api/bugs/unit-tests": () =>
        envelope({
          ...testPage([]),
          available: false,
          ranAt: null,
          revision: null,
          totals: { total: 0, passed: 0, failed: 0, skipped: 0 },
          matching: { total: 0, passed: 0, failed: 0, skipped: 0 },
          suites: [],
          total: 0,
        }),
    });

    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("No test results here yet");
    expect(alert.textContent).toMatch(/written by the last npm test run: run npm test/);
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.queryByRole("button", { name: "Export CSV" })).toBeNull();
  });

  it("shows the run's totals and each suite's, with failures easy to find", async () => {
    renderPanel("/bugs", { "GET /api/bugs/unit-tests": () => envelope(testPage([unitTest(), failing])) });

    const totals = await screen.findByRole("group", { name: "Totals of the last run" });
    expect(totals.textContent).toContain("240tests");
    expect(totals.textContent).toContain("236passed");
    expect(totals.textContent).toContain("3failed");
    expect(totals.textContent).toContain("1skipped");
    expect(screen.getByText("3c0fc59e")).toBeTruthy();
    expect(screen.getByText(/Nov 22, 2026/)).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toContain("3 tests failed in the last run.");

    const suites = screen.getByRole("table", { name: "Results by suite" });
    const serverRow = within(suites).getByRole("rowheader", { name: "Server" }).closest("tr");
    expect(serverRow?.textContent).toBe("Server15014730");

    const table = screen.getByRole("table", { name: "Tests of the last run" });
    const failedRow = within(table).getByText("cases › refuses a stale move").closest("tr");
    expect(failedRow && within(failedRow).getByText("Failed")).toBeTruthy();
    expect(failedRow && within(failedRow).getByText("AssertionError: expected 409 to be 200")).toBeTruthy();
    expect(failedRow && within(failedRow).getByText("1.3 s")).toBeTruthy();
  });

  it("reads its filters from the URL under test* names and sends them to the server", async () => {
    const { calls } = renderPanel("/bugs?tab=unit-tests&testSuite=server&testStatus=failed&testPage=1", {
      "GET /api/bugs/unit-tests": ({ url }) =>
        envelope(testPage(url.searchParams.get("status") === "failed" ? [failing] : [unitTest(), failing])),
    });

    await screen.findByText("cases › refuses a stale move");
    expect(queryOf(calls[0]?.path)).toEqual({ suite: "server", status: "failed", limit: "50", offset: "50" });
    expect((screen.getByLabelText("Suite") as HTMLSelectElement).value).toBe("server");
    expect((screen.getByLabelText("Status") as HTMLSelectElement).value).toBe("failed");
    expect((screen.getByRole("switch", { name: "Show failed only" }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/1 of 240 tests match: 0 passed, 1 failed, 0 skipped\./)).toBeTruthy();
  });

  it("keeps changed filters in the URL beside the page's own parameters and starts again at the first page", async () => {
    const user = userEvent.setup();
    const { calls, location } = renderPanel("/bugs?tab=unit-tests&testSuite=server&testStatus=failed&testPage=1", {
      "GET /api/bugs/unit-tests": ({ url }) =>
        envelope(testPage(url.searchParams.get("status") === "failed" ? [failing] : [unitTest(), failing])),
    });
    await screen.findByText("cases › refuses a stale move");

    await user.click(screen.getByRole("switch", { name: "Show failed only" }));
    await waitFor(() => expect(location()).toBe("/bugs?tab=unit-tests&testSuite=server"));

    await user.selectOptions(screen.getByLabelText("Suite"), "web");
    await waitFor(() => expect(location()).toBe("/bugs?tab=unit-tests&testSuite=web"));

    await user.type(screen.getByLabelText("Search tests"), "stale");
    await waitFor(() => expect(location()).toBe("/bugs?tab=unit-tests&testSuite=web&testSearch=stale"));
    await waitFor(() =>
      expect(queryOf(calls.at(-1)?.path)).toEqual({ suite: "web", search: "stale", limit: "50", offset: "0" }),
    );

    await user.click(screen.getByRole("switch", { name: "Show failed only" }));
    await waitFor(() =>
      expect(location()).toBe("/bugs?tab=unit-tests&testSuite=web&testSearch=stale&testStatus=failed"),
    );
    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() => expect(location()).toBe("/bugs?tab=unit-tests"));
  });

  it("exports every row of the current filter as CSV, page after page", async () => {
    const user = userEvent.setup();
    const failures = Array.from({ length: 230 }, (_unused, index) =>
      unitTest({ ...failing, name: `cases › failure ${index}` }),
    );
    failures[0] = unitTest({ ...failing, name: "=cmd()", failure: 'expected "a", got "b"' });
    const blobs: Blob[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return "blob:export";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const { calls } = renderPanel("/bugs?testStatus=failed&testSuite=server", {
      "GET /api/bugs/unit-tests": ({ url }) => {
        const limit = Number(url.searchParams.get("limit"));
        const offset = Number(url.searchParams.get("offset"));
        return envelope({ ...testPage(failures.slice(offset, offset + limit)), total: failures.length, limit, offset });
      },
    });
    await screen.findByText("=cmd()");

    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(blobs).toHaveLength(1));

    const exportCalls = calls.filter((call) => call.path.includes("limit=200")).map((call) => queryOf(call.path));
    expect(exportCalls).toEqual([
      { suite: "server", status: "failed", limit: "200", offset: "0" },
      { suite: "server", status: "failed", limit: "200", offset: "200" },
    ]);
    const lines = (await readBlob(blobs[0] as Blob))
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(231);
    expect(lines[0]).toBe("Suite,File,Test,Status,Duration (ms),First failure line");
    expect(lines[1]).toBe(
      `Server,apps/server/src/modules/cases/cases.test.ts,'=cmd(),Failed,1250,"expected ""a"", got ""b"""`,
    );
    expect(lines[2]).toContain("cases › failure 1,Failed,1250,AssertionError: expected 409 to be 200");
  });
});
