import { screen, within } from "@testing-library/react";
import type { InvoiceAllocations } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { renderBillingScreen, testInvoice } from "../testing/render-billing-screen";

const invoiceId = "5d4c3b2a-1111-4a2b-9c3d-00000000001b";
const invoicePath = `/api/billing/invoices/${invoiceId}`;
const paymentId = "7a000000-1111-4a2b-9c3d-000000000001";

function allocations(overrides: Partial<InvoiceAllocations> = {}): InvoiceAllocations {
  return {
    invoiceId,
    number: "INV-2026-00019",
    currency: "USD",
    total: "1400.00",
    entries: [
      {
        kind: "allocation",
        date: "2026-10-04",
        payment: { id: paymentId, receivedOn: "2026-10-04", payer: "St. Mary's AP", method: "ach", reference: "ACH-1" },
        document: null,
        amount: "1000.00",
        reason: null,
        amountDue: "400.00",
        recordedAt: "2026-10-04T15:00:00.000Z",
      },
      {
        kind: "allocation-reversal",
        date: "2026-10-09",
        payment: { id: paymentId, receivedOn: "2026-10-04", payer: "St. Mary's AP", method: "ach", reference: "ACH-1" },
        document: null,
        amount: "-1000.00",
        reason: "Returned: account closed",
        amountDue: "1400.00",
        recordedAt: "2026-10-09T15:00:00.000Z",
      },
      {
        kind: "credit-note",
        date: "2026-10-12",
        payment: null,
        document: "CN-2026-00002",
        amount: "150.00",
        reason: "Hours corrected",
        amountDue: "1250.00",
        recordedAt: "2026-10-12T15:00:00.000Z",
      },
    ],
    amountDue: "1250.00",
    ...overrides,
  };
}

function renderInvoice(answer: () => Response) {
  return renderBillingScreen(`/billing/invoices/${invoiceId}`, {
    routes: {
      [`GET ${invoicePath}`]: () => envelope(testInvoice({ id: invoiceId })),
      [`GET ${invoicePath}/sendings`]: () => envelope({ items: [] }),
      [`GET ${invoicePath}/allocations`]: answer,
    },
  });
}

describe("the invoice's payments and credits", () => {
  it("lists each payment, reversal and credit note in date order with the amount due after it", async () => {
    renderInvoice(() => envelope(allocations()));
    const table = await screen.findByRole("table", { name: "Payments and credits applied to INV-2026-00019" });
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((cell) => cell.textContent);
    expect(headers).toEqual(["Date", "What", "Payer", "Method", "Reference", "Amount", "Amount due"]);
    const rows = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole("cell")
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ["2026-10-04", "Payment", "St. Mary's AP", "ACH transfer", "ACH-1", "$1,000.00", "$400.00"],
      [
        "2026-10-09",
        "Payment reversed: Returned: account closed",
        "St. Mary's AP",
        "ACH transfer",
        "ACH-1",
        "-$1,000.00",
        "$1,400.00",
      ],
      ["2026-10-12", "Credit note CN-2026-00002: Hours corrected", "—", "—", "—", "$150.00", "$1,250.00"],
    ]);
    expect(screen.getByRole("region", { name: "Payments and credits" })).toBeTruthy();
  });

  it("says nothing was paid yet, and shows a failed read with a retry", async () => {
    const { unmount } = renderInvoice(() => envelope(allocations({ entries: [], amountDue: "1400.00" })));
    expect(await screen.findByText("Nothing paid or credited yet: $1,400.00 due.")).toBeTruthy();
    unmount();
    renderInvoice(() => new Response("down", { status: 503 }));
    expect(await screen.findByText(/The payments of this invoice/)).toBeTruthy();
    expect(screen.getByRole("button", { name: /Retry|Try again/ })).toBeTruthy();
  });
});
