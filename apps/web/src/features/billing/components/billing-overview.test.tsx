import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { envelope } from "../../../test/fake-server";
import {
  billingApi,
  clientId,
  otherClientId,
  renderBillingScreen,
  testOverview,
  testRow,
} from "../testing/render-billing-screen";

const clientIds = [
  { id: clientId, name: "St. Mary's Regional Medical Center", code: "SMRMC" },
  { id: otherClientId, name: "Lakeside Children's Hospital", code: "LCH" },
];

const own = testRow();
const inherited = testRow({
  month: "2026-11",
  hours: "40.00",
  caseCount: 2,
  rate: { hourlyRate: "120.00", fromMonth: "2026-10", inherited: true },
  ownRate: null,
  amount: "4800.00",
  invoiced: true,
  statementNumber: 7,
});
const missing = testRow({
  clientId: otherClientId,
  clientName: "Lakeside Children's Hospital",
  clientTimezone: "America/Chicago",
  month: "2026-11",
  hours: "26.25",
  caseCount: 1,
  rate: null,
  ownRate: null,
  amount: null,
  rateMissing: true,
  provisional: true,
});

/** jsdom's Blob has no `text()`; FileReader it has. */
function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

function rowOf(table: HTMLElement, statementLinkName: string): HTMLElement {
  return within(table).getByRole("link", { name: statementLinkName }).closest("tr") as HTMLElement;
}

function queryOf(path: string | undefined): Record<string, string> {
  return Object.fromEntries(new URL(path ?? "", "http://localhost").searchParams);
}

describe("billing overview", () => {
  it("shows each client's months with own, inherited and missing rates in words, links and totals", async () => {
    renderBillingScreen("/billing/continuous-monitoring", {
      routes: {
        [`GET ${billingApi}`]: () => envelope(testOverview([own, inherited, missing])),
        "GET /api/continuous-monitoring/clients/ids": () => envelope(clientIds),
      },
    });
    const table = await screen.findByRole("table", { name: "Billing by client and month" });
    await within(table).findByRole("link", { name: "October 2026 statement for St. Mary's Regional Medical Center" });

    const ownRow = rowOf(table, "October 2026 statement for St. Mary's Regional Medical Center");
    expect(within(ownRow).getByText("1,234.50")).toBeTruthy();
    expect(within(ownRow).getByText("$120.00 per hour")).toBeTruthy();
    expect(within(ownRow).queryByText(/Inherited/)).toBeNull();
    expect(within(ownRow).getByText("$148,140.00")).toBeTruthy();
    expect(within(ownRow).getByText("Not invoiced")).toBeTruthy();

    const inheritedRow = rowOf(table, "November 2026 statement for St. Mary's Regional Medical Center");
    expect(within(inheritedRow).getByText("Inherited from October 2026")).toBeTruthy();
    expect(within(inheritedRow).getByText("$4,800.00")).toBeTruthy();
    expect(within(inheritedRow).getByText("Invoiced: statement No. 7")).toBeTruthy();
    expect(within(table).getByRole("columnheader", { name: "Amount (USD)" })).toBeTruthy();

    const missingRow = rowOf(table, "November 2026 statement for Lakeside Children's Hospital");
    expect(within(missingRow).getByText("No rate")).toBeTruthy();
    expect(within(missingRow).getByText("—")).toBeTruthy();
    expect(within(missingRow).getByText("Provisional")).toBeTruthy();
    expect(within(missingRow).getByRole("link", { name: "Lakeside Children's Hospital" }).getAttribute("href")).toBe(
      `/billing/continuous-monitoring/${otherClientId}`,
    );
    expect(
      within(missingRow)
        .getByRole("link", { name: "November 2026 statement for Lakeside Children's Hospital" })
        .getAttribute("href"),
    ).toBe(`/billing/continuous-monitoring/${otherClientId}/2026-11`);

    const totals = screen.getByRole("region", { name: /^Totals, December 2025 to November 2026/ });
    expect(within(totals).getByText("1,300.75")).toBeTruthy();
    expect(within(totals).getByText(/Totals are sums of the rounded lines/)).toBeTruthy();
    // The server's default period shows in the filter when the URL names none.
    expect((screen.getByLabelText("From month") as HTMLInputElement).value).toBe("2025-12");
  });

  it("shows each client's balance and oldest overdue invoice, linked, beside its months", async () => {
    const overdueId = "0b9b9a0e-3f7d-4f7e-9a51-8f6c1d2e3a4b";
    renderBillingScreen("/billing/continuous-monitoring", {
      routes: {
        [`GET ${billingApi}`]: () =>
          envelope(
            testOverview([own, missing], {
              receivables: [
                {
                  clientId,
                  balance: "2450.75",
                  oldestOverdue: {
                    invoiceId: overdueId,
                    number: "INV-2026-00012",
                    dueDate: "2026-09-30",
                    daysPastDue: 60,
                  },
                },
                { clientId: otherClientId, balance: "-50.00", oldestOverdue: null },
              ],
            }),
          ),
        "GET /api/continuous-monitoring/clients/ids": () => envelope(clientIds),
      },
    });
    const table = await screen.findByRole("table", { name: "Billing by client and month" });
    await within(table).findByRole("link", { name: "October 2026 statement for St. Mary's Regional Medical Center" });
    expect(within(table).getByRole("columnheader", { name: "Client balance (USD)" })).toBeTruthy();
    expect(within(table).getByRole("columnheader", { name: "Oldest overdue invoice" })).toBeTruthy();

    const owing = rowOf(table, "October 2026 statement for St. Mary's Regional Medical Center");
    expect(within(owing).getByText("$2,450.75")).toBeTruthy();
    expect(within(owing).getByRole("link", { name: "INV-2026-00012" }).getAttribute("href")).toBe(
      `/billing/invoices/${overdueId}`,
    );
    expect(within(owing).getByText(/60 days/)).toBeTruthy();

    const inCredit = rowOf(table, "November 2026 statement for Lakeside Children's Hospital");
    expect(within(inCredit).getByText("-$50.00")).toBeTruthy();
    expect(within(inCredit).getByText("None")).toBeTruthy();
  });

  it("reads the filters from the URL, sends them to the server and keeps changes in the URL", async () => {
    const user = userEvent.setup();
    const { calls, location } = renderBillingScreen(
      `/billing/continuous-monitoring?from=2026-01&to=2026-06&client=${otherClientId}&missing=true&page=1`,
      {
        routes: {
          [`GET ${billingApi}`]: ({ url }) =>
            envelope(testOverview(url.searchParams.get("missingRate") ? [missing] : [own], {}, { total: 26 })),
          "GET /api/continuous-monitoring/clients/ids": () => envelope(clientIds),
        },
      },
    );
    await screen.findByRole("link", { name: "November 2026 statement for Lakeside Children's Hospital" });
    const listCalls = () => calls.filter((call) => call.path.startsWith(`${billingApi}?`));
    expect(queryOf(listCalls()[0]?.path)).toEqual({
      from: "2026-01",
      to: "2026-06",
      clientId: otherClientId,
      missingRate: "true",
      limit: "25",
      offset: "25",
    });
    expect((screen.getByLabelText("From month") as HTMLInputElement).value).toBe("2026-01");
    expect((screen.getByLabelText("To month") as HTMLInputElement).value).toBe("2026-06");
    await waitFor(() => expect((screen.getByLabelText("Client") as HTMLSelectElement).value).toBe(otherClientId));
    expect((screen.getByLabelText("Only months without a rate") as HTMLInputElement).checked).toBe(true);

    await user.click(screen.getByLabelText("Only months without a rate"));
    await waitFor(() =>
      expect(location()).toBe(`/billing/continuous-monitoring?from=2026-01&to=2026-06&client=${otherClientId}`),
    );
    await screen.findByRole("link", { name: "October 2026 statement for St. Mary's Regional Medical Center" });

    await user.selectOptions(screen.getByLabelText("Client"), "");
    await waitFor(() => expect(location()).toBe("/billing/continuous-monitoring?from=2026-01&to=2026-06"));

    fireEvent.change(screen.getByLabelText("From month"), { target: { value: "2026-03" } });
    await waitFor(() => expect(location()).toBe("/billing/continuous-monitoring?from=2026-03&to=2026-06"));
    await waitFor(() =>
      expect(queryOf(listCalls().at(-1)?.path)).toEqual({ from: "2026-03", to: "2026-06", limit: "25", offset: "0" }),
    );

    // A first month after the last is not sent; the page says why.
    const sent = listCalls().length;
    fireEvent.change(screen.getByLabelText("From month"), { target: { value: "2026-09" } });
    expect((await screen.findByRole("alert")).textContent).toMatch(
      /From month: Must not be after the end of the period\./,
    );
    expect(screen.getByText("Must not be after the end of the period")).toBeTruthy();
    expect(listCalls()).toHaveLength(sent);
  });

  it("exports every row of the filter as CSV, figures as the server sent them", async () => {
    const user = userEvent.setup();
    const rows = [
      own,
      inherited,
      missing,
      ...Array.from({ length: 200 }, (_unused, index) =>
        testRow({
          month: `20${String(10 + Math.floor(index / 12)).padStart(2, "0")}-${String((index % 12) + 1).padStart(2, "0")}`,
        }),
      ),
    ];
    const blobs: Blob[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return "blob:export";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const { calls } = renderBillingScreen("/billing/continuous-monitoring?from=2010-01&to=2026-11", {
      routes: {
        [`GET ${billingApi}`]: ({ url }) => {
          const limit = Number(url.searchParams.get("limit"));
          const offset = Number(url.searchParams.get("offset"));
          return envelope(testOverview(rows.slice(offset, offset + limit), {}, { total: rows.length, limit, offset }));
        },
        "GET /api/continuous-monitoring/clients/ids": () => envelope(clientIds),
      },
    });
    await screen.findByRole("link", { name: "November 2026 statement for Lakeside Children's Hospital" });

    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(blobs).toHaveLength(1));

    const exportCalls = calls.filter((call) => call.path.includes("limit=200"));
    expect(exportCalls.map((call) => queryOf(call.path))).toEqual([
      { from: "2010-01", to: "2026-11", limit: "200", offset: "0" },
      { from: "2010-01", to: "2026-11", limit: "200", offset: "200" },
    ]);
    const lines = (await readBlob(blobs[0] as Blob))
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(rows.length + 1);
    expect(lines[0]).toBe(
      "Client,Client time zone,Month,Hours,Hourly rate (USD),Rate from month,Rate inherited,Rate missing,Amount (USD),Currency,Cases,Invoiced,Statement number,Provisional",
    );
    expect(lines[1]).toBe(
      "St. Mary's Regional Medical Center,America/New_York,2026-10,1234.50,120.00,2026-10,No,No,148140.00,USD,7,No,,No",
    );
    expect(lines[2]).toBe(
      "St. Mary's Regional Medical Center,America/New_York,2026-11,40.00,120.00,2026-10,Yes,No,4800.00,USD,2,Yes,7,No",
    );
    expect(lines[3]).toBe("Lakeside Children's Hospital,America/Chicago,2026-11,26.25,,,,Yes,,USD,1,No,,Yes");
  });
});
