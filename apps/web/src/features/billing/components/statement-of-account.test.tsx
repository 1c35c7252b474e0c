import { screen, within } from "@testing-library/react";
import type { StatementOfAccount } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { renderPageScreens } from "../../../test/render-page-screens";
import { BillingStatementOfAccountPage } from "./statement-of-account";

const clientId = "5d4c3b2a-1111-4a2b-9c3d-000000000001";

const statement: StatementOfAccount = {
  client: { id: clientId, name: "St. Mary's Regional", timezone: "America/New_York" },
  from: "2026-02-01",
  to: "2026-02-28",
  currency: "USD",
  openingBalance: "500.00",
  entries: [
    {
      date: "2026-02-05",
      kind: "invoice",
      document: "INV-2026-00002",
      description: "Invoice for 2026-01",
      debit: "300.00",
      credit: "0.00",
      balance: "800.00",
    },
    {
      date: "2026-02-10",
      kind: "payment",
      document: "CHK-1001",
      description: "Payment received (check)",
      debit: "0.00",
      credit: "600.00",
      balance: "200.00",
    },
  ],
  closingBalance: "200.00",
};

describe("statement of account", () => {
  it("lists the period's entries with the running balance between the balances brought forward and carried", async () => {
    const asked: string[] = [];
    renderPageScreens(
      `/billing/receivables/${clientId}?from=2026-02-01&to=2026-02-28`,
      { "billing-statement-of-account": BillingStatementOfAccountPage },
      {
        groups: ["billing"],
        routes: {
          [`GET /api/billing/clients/${clientId}/statement-of-account`]: ({ url }) => {
            asked.push(url.search);
            return envelope(statement);
          },
        },
      },
    );
    expect(await screen.findByRole("heading", { name: "Statement of account: St. Mary's Regional" })).toBeTruthy();
    const rows = within(screen.getByRole("table")).getAllByRole("row");
    expect(rows.map((row) => row.textContent)).toEqual([
      "DateEntryDocumentDescriptionDebitCreditBalance",
      "2026-02-01Balance brought forward$500.00",
      "2026-02-05InvoiceINV-2026-00002Invoice for 2026-01$300.00$800.00",
      "2026-02-10PaymentCHK-1001Payment received (check)$600.00$200.00",
      "2026-02-28Balance$200.00",
    ]);
    expect(asked).toEqual(["?from=2026-02-01&to=2026-02-28"]);
    expect(screen.getByRole("button", { name: "Download PDF" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Download CSV" })).toBeTruthy();
  });
});
