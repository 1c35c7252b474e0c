import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ClockAlert } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { sharedKeys } from "../../api/query-keys";
import { envelope } from "../../test/fake-server";
import { renderWithRoutes } from "../../test/render-page-screens";
import { ClockAlertsBell } from "./clock-alerts-bell";

const caseId = "3f1c2b7a-9d4e-4c1a-8b2f-1a2b3c4d5e6f";

function alertOf(overrides: Partial<ClockAlert>): ClockAlert {
  return {
    id: "0b7f5a2e-1c3d-4e5f-8a9b-0c1d2e3f4a5b",
    caseId,
    caseNumber: "CM-2026-0042",
    client: { id: "8e0c5d1a-2b3c-4d5e-9f0a-1b2c3d4e5f6a", name: "Mercy General", timezone: "America/Chicago" },
    kind: "impedance-check",
    state: "overdue",
    dueAt: "2026-11-22T15:14:00.000Z",
    createdAt: "2026-11-22T15:15:00.000Z",
    readAt: null,
    href: `/continuous-monitoring/cases/monitoring/${caseId}/impedances`,
    ...overrides,
  };
}

/** The user's alerts as the server keeps them: the list answers from them, the read calls change them. */
function alertServer(initial: ClockAlert[]) {
  const state = { alerts: initial, reads: [] as string[] };
  const page = () =>
    envelope({
      items: state.alerts,
      total: state.alerts.length,
      limit: 20,
      offset: 0,
      unread: state.alerts.filter((alert) => alert.readAt === null).length,
    });
  const routes = {
    "GET /api/notifications/clock-alerts": () => page(),
    "POST /api/notifications/clock-alerts/read": () => {
      const marked = state.alerts.filter((alert) => alert.readAt === null).length;
      state.alerts = state.alerts.map((alert) => ({ ...alert, readAt: alert.readAt ?? "2026-11-22T16:00:00.000Z" }));
      state.reads.push("all");
      return envelope({ marked, unread: 0 });
    },
    [`POST /api/notifications/clock-alerts/${initial[0]?.id}/read`]: () => {
      state.alerts = state.alerts.map((alert, index) =>
        index === 0 ? { ...alert, readAt: "2026-11-22T16:00:00.000Z" } : alert,
      );
      state.reads.push(initial[0]?.id ?? "");
      return envelope(state.alerts[0]);
    },
  };
  return { state, routes };
}

function renderBell(server: ReturnType<typeof alertServer>) {
  return renderWithRoutes("/", [{ path: "/", element: <ClockAlertsBell /> }], {
    groups: ["technologist"],
    routes: server.routes,
  });
}

describe("the clock alerts bell", () => {
  it("counts the unread alerts and lists them with the case, what is due and when, in the client's zone", async () => {
    const user = userEvent.setup();
    const server = alertServer([
      alertOf({}),
      alertOf({ id: "1c8a6b3f-2d4e-4f60-9b1c-1d2e3f4a5b6c", state: "due-soon", readAt: "2026-11-22T12:00:00.000Z" }),
    ]);
    renderBell(server);

    const bell = await screen.findByRole("button", { name: "Clock alerts, 1 unread" });
    await user.click(bell);
    const panel = await screen.findByRole("dialog", { name: "Clock alerts" });
    const links = within(panel).getAllByRole("link");
    expect(links.map((link) => link.textContent)).toEqual([
      expect.stringContaining("Case CM-2026-0042: Impedance check overdue (unread)"),
      expect.stringContaining("Case CM-2026-0042: Impedance check due soon"),
    ]);
    expect(links[0]?.textContent).toContain("Mercy General · due Nov 22, 2026, 09:14 CST (America/Chicago)");
    expect(links[1]?.textContent).not.toContain("unread");
  });

  it("opens the case from an alert and marks that alert read", async () => {
    const user = userEvent.setup();
    const server = alertServer([alertOf({})]);
    const view = renderBell(server);

    await user.click(await screen.findByRole("button", { name: "Clock alerts, 1 unread" }));
    await user.click(await screen.findByRole("link", { name: /Case CM-2026-0042/ }));
    await screen.findByText("Elsewhere");
    expect(view.location()).toBe(`/continuous-monitoring/cases/monitoring/${caseId}/impedances`);
    await waitFor(() => expect(server.state.reads).toEqual([server.state.alerts[0]?.id]));
  });

  it("marks every alert read at once and closes the list", async () => {
    const user = userEvent.setup();
    const server = alertServer([alertOf({}), alertOf({ id: "2d9b7c4a-3e5f-4a71-8c2d-2e3f4a5b6c7d" })]);
    renderBell(server);

    await user.click(await screen.findByRole("button", { name: "Clock alerts, 2 unread" }));
    await user.click(await screen.findByRole("button", { name: "Mark all read" }));
    await waitFor(() => expect(server.state.reads).toEqual(["all"]));
    const bell = await screen.findByRole("button", { name: "Clock alerts" });
    await waitFor(() => expect(document.activeElement).toBe(bell));
  });

  it("reads the count again when the shared alerts key is invalidated, as a case event does", async () => {
    const server = alertServer([]);
    const view = renderBell(server);
    expect(await screen.findByRole("button", { name: "Clock alerts" })).toBeTruthy();

    server.state.alerts = [alertOf({})];
    await view.queryClient.invalidateQueries({ queryKey: sharedKeys.clockAlerts() });
    expect(await screen.findByRole("button", { name: "Clock alerts, 1 unread" })).toBeTruthy();
  });

  it("says so when there are no alerts yet", async () => {
    const user = userEvent.setup();
    renderBell(alertServer([]));
    await user.click(await screen.findByRole("button", { name: "Clock alerts" }));
    expect(await screen.findByText(/No clock alerts\./)).toBeTruthy();
  });
});
