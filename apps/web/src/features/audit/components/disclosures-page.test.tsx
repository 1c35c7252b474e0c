import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Disclosure } from "@vigil/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { envelope, type Handler } from "../../../test/fake-server";
import { renderPageScreens } from "../../../test/render-page-screens";
import { DisclosuresPage } from "./disclosures-page";

const clientId = "0b6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a10";

function disclosure(index: number, overrides: Partial<Disclosure> = {}): Disclosure {
  return {
    id: `6a1e2d3c-0000-4a2b-9c3d-${String(index).padStart(12, "0")}`,
    at: new Date(Date.UTC(2026, 10, 23, 9, 0, 0) - index * 60_000).toISOString(),
    kind: "report-delivered",
    patient: { mrn: "MRN-0042", name: "Jamie Rivera" },
    caseId: "9f1e2d3c-3333-4a2b-9c3d-000000000001",
    caseNumber: "CM-2026-000123",
    clientId,
    clientName: "Pacific Neurology Institute",
    reportId: "7b1b2c3d-0000-4000-8000-000000000001",
    reportTitle: "EEG report — daily, 2026-11-21 to 2026-11-22",
    reportVersion: 1,
    recipient: "Dr. Nia Neuro <nia.neuro@pni.example>",
    by: null,
    ip: null,
    ...overrides,
  };
}

function renderDisclosures(path: string, listRoute: Handler, more: Record<string, Handler> = {}) {
  const view = renderPageScreens(
    path,
    { "audit-disclosures": DisclosuresPage },
    {
      groups: ["admin"],
      routes: {
        "GET /api/audit/disclosures": listRoute,
        "GET /api/continuous-monitoring/clients/ids": () =>
          envelope([{ id: clientId, name: "Pacific Neurology Institute", code: "PNI" }]),
        ...more,
      },
    },
  );
  const listQueries = () =>
    view.calls
      .filter((call) => call.path.startsWith("/api/audit/disclosures?"))
      .map((call) => Object.fromEntries(new URL(call.path, "http://localhost").searchParams));
  return { ...view, listQueries };
}

describe("the accounting of disclosures", () => {
  afterEach(() => vi.restoreAllMocks());

  it("asks for nothing until an MRN is given, then lists that patient's disclosures newest first", async () => {
    const user = userEvent.setup();
    const rows = [
      disclosure(0, {
        kind: "report-downloaded",
        recipient: "Dr. Nia Neuro <nia.neuro@pni.example>",
        ip: "203.0.113.7",
      }),
      disclosure(1, {
        kind: "pdf-exported",
        recipient: "Casey Coordinator",
        by: { sub: null, username: "coordinator", name: "Casey Coordinator" },
      }),
      disclosure(2),
    ];
    const { listQueries, location } = renderDisclosures("/audit/disclosures", () =>
      envelope({ items: rows, total: 3, limit: 25, offset: 0 }),
    );
    expect(await screen.findByText("Enter a patient's MRN to list every disclosure of their reports.")).toBeTruthy();
    expect(listQueries()).toEqual([]);

    await user.type(screen.getByRole("textbox", { name: /Patient MRN/ }), " MRN-0042 ");
    await user.click(screen.getByRole("button", { name: "Show disclosures" }));

    const table = await screen.findByRole("table", { name: "Disclosures" });
    await within(table).findByText("Report downloaded with a link");
    const bodyRows = within(table).getAllByRole("row").slice(1);
    expect(bodyRows.map((row) => row.querySelectorAll("td")[1]?.textContent)).toEqual([
      "Report downloaded with a link",
      "PDF fetched by staff",
      "Report link e-mailed",
    ]);
    expect(bodyRows[0]?.textContent).toContain("203.0.113.7");
    // Where each disclosure went, whole: an accounting given to the patient names the recipient.
    expect(within(bodyRows[0] as HTMLElement).getByText("Dr. Nia Neuro <nia.neuro@pni.example>")).toBeTruthy();
    expect(bodyRows[1]?.textContent).toContain("Casey Coordinator");
    expect(bodyRows[2]?.textContent).toContain("Vigil");
    expect(screen.getByText("Jamie Rivera, MRN MRN-0042 — 3 disclosures")).toBeTruthy();
    expect(listQueries()).toEqual([{ mrn: "MRN-0042", limit: "25", offset: "0" }]);
    expect(location()).toBe("/audit/disclosures?mrn=MRN-0042");
  });

  it("pages on the server and keeps the filter, client and days, in the request", async () => {
    const user = userEvent.setup();
    const { listQueries } = renderDisclosures(
      `/audit/disclosures?mrn=MRN-0042&clientId=${clientId}&from=2026-11-01&to=2026-11-30`,
      ({ url }) => {
        const offset = Number(url.searchParams.get("offset"));
        return envelope({ items: [disclosure(offset)], total: 30, limit: 25, offset });
      },
    );
    await screen.findByRole("table", { name: "Disclosures" });
    await user.click(await screen.findByRole("button", { name: "Go to next page" }));
    await waitFor(() => expect(listQueries()).toHaveLength(2));
    expect(listQueries()[1]).toEqual({
      mrn: "MRN-0042",
      clientId,
      from: "2026-11-01",
      to: "2026-11-30",
      limit: "25",
      offset: "25",
    });
  });

  it("does not ask with a range the server would refuse, and says why beside the field", async () => {
    const { listQueries } = renderDisclosures("/audit/disclosures?mrn=MRN-0042&from=2026-12-01&to=2026-11-01", () =>
      envelope({ items: [], total: 0, limit: 25, offset: 0 }),
    );
    expect(await screen.findByText("Must not be after the end of the period")).toBeTruthy();
    expect(screen.queryByRole("table", { name: "Disclosures" })).toBeNull();
    expect(listQueries()).toEqual([]);
  });

  it("downloads the server's CSV of the whole filter with the user's token", async () => {
    const user = userEvent.setup();
    const saved: string[] = [];
    vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:csv");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { calls } = renderDisclosures(
      `/audit/disclosures?mrn=MRN%2F0042&clientId=${clientId}`,
      () => envelope({ items: [disclosure(0)], total: 1, limit: 25, offset: 0 }),
      {
        "GET /api/audit/disclosures/export": () =>
          new Response("at,kind\r\n", { headers: { "content-type": "text/csv; charset=utf-8" } }),
      },
    );
    await screen.findByRole("table", { name: "Disclosures" });
    await user.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatch(/^disclosures-MRN-0042-\d{4}-\d{2}-\d{2}\.csv$/);
    const exported = calls.find((call) => call.path.startsWith("/api/audit/disclosures/export"));
    expect(exported?.path).toBe(`/api/audit/disclosures/export?mrn=MRN%2F0042&clientId=${clientId}`);
    expect(exported?.authorization).toMatch(/^Bearer /);
  });

  it("says so when no report of the patient has left Vigil", async () => {
    renderDisclosures("/audit/disclosures?mrn=MRN-9999", () => envelope({ items: [], total: 0, limit: 25, offset: 0 }));
    expect(await screen.findByText("No report of this patient has left Vigil in this period.")).toBeTruthy();
  });
});
