import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AgingReport } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { renderPageScreens } from "../../../test/render-page-screens";
import { BillingReceivablesPage } from "./receivables-aging";

const zero = { current: "0.00", days1to30: "0.00", days31to60: "0.00", days61to90: "0.00", over90: "0.00" };

function report(asOf: string): AgingReport {
  return {
    asOf,
    currency: "USD",
    items: [
      {
        client: { id: "5d4c3b2a-1111-4a2b-9c3d-000000000001", name: "St. Mary's Regional" },
        ...zero,
        days31to60: "200.00",
        over90: "75.00",
        open: "275.00",
        credit: "25.00",
        balance: "250.00",
        oldestOverdue: {
          invoiceId: "5d4c3b2a-1111-4a2b-9c3d-000000000002",
          number: "INV-2026-00001",
          dueDate: "2026-01-31",
          daysPastDue: 99,
        },
      },
    ],
    total: 1,
    limit: 25,
    offset: 0,
    totals: { ...zero, days31to60: "200.00", over90: "75.00", open: "275.00", credit: "25.00", balance: "250.00" },
  };
}

describe("receivables aging", () => {
  it("shows each client's open amounts by days past due as of the chosen date", async () => {
    const asked: (string | null)[] = [];
    renderPageScreens(
      "/billing/receivables",
      { "billing-receivables": BillingReceivablesPage },
      {
        groups: ["billing"],
        routes: {
          "GET /api/billing/receivables/aging": ({ url }) => {
            asked.push(url.searchParams.get("asOf"));
            return envelope(report(url.searchParams.get("asOf") ?? "2026-05-10"));
          },
        },
      },
    );
    const table = await screen.findByRole("table", { name: "Aging by client" });
    const row = (await within(table).findByText("St. Mary's Regional")).closest("tr") as HTMLElement;
    expect(within(row).getByText("$200.00")).toBeTruthy();
    expect(within(row).getByText("INV-2026-00001 (99 days)")).toBeTruthy();
    expect((await screen.findByRole("status")).textContent).toBe("As of 2026-05-10: $275.00 open, balance $250.00.");

    const date = screen.getByLabelText("As of");
    await userEvent.clear(date);
    await userEvent.type(date, "2026-06-30");
    expect(await screen.findByText(/As of 2026-06-30/)).toBeTruthy();
    expect(asked).toContain("2026-06-30");
  });
});
