import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { WatchBoard, WatchBoardRow } from "@vigil/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectLiveEvents } from "../../../lib/live-events";
import { envelope, errorEnvelope } from "../../../test/fake-server";
import { renderPageScreens } from "../../../test/render-page-screens";
import { clockActionHref } from "./board-table";
import { WatchBoardPage } from "./watch-board-page";
import { WatchHomeLead } from "./watch-home-lead";

const minute = 60_000;
const boardApi = "GET /api/continuous-monitoring/board";
const clientId = "5b6a7c8d-1111-4a2b-9c3d-000000000001";

function row(overrides: Partial<WatchBoardRow> & { dueInMinutes: number; windowMinutes?: number }): WatchBoardRow {
  const { dueInMinutes, windowMinutes = 720, ...rest } = overrides;
  const dueAt = Date.now() + dueInMinutes * minute;
  return {
    caseId: "9f1e2d3c-3333-4a2b-9c3d-000000000001",
    caseNumber: "CM-2026-000101",
    stage: "monitoring",
    priority: "routine",
    patientName: "Ada Rivera",
    mrn: "MRN-0101",
    client: { id: clientId, name: "Mercy General", code: "MGH", timezone: "America/New_York" },
    clock: {
      kind: "impedance-check",
      startedAt: new Date(dueAt - windowMinutes * minute).toISOString(),
      dueSoonAt: new Date(dueAt - windowMinutes * minute * 0.25).toISOString(),
      dueAt: new Date(dueAt).toISOString(),
      windowMinutes,
      state: "ok",
      owner: { kind: "user", user: { sub: null, username: "tina", name: "Tina Tech" } },
    },
    otherClocks: 0,
    dischargedAt: null,
    ...rest,
  };
}

function boardOf(items: WatchBoardRow[], total = items.length): WatchBoard {
  return { items, total, limit: 25, offset: 0, asOf: new Date().toISOString() };
}

const routes = (board: WatchBoard) => ({
  [boardApi]: () => envelope(board),
  "GET /api/continuous-monitoring/clients/ids": () => envelope([{ id: clientId, name: "Mercy General", code: "MGH" }]),
  "GET /api/users/continuous-monitoring/technologists": () =>
    envelope({
      items: [{ id: "1f000000-0000-4000-8000-000000000001", username: "tina", name: "Tina Tech" }],
      total: 1,
      limit: 200,
      offset: 0,
    }),
  "GET /api/users/continuous-monitoring/reviewers": () =>
    envelope({
      items: [{ id: "1f000000-0000-4000-8000-000000000002", username: "rex", name: "Rex Reviewer" }],
      total: 1,
      limit: 200,
      offset: 0,
    }),
});

function boardQueries(calls: { path: string }[]) {
  return calls
    .filter((call) => call.path.startsWith("/api/continuous-monitoring/board"))
    .map((call) => Object.fromEntries(new URL(call.path, "http://localhost").searchParams));
}

afterEach(() => vi.useRealTimers());

describe("the watch board", () => {
  it("shows each row's patient, client, what is due, owner and time left, due soon and overdue rows marked in words", async () => {
    renderPageScreens(
      "/watch",
      { "watch-board": WatchBoardPage },
      {
        groups: ["coordinator"],
        routes: routes(
          boardOf([
            row({ caseId: "9f1e2d3c-3333-4a2b-9c3d-0000000000a1", caseNumber: "CM-2026-000001", dueInMinutes: -12 }),
            row({ caseId: "9f1e2d3c-3333-4a2b-9c3d-0000000000a2", caseNumber: "CM-2026-000002", dueInMinutes: 95 }),
            row({
              caseId: "9f1e2d3c-3333-4a2b-9c3d-0000000000a3",
              caseNumber: "CM-2026-000003",
              dueInMinutes: 600,
              otherClocks: 1,
            }),
          ]),
        ),
      },
    );
    const table = await screen.findByRole("table", { name: "Watch board" });
    await within(table).findAllByText("Ada Rivera");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(3);
    const [overdue, soon, ok] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(overdue).getByText("Overdue")).toBeTruthy();
    expect(within(overdue).getByText(/^overdue by 1[12] min \d\d s$/)).toBeTruthy();
    expect(within(overdue).getByText("Ada Rivera")).toBeTruthy();
    expect(within(overdue).getByText("Mercy General")).toBeTruthy();
    expect(within(overdue).getByText("Impedance check")).toBeTruthy();
    expect(within(overdue).getByText("Tina Tech")).toBeTruthy();
    expect(within(soon).getByText("Due soon")).toBeTruthy();
    expect(within(soon).getByText(/^1 h 3[45] min left$/)).toBeTruthy();
    expect(within(ok).getByText("On time")).toBeTruthy();
    expect(within(ok).getByText("and 1 more running")).toBeTruthy();
    expect(await screen.findByRole("status")).toHaveProperty(
      "textContent",
      "3 clocks running; 1 overdue on this page.",
    );
  });

  it("ages a row from on time to due soon to overdue on screen while the page stays open", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderPageScreens(
      "/watch",
      { "watch-board": WatchBoardPage },
      {
        groups: ["coordinator"],
        // 2 h window: due soon in its last 30 min. Due in 31 min: on time for one more minute.
        routes: routes(boardOf([row({ dueInMinutes: 31, windowMinutes: 120 })])),
      },
    );
    const table = await screen.findByRole("table", { name: "Watch board" });
    expect(await within(table).findByText("On time")).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(2 * minute);
    });
    expect(within(table).getByText("Due soon")).toBeTruthy();
    expect(within(table).getByText(/^2[89] min \d\d s left$/)).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(29 * minute + 30_000);
    });
    expect(within(table).getByText("Overdue")).toBeTruthy();
  });

  it("sends the URL's filters and page to the server, and a changed filter starts again at the first page", async () => {
    const user = userEvent.setup();
    const { calls, location } = renderPageScreens(
      `/watch?client=${clientId}&stage=monitoring&kind=impedance-check&owner=tina&page=1`,
      { "watch-board": WatchBoardPage },
      { groups: ["coordinator"], routes: routes(boardOf([row({ dueInMinutes: 30 })], 40)) },
    );
    await screen.findByRole("table", { name: "Watch board" });
    await waitFor(() =>
      expect(boardQueries(calls).at(-1)).toEqual({
        clientId,
        stage: "monitoring",
        kind: "impedance-check",
        owner: "tina",
        limit: "25",
        offset: "25",
      }),
    );
    // Coordinators own no clocks: no "Mine".
    expect(screen.queryByLabelText("Mine")).toBeNull();
    await user.selectOptions(screen.getByLabelText("Owner"), "coordinators");
    await waitFor(() => expect(boardQueries(calls).at(-1)).toMatchObject({ owner: "coordinators", offset: "0" }));
    expect(location()).toContain("owner=coordinators");
    expect(location()).not.toContain("page=");
  });

  it("offers technologists and reviewers Mine, which asks for the caller's own clocks", async () => {
    const user = userEvent.setup();
    const { calls, location } = renderPageScreens(
      "/watch",
      { "watch-board": WatchBoardPage },
      {
        groups: ["technologist"],
        routes: routes(boardOf([row({ dueInMinutes: 30 })])),
      },
    );
    await screen.findByRole("table", { name: "Watch board" });
    await user.click(await screen.findByLabelText("Mine"));
    await waitFor(() => expect(boardQueries(calls).at(-1)).toMatchObject({ mine: "true" }));
    expect(boardQueries(calls).at(-1)?.owner).toBeUndefined();
    expect(location()).toContain("mine=true");
    expect((screen.getByLabelText("Owner") as HTMLSelectElement).disabled).toBe(true);
  });

  it("leads each row's action to the case tab where its clock is stopped", async () => {
    const caseId = "9f1e2d3c-3333-4a2b-9c3d-0000000000b1";
    const of = (kind: WatchBoardRow["clock"]["kind"], stage: WatchBoardRow["stage"]) =>
      clockActionHref({ caseId, stage, clock: { ...row({ dueInMinutes: 10 }).clock, kind } });
    expect(of("impedance-check", "monitoring")).toBe(`/continuous-monitoring/cases/monitoring/${caseId}/impedances`);
    expect(of("intermittent-review", "monitoring")).toBe(`/continuous-monitoring/cases/monitoring/${caseId}/events`);
    expect(of("review-turnaround", "preview")).toBe(`/continuous-monitoring/cases/preview/${caseId}/interpretations`);
    expect(of("stat-acknowledgement", "intake")).toBe(`/continuous-monitoring/cases/intake/${caseId}/overview`);
    expect(of("critical-notification", "monitoring")).toBe(
      `/continuous-monitoring/cases/monitoring/${caseId}/overview`,
    );

    renderPageScreens(
      "/watch",
      { "watch-board": WatchBoardPage },
      {
        groups: ["reviewer"],
        routes: routes(
          boardOf([
            row({
              caseId,
              caseNumber: "CM-2026-000777",
              stage: "preview",
              dueInMinutes: 60,
              clock: { ...row({ dueInMinutes: 60 }).clock, kind: "review-turnaround" },
            }),
          ]),
        ),
      },
    );
    const action = await screen.findByRole("link", { name: "Review: CM-2026-000777" });
    expect(action.getAttribute("href")).toBe(`/continuous-monitoring/cases/preview/${caseId}/interpretations`);
  });

  it("shows a critical finding's clock in words, its one click opening the case overview where the findings are", async () => {
    const caseId = "9f1e2d3c-3333-4a2b-9c3d-0000000000c1";
    renderPageScreens(
      "/watch",
      { "watch-board": WatchBoardPage },
      {
        groups: ["coordinator"],
        routes: routes(
          boardOf([
            row({
              caseId,
              caseNumber: "CM-2026-000888",
              stage: "preview",
              dueInMinutes: -3,
              windowMinutes: 30,
              clock: {
                ...row({ dueInMinutes: -3, windowMinutes: 30 }).clock,
                kind: "critical-notification",
                owner: { kind: "user", user: { sub: null, username: "rex", name: "Rex Reviewer" } },
              },
            }),
          ]),
        ),
      },
    );
    const action = await screen.findByRole("link", { name: "Record acknowledgement: CM-2026-000888" });
    expect(action.getAttribute("href")).toBe(`/continuous-monitoring/cases/preview/${caseId}/overview`);
    const boardRow = action.closest("tr") as HTMLElement;
    expect(within(boardRow).getByText("Critical finding: acknowledgement due")).toBeTruthy();
    expect(within(boardRow).getByText("Critical finding: leads the board")).toBeTruthy();
    expect(boardRow.dataset.critical).toBe("true");
    expect(within(boardRow).getByText("Overdue")).toBeTruthy();
    expect(within(boardRow).getByText("Rex Reviewer")).toBeTruthy();
    // The kind filter offers it too.
    expect(
      within(screen.getByLabelText("What is due")).getByRole("option", {
        name: "Critical finding: acknowledgement due",
      }),
    ).toBeTruthy();
  });

  it("offers each step only to those who may take it, the others a way to the case", async () => {
    const statRow = row({
      caseId: "9f1e2d3c-3333-4a2b-9c3d-0000000000e1",
      caseNumber: "CM-2026-000301",
      stage: "intake",
      priority: "stat",
      dueInMinutes: 20,
      windowMinutes: 60,
      clock: { ...row({ dueInMinutes: 20, windowMinutes: 60 }).clock, kind: "stat-acknowledgement" },
    });
    const reviewRow = row({
      caseId: "9f1e2d3c-3333-4a2b-9c3d-0000000000e2",
      caseNumber: "CM-2026-000302",
      stage: "preview",
      dueInMinutes: 90,
      clock: { ...row({ dueInMinutes: 90 }).clock, kind: "review-turnaround" },
    });
    const reviewCheckRow = row({
      caseId: "9f1e2d3c-3333-4a2b-9c3d-0000000000e3",
      caseNumber: "CM-2026-000303",
      dueInMinutes: 100,
      clock: { ...row({ dueInMinutes: 100 }).clock, kind: "intermittent-review" },
    });
    const board = boardOf([statRow, reviewRow, reviewCheckRow]);
    const actions = async (groups: string[]) => {
      const view = renderPageScreens("/watch", { "watch-board": WatchBoardPage }, { groups, routes: routes(board) });
      const table = await screen.findByRole("table", { name: "Watch board" });
      await within(table).findAllByText("Ada Rivera");
      const names = within(table)
        .getAllByRole("link")
        .map((link) => link.getAttribute("aria-label"));
      view.unmount();
      return names;
    };
    // A coordinator may not take a STAT case nor sign a review, but records review checks.
    expect(await actions(["coordinator"])).toEqual([
      "Open case CM-2026-000301",
      "Open case CM-2026-000302",
      "Record review check: CM-2026-000303",
    ]);
    expect(await actions(["billing"])).toEqual([
      "Open case CM-2026-000301",
      "Open case CM-2026-000302",
      "Open case CM-2026-000303",
    ]);
    expect(await actions(["reviewer"])).toEqual([
      "Acknowledge: CM-2026-000301",
      "Review: CM-2026-000302",
      "Open case CM-2026-000303",
    ]);
  });

  it("renders what the composing screen adds to each row's action cell, beside the link", async () => {
    const caseId = "9f1e2d3c-3333-4a2b-9c3d-0000000000d1";
    renderPageScreens(
      "/watch",
      {
        "watch-board": () => (
          <WatchBoardPage
            rowAction={(boardRow) => <button type="button">{`Extra for ${boardRow.caseNumber}`}</button>}
          />
        ),
      },
      {
        groups: ["technologist"],
        routes: routes(boardOf([row({ caseId, caseNumber: "CM-2026-000999", dueInMinutes: 60 })])),
      },
    );
    const extra = await screen.findByRole("button", { name: "Extra for CM-2026-000999" });
    const cell = extra.closest("td") as HTMLElement;
    expect(within(cell).getByRole("link", { name: "Record impedance check: CM-2026-000999" })).toBeTruthy();
  });

  it("shows each row as a card on a phone, with what is due, the time left, the patient and the one action, the filters folded", async () => {
    const user = userEvent.setup();
    // A phone's width: MUI's "narrower than md" query matches, "at least md" does not.
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: /max-width/.test(query),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }));
    try {
      renderPageScreens(
        "/watch",
        { "watch-board": WatchBoardPage },
        {
          groups: ["technologist"],
          routes: routes(boardOf([row({ caseNumber: "CM-2026-000401", dueInMinutes: -12 })])),
        },
      );
      const list = await screen.findByRole("list", { name: "Watch board" });
      expect(screen.queryByRole("table", { name: "Watch board" })).toBeNull();
      const card = within(list).getByRole("listitem", { name: "Impedance check: CM-2026-000401" });
      expect(within(card).getByText("Impedance check")).toBeTruthy();
      expect(within(card).getByText("Overdue")).toBeTruthy();
      expect(within(card).getByText(/^overdue by 1[12] min \d\d s$/)).toBeTruthy();
      expect(within(card).getByText("Ada Rivera")).toBeTruthy();
      expect(within(card).getByRole("link", { name: "Record impedance check: CM-2026-000401" })).toBeTruthy();
      // The filters are folded behind one button until asked for.
      const fold = screen.getByRole("button", { name: "Filters" });
      expect(fold.getAttribute("aria-expanded")).toBe("false");
      await user.click(fold);
      expect(fold.getAttribute("aria-expanded")).toBe("true");
      expect(screen.getByLabelText("Stage")).toBeTruthy();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("says so when nothing runs", async () => {
    renderPageScreens(
      "/watch",
      { "watch-board": WatchBoardPage },
      {
        groups: ["coordinator"],
        routes: routes(boardOf([])),
      },
    );
    expect(await screen.findByText("No open case has a clock running.")).toBeTruthy();
  });

  it("offers to try again when the board cannot be read", async () => {
    renderPageScreens(
      "/watch",
      { "watch-board": WatchBoardPage },
      {
        groups: ["coordinator"],
        routes: { ...routes(boardOf([])), [boardApi]: () => errorEnvelope(503, "unavailable", "Down for a moment") },
      },
    );
    expect(await screen.findByText("The board could not be loaded.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });
});

describe("the board and the case-event stream", () => {
  it("outlines for a moment the row of a case someone just changed, saying so in words", async () => {
    const changedId = "9f1e2d3c-3333-4a2b-9c3d-0000000000c1";
    renderPageScreens(
      "/watch",
      { "watch-board": WatchBoardPage },
      {
        groups: ["coordinator"],
        routes: routes(
          boardOf([
            row({ caseId: changedId, caseNumber: "CM-2026-000901", dueInMinutes: 30 }),
            row({ caseId: "9f1e2d3c-3333-4a2b-9c3d-0000000000c2", caseNumber: "CM-2026-000902", dueInMinutes: 90 }),
          ]),
        ),
      },
    );
    const table = await screen.findByRole("table", { name: "Watch board" });
    await within(table).findAllByText("Ada Rivera");
    expect(within(table).queryByText("Just changed")).toBeNull();

    // The stream (opened by the app's chrome in the app; here by hand) says another user changed the first case.
    const frame = `id: 7\nevent: case\ndata: ${JSON.stringify({ id: 7, caseId: changedId, clientId, change: "record", at: new Date().toISOString() })}\n\n`;
    const stop = connectLiveEvents(
      { onCaseEvent: () => {}, onReset: () => {} },
      {
        getToken: async () => "token",
        fetch: async () =>
          new Response(
            new ReadableStream<Uint8Array>({
              start(controller) {
                controller.enqueue(new TextEncoder().encode(frame));
              },
            }),
            { status: 200, headers: { "content-type": "text/event-stream" } },
          ) as never,
      },
    );
    try {
      const marked = await within(table).findByText("Just changed");
      expect(marked.closest("tr")?.textContent).toContain("CM-2026-000901");
      await waitFor(() => expect(within(table).queryByText("Just changed")).toBeNull());
    } finally {
      stop();
    }
  });
});

describe("the home page's lead", () => {
  it("asks a technologist's own clocks, the first five, and links to the board with Mine on", async () => {
    const { calls } = renderPageScreens(
      "/",
      { home: WatchHomeLead },
      {
        groups: ["technologist"],
        routes: routes(boardOf([row({ dueInMinutes: 30 })], 9)),
      },
    );
    await screen.findByText("Ada Rivera");
    expect(boardQueries(calls)[0]).toEqual({ mine: "true", limit: "5", offset: "0" });
    expect(screen.getByRole("link", { name: "All 9 on the watch board" }).getAttribute("href")).toBe(
      "/watch?mine=true",
    );
  });

  it("asks a coordinator's desk: the unassigned clocks and every one due soon or overdue", async () => {
    const { calls } = renderPageScreens(
      "/",
      { home: WatchHomeLead },
      {
        groups: ["coordinator"],
        routes: routes(boardOf([])),
      },
    );
    expect(await screen.findByText("Nothing is due for you now.")).toBeTruthy();
    expect(boardQueries(calls)[0]).toEqual({ owner: "coordinators", alsoDueSoon: "true", limit: "5", offset: "0" });
  });

  it("is not there for those who do not work cases", async () => {
    const { calls } = renderPageScreens(
      "/",
      {
        home: () => (
          <>
            <WatchHomeLead />
            <p>Counts</p>
          </>
        ),
      },
      {
        groups: ["billing"],
        routes: routes(boardOf([])),
      },
    );
    expect(await screen.findByText("Counts")).toBeTruthy();
    expect(boardQueries(calls)).toEqual([]);
  });

  it("asks whether to end monitoring on a case whose patient the hospital discharged", async () => {
    const discharged = row({ dueInMinutes: 120, dischargedAt: new Date().toISOString() });
    renderPageScreens(
      "/watch",
      { "watch-board": WatchBoardPage },
      { groups: ["coordinator"], routes: routes(boardOf([discharged])) },
    );
    expect((await screen.findAllByText("Patient discharged — end monitoring?")).length).toBeGreaterThan(0);
  });
});
