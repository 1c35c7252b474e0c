import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { caseActionRules, pages } from "@vigil/contract";
import { Outlet, useNavigation } from "react-router";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { renderWithRoutes } from "../../../test/render-page-screens";
import { caseId, pickerRoutes, renderCaseScreen, testCase, testMove } from "../testing/render-case-screen";
import { CaseDetailPage } from "./case-detail";

function NavigationState() {
  return (
    <>
      <p>Navigation: {useNavigation().state}</p>
      <Outlet />
    </>
  );
}

const caseApi = `/api/continuous-monitoring/cases/${caseId}`;
const acknowledgeLabel = caseActionRules.acknowledge.label;

function refusal(message: string, failedChecks: string[]) {
  return Response.json(
    { enoch: "release-1", error: { status: 409, code: "conflict", message, details: { failedChecks } } },
    { status: 409 },
  );
}

describe("case detail", () => {
  it("shows the header and only the moves and actions the server allows, a failing one disabled with its reason", async () => {
    const item = testCase({
      stage: "preview",
      allowedTransitions: [
        testMove({
          ruleId: "return-to-monitoring",
          to: "monitoring",
          label: "Return to monitoring",
          reasonRequired: true,
        }),
        testMove({
          ruleId: "sign-off",
          to: "reviewed",
          label: "Mark reviewed",
          allowed: false,
          failedChecks: [{ check: "final-interpretation-signed", message: "No final interpretation is signed yet." }],
        }),
      ],
    });
    renderCaseScreen(`/continuous-monitoring/cases/preview/${caseId}/overview`, {
      groups: ["reviewer"],
      routes: { [`GET ${caseApi}`]: () => envelope(item) },
    });

    expect(await screen.findByRole("heading", { level: 1, name: "CM-2026-000123" })).toBeTruthy();
    expect(screen.getByText("Stage: Preview")).toBeTruthy();
    expect(screen.getAllByText("Rivera, Jamie").length).toBeGreaterThan(0);
    expect(screen.getByText("Times in America/Los_Angeles")).toBeTruthy();

    const actions = screen.getByRole("region", { name: "What you can do" });
    expect(within(actions).getByRole("button", { name: "Return to monitoring" })).toHaveProperty("disabled", false);
    const signOff = within(actions).getByRole("button", { name: "Mark reviewed" }) as HTMLButtonElement;
    expect(signOff.disabled).toBe(true);
    expect(within(actions).getByText(/No final interpretation is signed yet\./)).toBeTruthy();
    // Nothing the server did not list: no start/end monitoring, no assignment actions, no edit for a reviewer.
    expect(within(actions).queryByRole("button", { name: /monitoring$/ })).toHaveProperty(
      "textContent",
      "Return to monitoring",
    );
    expect(screen.queryByRole("button", { name: "Assign technologist" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Edit" })).toBeNull();
  });

  it("offers Acknowledge on an untaken STAT case in preview and says why it cannot be marked reviewed yet", async () => {
    const statMessage =
      "Take this STAT case first (Acknowledge): STAT cases are reviewed only once a reviewer has taken them.";
    const item = testCase({
      stage: "preview",
      priority: "stat",
      allowedActions: [{ action: "acknowledge", label: acknowledgeLabel, allowed: true, failedChecks: [] }],
      allowedTransitions: [
        testMove({
          ruleId: "sign-off",
          to: "reviewed",
          label: "Mark reviewed",
          allowed: false,
          failedChecks: [{ check: "stat-acknowledged", message: statMessage }],
        }),
      ],
    });
    renderCaseScreen(`/continuous-monitoring/cases/preview/${caseId}/overview`, {
      groups: ["reviewer"],
      routes: { [`GET ${caseApi}`]: () => envelope(item) },
    });
    const actions = await screen.findByRole("region", { name: "What you can do" });
    expect(within(actions).getByRole("button", { name: acknowledgeLabel })).toHaveProperty("disabled", false);
    const signOff = within(actions).getByRole("button", { name: "Mark reviewed" });
    expect(signOff).toHaveProperty("disabled", true);
    // The reason is tied to the disabled button, so a screen reader reads it with the button.
    const reason = document.getElementById(signOff.getAttribute("aria-describedby") ?? "");
    expect(reason?.textContent).toBe(`Not possible yet: ${statMessage}`);
  });

  it("does not offer Acknowledge on a reviewed STAT case, where taking it means nothing", async () => {
    const item = testCase({
      stage: "reviewed",
      priority: "stat",
      allowedActions: [
        {
          action: "acknowledge",
          label: acknowledgeLabel,
          allowed: false,
          failedChecks: [
            { check: "before-review", message: "A STAT case is taken before it is reviewed; this case is reviewed." },
          ],
        },
        { action: "assign-reviewer", label: "Assign reviewer", allowed: true, failedChecks: [] },
      ],
    });
    renderCaseScreen(`/continuous-monitoring/cases/reviewed/${caseId}/overview`, {
      groups: ["reviewer"],
      routes: { [`GET ${caseApi}`]: () => envelope(item) },
    });
    const actions = await screen.findByRole("region", { name: "What you can do" });
    expect(within(actions).getByRole("button", { name: "Assign reviewer" })).toBeTruthy();
    expect(within(actions).queryByRole("button", { name: acknowledgeLabel })).toBeNull();
    expect(within(actions).queryByText(/taken before it is reviewed/)).toBeNull();
  });

  it("shows the server's reason when a move is refused", async () => {
    const user = userEvent.setup();
    const item = testCase({ allowedTransitions: [testMove()], allowedActions: [] });
    renderCaseScreen(`/continuous-monitoring/cases/intake/${caseId}/overview`, {
      groups: ["technologist"],
      routes: {
        [`GET ${caseApi}`]: () => envelope(item),
        [`POST ${caseApi}/transitions`]: () =>
          refusal("Start monitoring is not possible: the client has no protocol revision to pin.", [
            "client-protocol-exists",
          ]),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Start monitoring" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(
      "The move was refused: Start monitoring is not possible: the client has no protocol revision to pin.",
    );
  });

  it("asks for a reason before a move that needs one, and sends it", async () => {
    const user = userEvent.setup();
    const item = testCase({
      stage: "preview",
      allowedTransitions: [
        testMove({
          ruleId: "return-to-monitoring",
          to: "monitoring",
          label: "Return to monitoring",
          reasonRequired: true,
        }),
      ],
    });
    const sent: unknown[] = [];
    const { location } = renderCaseScreen(`/continuous-monitoring/cases/preview/${caseId}/overview`, {
      groups: ["reviewer"],
      routes: {
        [`GET ${caseApi}`]: () => envelope(sent.length ? { ...item, stage: "monitoring", version: 3 } : item),
        [`POST ${caseApi}/transitions`]: async ({ text }) => {
          sent.push(JSON.parse(await text()));
          const moved = { ...item, stage: "monitoring" as const, version: 3, allowedTransitions: [] };
          return envelope(
            {
              transition: {
                id: "6e1e2d3c-3333-4a2b-9c3d-000000000009",
                caseId,
                ruleId: "return-to-monitoring",
                from: "preview",
                to: "monitoring",
                status: "completed",
                reason: "Artifact in hours 3-5",
                requestedBy: { sub: null, username: "alice", name: "Alice" },
                requestedAt: "2026-11-23T10:00:00.000Z",
                decidedBy: null,
                decidedAt: null,
                allowedActions: [],
              },
              case: moved,
            },
            { status: 201 },
          );
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Return to monitoring" }));
    const dialog = await screen.findByRole("dialog", { name: /Return to monitoring/ });
    const confirm = within(dialog).getByRole("button", { name: "Return to monitoring" });
    await user.click(confirm);
    expect(within(dialog).getByText("Reason is required")).toBeTruthy();
    expect(sent).toHaveLength(0);

    await user.click(within(dialog).getByLabelText(/^Reason/));
    await user.paste("Artifact in hours 3-5");
    await user.click(confirm);
    await waitFor(() => expect(sent).toEqual([{ to: "monitoring", reason: "Artifact in hours 3-5", version: 2 }]));
    // The case is now in monitoring: the page follows it there.
    await waitFor(() => expect(location()).toBe(`/continuous-monitoring/cases/monitoring/${caseId}/overview`));
  });

  it("links administrators to the case's audit trail, and not technologists", async () => {
    const item = testCase({ stage: "monitoring" });
    const routes = { [`GET ${caseApi}`]: () => envelope(item) };
    const admin = renderCaseScreen(`/continuous-monitoring/cases/monitoring/${caseId}/overview`, {
      groups: ["admin"],
      routes,
    });
    const link = await screen.findByRole("link", { name: "Audit trail" });
    expect(link.getAttribute("href")).toBe(`/audit?caseId=${caseId}`);
    admin.unmount();

    renderCaseScreen(`/continuous-monitoring/cases/monitoring/${caseId}/overview`, {
      groups: ["technologist"],
      routes,
    });
    expect(await screen.findByRole("heading", { level: 1, name: "CM-2026-000123" })).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Audit trail" })).toBeNull();
  });

  it("sends a URL with the wrong stage to the case's real stage, and an unknown tab to Page Not Found", async () => {
    const item = testCase({ stage: "monitoring" });
    const { location, router } = renderCaseScreen(`/continuous-monitoring/cases/intake/${caseId}/timeline`, {
      routes: {
        [`GET ${caseApi}`]: () => envelope(item),
        [`GET ${caseApi}/timeline`]: () => envelope({ caseId, items: [] }),
      },
    });
    await waitFor(() => expect(location()).toBe(`/continuous-monitoring/cases/monitoring/${caseId}/timeline`));
    expect(await screen.findByText("Nothing has happened to this case yet.")).toBeTruthy();

    await router.navigate(`/continuous-monitoring/cases/monitoring/${caseId}/nonsense`);
    expect(await screen.findByText("Page Not Found")).toBeTruthy();
  });

  it("lets a navigation the user started finish when the case moves stage while the next screen is still loading", async () => {
    let stage: "monitoring" | "preview" = "monitoring";
    let finishLoading: (() => void) | undefined;
    const queueLoaded = new Promise<void>((resolve) => {
      finishLoading = resolve;
    });
    const { router, queryClient, location } = renderWithRoutes(
      `/continuous-monitoring/cases/monitoring/${caseId}/overview`,
      [
        {
          element: <NavigationState />,
          children: [
            { path: pages["case-monitoring-detail"].path, element: <CaseDetailPage /> },
            { path: pages["case-preview-detail"].path, element: <CaseDetailPage /> },
          ],
        },
        {
          path: "/queue-still-loading",
          lazy: async () => {
            await queueLoaded;
            return { element: <p>The queue</p> };
          },
        },
      ],
      {
        groups: ["coordinator"],
        routes: {
          ...pickerRoutes,
          [`GET ${caseApi}`]: () => envelope(testCase({ stage })),
          [`GET ${caseApi}/clocks`]: () => envelope({ caseId, asOf: new Date().toISOString(), clocks: [] }),
        },
      },
    );
    expect(await screen.findByRole("heading", { level: 1, name: "CM-2026-000123" })).toBeTruthy();

    const leaving = router.navigate("/queue-still-loading");
    // React has rendered the pending navigation (the router's own state changes a moment earlier).
    expect(await screen.findByText("Navigation: loading")).toBeTruthy();
    // Someone else ends monitoring; the event makes the open case screen read the case again.
    stage = "preview";
    await queryClient.invalidateQueries();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    finishLoading?.();
    await leaving;

    expect(await screen.findByText("The queue")).toBeTruthy();
    expect(location()).toBe("/queue-still-loading");
  });
});
