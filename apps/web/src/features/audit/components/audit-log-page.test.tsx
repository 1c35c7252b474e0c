import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AuditEvent } from "@vigil/contract";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { AccessProvider } from "../../../components/access/access-context";
import { zonedInputToIso } from "../../../components/dates/zoned-input";
import { theme } from "../../../config/theme";
import { configureAuth } from "../../../lib/auth";
import { createQueryClient } from "../../../lib/query-client";
import { envelope, type Handler, installFetch, storeSignedInTokens, testConfig } from "../../../test/fake-server";
import { browserTimeZone } from "../audit-time";
import { AuditLogPage } from "./audit-log-page";

const caseId = "9f1e2d3c-3333-4a2b-9c3d-000000000001";
const clientId = "0b6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a10";

function testEvent(overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    id: "6a1e2d3c-0000-4a2b-9c3d-000000000001",
    at: "2026-11-22T14:14:05.000Z",
    action: "patient-data.read",
    outcome: "success",
    actor: { sub: "7d0f4f3e-2b7a-4a51-9a55-3f1f1b0c2a10", username: "taylor" },
    target: { type: "case", id: caseId },
    ip: "203.0.113.7",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
    details: { route: "getCase", caseNumber: "CM-2026-000123" },
    count: 1,
    ...overrides,
  };
}

function page(items: AuditEvent[], total = items.length, limit = 25, offset = 0) {
  return { items, total, limit, offset };
}

const clientIds: Handler = () => envelope([{ id: clientId, name: "Pacific Neurology Institute", code: "PNI" }]);

/** The audit page on its route for an administrator, against a fake server at the fetch boundary. */
function renderAuditLog(path: string, auditRoute: Handler) {
  // Without federation, Amplify is configured before the first await; nothing is left to wait for.
  void configureAuth(testConfig);
  storeSignedInTokens("alice", ["admin"]);
  const network = installFetch({
    "GET /api/audit": auditRoute,
    "GET /api/continuous-monitoring/clients/ids": clientIds,
  });
  const router = createMemoryRouter(
    [
      { path: "/audit", element: <AuditLogPage /> },
      { path: "*", element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider theme={theme}>
        <AccessProvider groups={["admin"]}>
          <RouterProvider router={router} />
        </AccessProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  const auditQueries = () =>
    network.calls
      .filter((call) => call.path.startsWith("/api/audit"))
      .map((call) => Object.fromEntries(new URL(call.path, "http://localhost").searchParams));
  return { ...network, router, location, auditQueries };
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

describe("audit log", () => {
  it("filters by the case in the URL, shows it as a removable chip, and lists events with outcomes in words", async () => {
    const user = userEvent.setup({ delay: null });
    const { location, auditQueries } = renderAuditLog(`/audit?caseId=${caseId}`, ({ url }) =>
      envelope(
        url.searchParams.get("caseId")
          ? page([
              testEvent(),
              testEvent({
                id: "6a1e2d3c-0000-4a2b-9c3d-000000000002",
                action: "case-record.create",
                outcome: "denied",
                actor: { sub: null, username: "casey" },
                details: { caseNumber: "CM-2026-000123", kind: "interpretation", changes: { impression: {} } },
              }),
              testEvent({
                id: "6a1e2d3c-0000-4a2b-9c3d-000000000003",
                action: "report-link.lookup",
                outcome: "failure",
                actor: { sub: null, username: null },
                details: { reason: "invalid", lastAt: "2026-11-22T14:14:59.000Z" },
                count: 37,
              }),
            ])
          : page([testEvent({ id: "6a1e2d3c-0000-4a2b-9c3d-000000000003", action: "auth.sign-in", target: null })]),
      ),
    );

    const table = await screen.findByRole("table", { name: "Audit events" });
    const denied = (await within(table).findByText("case-record.create")).closest("tr") as HTMLElement;
    expect(within(denied).getByText("Denied")).toBeTruthy();
    expect(within(denied).getByText("casey")).toBeTruthy();
    expect(within(denied).getByText(/kind: interpretation · changes: impression/)).toBeTruthy();
    const read = within(table).getByText("patient-data.read").closest("tr") as HTMLElement;
    expect(within(read).getByText("Success")).toBeTruthy();
    expect(within(read).getByText("203.0.113.7")).toBeTruthy();
    // Repeated refusals from one address in one window are one row, with how many there were.
    const repeated = within(table).getByText("report-link.lookup").closest("tr") as HTMLElement;
    expect(within(repeated).getByText("37 times")).toBeTruthy();
    expect(within(read).queryByText(/times$/)).toBeNull();
    expect(
      within(read)
        .getByText(/^Nov 22, 2026/)
        .getAttribute("dateTime"),
    ).toBe("2026-11-22T14:14:05.000Z");
    expect(screen.getByText(new RegExp(`browser's time zone,\\s+${browserTimeZone()}`))).toBeTruthy();

    // The full details open as JSON.
    const json = within(read).getByText(/"route": "getCase"/);
    expect(json.closest("[hidden]")).not.toBeNull();
    const toggle = within(read).getByRole("button", { name: "Show full details" });
    await user.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(json.closest("[hidden]")).toBeNull();
    expect(within(read).getByText("User agent: Mozilla/5.0 (X11; Linux x86_64)")).toBeTruthy();

    expect(auditQueries()[0]).toEqual({ caseId, limit: "25", offset: "0" });
    const filters = screen.getByRole("list", { name: "Active filters" });
    const chip = within(filters).getByRole("button", { name: `Case ${caseId}` });
    await user.click(within(chip).getByTestId("CancelIcon"));
    await waitFor(() => expect(location()).toBe("/audit"));
    expect(await within(table).findByText("auth.sign-in")).toBeTruthy();
    expect(auditQueries().at(-1)).toEqual({ limit: "25", offset: "0" });
    expect(screen.queryByRole("list", { name: "Active filters" })).toBeNull();
  });

  it("puts user, action, client, outcome and time range in the URL and the server's query, back at page one", async () => {
    const user = userEvent.setup({ delay: null });
    const { location, auditQueries } = renderAuditLog("/audit?page=2", () => envelope(page([testEvent()], 80)));
    await screen.findByText("patient-data.read");
    expect(auditQueries()[0]).toEqual({ limit: "25", offset: "50" });

    await user.click(screen.getByLabelText("User"));
    await user.paste("taylor");
    await user.click(screen.getByLabelText("Action"));
    await user.paste("user.disable");
    await waitFor(() => expect(location()).toBe("/audit?user=taylor&action=user.disable"));
    await user.selectOptions(screen.getByLabelText("Client"), "Pacific Neurology Institute (PNI)");
    await user.selectOptions(screen.getByLabelText("Outcome"), "Denied");
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2026-11-22T09:30" } });
    fireEvent.change(screen.getByLabelText("To"), { target: { value: "2026-11-23T00:00" } });

    const zone = browserTimeZone();
    const expected = {
      user: "taylor",
      action: "user.disable",
      clientId,
      outcome: "denied",
      from: zonedInputToIso("2026-11-22T09:30", zone),
      to: zonedInputToIso("2026-11-23T00:00", zone),
    };
    await waitFor(() =>
      expect(Object.fromEntries(new URL(location(), "http://localhost").searchParams)).toEqual(expected),
    );
    await waitFor(() => expect(auditQueries().at(-1)).toEqual({ ...expected, limit: "25", offset: "0" }));
    expect((screen.getByLabelText("From") as HTMLInputElement).value).toBe("2026-11-22T09:30");
    const filters = screen.getByRole("list", { name: "Active filters" });
    expect(within(filters).getByText("Client: Pacific Neurology Institute (PNI)")).toBeTruthy();
    expect(within(filters).getByText("Outcome: Denied")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() => expect(location()).toBe("/audit"));
    expect((screen.getByLabelText("User") as HTMLInputElement).value).toBe("");
  });

  it("says when nothing matches, and does not send a case id the server would refuse", async () => {
    const { auditQueries } = renderAuditLog("/audit?caseId=CM-2026-000123&outcome=failure", () => envelope(page([])));
    expect(await screen.findByText("No audit events match these filters.")).toBeTruthy();
    expect(screen.getByText("Not a case id (a case id is a UUID)")).toBeTruthy();
    expect(auditQueries()).toEqual([{ outcome: "failure", limit: "25", offset: "0" }]);
    expect(screen.getByRole("button", { name: "Export CSV" })).toHaveProperty("disabled", true);
  });

  it("marks a From that is not before To, as every date range is marked, and leaves it out of the query", async () => {
    const from = "2026-11-23T00:00:00.000Z";
    const to = "2026-11-22T00:00:00.000Z";
    const { auditQueries } = renderAuditLog(`/audit?from=${from}&to=${to}`, () => envelope(page([])));
    await screen.findByText("No audit events match these filters.");
    const field = screen.getByLabelText("From");
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(field.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Must be before the end of the period",
    );
    expect(screen.getByLabelText("To").getAttribute("aria-invalid")).toBe("false");
    expect(auditQueries()).toEqual([{ to, limit: "25", offset: "0" }]);
  });

  it("exports every page of the filtered log as CSV with ISO instants and the details as JSON", async () => {
    const user = userEvent.setup({ delay: null });
    const events = Array.from({ length: 230 }, (_unused, index) =>
      testEvent({
        id: `6a1e2d3c-0000-4a2b-9c3d-${String(index).padStart(12, "0")}`,
        at: new Date(Date.UTC(2026, 10, 22, 14, 0, 0) - index * 1000).toISOString(),
      }),
    );
    events[0] = testEvent({ id: events[0]?.id, outcome: "denied", details: { reason: 'said "no", twice' } });
    const blobs: Blob[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return "blob:export";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const { auditQueries } = renderAuditLog(`/audit?caseId=${caseId}&outcome=denied`, ({ url }) => {
      const limit = Number(url.searchParams.get("limit"));
      const offset = Number(url.searchParams.get("offset"));
      return envelope(page(events.slice(offset, offset + limit), events.length, limit, offset));
    });
    await screen.findByRole("table", { name: "Audit events" });
    await screen.findAllByText("patient-data.read");

    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(blobs).toHaveLength(1));

    const exportQueries = auditQueries().filter((query) => query.limit === "200");
    expect(exportQueries).toEqual([
      { caseId, outcome: "denied", limit: "200", offset: "0" },
      { caseId, outcome: "denied", limit: "200", offset: "200" },
    ]);
    const lines = (await readBlob(blobs[0] as Blob))
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(231);
    expect(lines[0]).toBe(
      "Time (UTC),User,User id,Action,Outcome,Target type,Target id,IP,User agent,Details,Event id,Count",
    );
    expect(lines[1]).toBe(
      [
        "2026-11-22T14:14:05.000Z",
        "taylor",
        "7d0f4f3e-2b7a-4a51-9a55-3f1f1b0c2a10",
        "patient-data.read",
        "Denied",
        "case",
        caseId,
        "203.0.113.7",
        "Mozilla/5.0 (X11; Linux x86_64)",
        '"{""reason"":""said \\""no\\"", twice""}"',
        events[0]?.id,
        "1",
      ].join(","),
    );
    expect(lines[2]?.startsWith("2026-11-22T13:59:59.000Z,")).toBe(true);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Exporting audit events" })).toBeNull());
  });
});
