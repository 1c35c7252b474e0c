import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Invoice, InvoicePage } from "@vigil/contract";
import { describe, expect, it, vi } from "vitest";
import { envelope } from "../../../test/fake-server";
import {
  billingApi,
  clientId,
  renderBillingScreen,
  testIssuedStatement,
  testStatement,
} from "../testing/render-billing-screen";

const invoiceId = "5d4c3b2a-1111-4a2b-9c3d-00000000000a";
const invoicesApi = "/api/billing/invoices";

function testInvoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: invoiceId,
    kind: "invoice",
    number: "INV-2026-00004",
    client: { id: clientId, name: "St. Mary's Regional Medical Center" },
    month: "2026-10",
    issueDate: "2026-11-03",
    dueDate: "2026-12-03",
    currency: "USD",
    subtotal: "3150.00",
    tax: "279.56",
    total: "3429.56",
    status: "issued",
    open: "1429.56",
    corrects: null,
    statementId: "5d4c3b2a-1111-4a2b-9c3d-000000000009",
    reason: null,
    paymentTermsDays: 30,
    billTo: { name: "St. Mary's Regional Medical Center, Inc.", address: ["Chicago, IL", "US"], poNumber: "PO-77812" },
    hourlyRate: "120.00",
    taxRatePercent: "8.875",
    lines: [
      {
        caseId: "9f1e2d3c-3333-4a2b-9c3d-000000000001",
        caseNumber: "CM-2026-000123",
        patientName: null,
        serviceFrom: "2026-10-02",
        serviceTo: "2026-10-05",
        hours: "26.25",
        hourlyRate: "120.00",
        amount: "3150.00",
        cptSummary: "95700 ×1, 95720 ×3",
      },
    ],
    pdfSha256: "ab".repeat(32),
    issuedAt: "2026-11-03T14:00:00.000Z",
    issuedBy: { sub: null, username: "bailey", name: "Bailey Biller" },
    issuer: { name: "Vigil Neurodiagnostics", details: "1 Main St, Springfield" },
    ...overrides,
  };
}

function page(items: Invoice[]): InvoicePage {
  return {
    items,
    total: items.length,
    limit: 25,
    offset: 0,
    totals: [{ currency: "USD", total: "3429.56" }],
  };
}

describe("invoices", () => {
  it("lists invoices with their numbers, due dates, totals and status, filtered by the URL", async () => {
    const { calls } = renderBillingScreen(`/billing/invoices?status=overdue&client=${clientId}`, {
      routes: { [`GET ${invoicesApi}`]: () => envelope(page([testInvoice({ status: "overdue" })])) },
    });
    const table = await screen.findByRole("table", { name: "Invoices" });
    const link = await within(table).findByRole("link", { name: "INV-2026-00004" });
    expect(link.getAttribute("href")).toContain(`/billing/invoices/${invoiceId}`);
    expect(within(table).getByText("Overdue")).toBeTruthy();
    expect(within(table).getByText("$3,429.56")).toBeTruthy();
    expect(within(table).getByText("2026-12-03")).toBeTruthy();
    const listed = calls.find((call) => call.path.startsWith(invoicesApi));
    expect(listed?.path).toContain("status=overdue");
    expect(listed?.path).toContain(`clientId=${clientId}`);
  });

  it("does not ask for an upside-down period and says why", async () => {
    const { calls } = renderBillingScreen("/billing/invoices?from=2026-12-01&to=2026-11-01", {
      routes: { [`GET ${invoicesApi}`]: () => envelope(page([])) },
    });
    expect(await screen.findByText("Change the filters to see the invoices.")).toBeTruthy();
    expect(calls.some((call) => call.path.startsWith(`${invoicesApi}?`))).toBe(false);
  });

  it("prints the invoice as issued and downloads the PDF kept at issue", async () => {
    const user = userEvent.setup();
    const saved: string[] = [];
    vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:pdf");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { calls } = renderBillingScreen(`/billing/invoices/${invoiceId}`, {
      routes: {
        [`GET ${invoicesApi}/${invoiceId}`]: () => envelope(testInvoice()),
        [`GET ${invoicesApi}/${invoiceId}/pdf`]: () =>
          new Response("%PDF-1.7 invoice", { headers: { "content-type": "application/pdf" } }),
      },
    });
    const document = await screen.findByRole("article", { name: "Invoice INV-2026-00004" });
    expect(within(document).getByRole("heading", { level: 1, name: "Invoice INV-2026-00004" })).toBeTruthy();
    expect(within(document).getByText("St. Mary's Regional Medical Center, Inc.")).toBeTruthy();
    expect(within(document).getByText("PO-77812")).toBeTruthy();
    expect(within(document).getByText("Net 30 days")).toBeTruthy();
    expect(within(document).getByText("2026-10-02 – 2026-10-05")).toBeTruthy();
    expect(within(document).getByText("95700 ×1, 95720 ×3")).toBeTruthy();
    expect(within(document).getByText("Tax (8.875 %)")).toBeTruthy();
    expect(within(document).getByText("$3,429.56")).toBeTruthy();
    // Patient names are not on this client's invoices: no column for them.
    expect(within(document).queryByRole("columnheader", { name: "Patient" })).toBeNull();

    await user.click(screen.getByRole("button", { name: "Download PDF" }));
    await waitFor(() => expect(saved).toEqual(["INV-2026-00004.pdf"]));
    const fetched = calls.find((call) => call.path === `${invoicesApi}/${invoiceId}/pdf`);
    expect(fetched?.authorization).toMatch(/^Bearer /);
  });

  it("says so when there is no invoice at the address", async () => {
    renderBillingScreen("/billing/invoices/not-an-id", { routes: {} });
    expect(await screen.findByRole("heading", { name: "Invoice not found" })).toBeTruthy();
  });

  it("asks for a reason before issuing a credit note for the month's differences, then links to it", async () => {
    const user = userEvent.setup();
    const issued = testIssuedStatement();
    const statementApi = `${billingApi}/${clientId}/2026-11`;
    const bodies: string[] = [];
    const ifMatches: (string | null)[] = [];
    renderBillingScreen(`/billing/continuous-monitoring/${clientId}/2026-11`, {
      routes: {
        [`GET ${statementApi}`]: () =>
          envelope(
            testStatement({
              cases: [],
              totals: { hours: "0.00", amount: "0.00", caseCount: 0 },
              invoiced: true,
              issued,
              changesSinceIssue: {
                rateChangedTo: null,
                lines: [
                  {
                    caseId: issued.lines[0]?.caseId as string,
                    caseNumber: "CM-2026-000123",
                    patientName: "Doe, Jane",
                    change: "removed",
                    issuedHours: "26.25",
                    currentHours: null,
                    issuedAmount: "3150.00",
                    currentAmount: null,
                    hours: "-26.25",
                    amount: "-3150.00",
                  },
                ],
                hours: "-26.25",
                amount: "-3150.00",
              },
              issueRefusal: "Statement No. 4 has been issued for this month.",
            }),
          ),
        [`POST ${statementApi}/adjustment`]: async (request) => {
          bodies.push(await request.text());
          ifMatches.push(request.headers.get("if-match"));
          return envelope(
            testInvoice({
              id: "5d4c3b2a-1111-4a2b-9c3d-00000000000b",
              kind: "credit-note",
              number: "CN-2026-00001",
              total: "3150.00",
              corrects: { id: invoiceId, number: "INV-2026-00004" },
              reason: "Case billed by mistake",
            }),
            { status: 201 },
          );
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Issue credit note" }));
    const dialog = await screen.findByRole("dialog", { name: "Issue a credit note for November 2026?" });
    expect(within(dialog).getByText(/correcting invoice INV-2026-00004/)).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Issue credit note" }));
    expect(await within(dialog).findByText("Give the reason: it is printed on the document.")).toBeTruthy();
    expect(bodies).toEqual([]);
    await user.type(within(dialog).getByRole("textbox", { name: "Reason" }), "Case billed by mistake");
    await user.click(within(dialog).getByRole("button", { name: "Issue credit note" }));
    const done = await screen.findByRole("status");
    expect(within(done).getByRole("link", { name: "CN-2026-00001" })).toBeTruthy();
    expect(JSON.parse(bodies[0] as string)).toEqual({ reason: "Case billed by mistake" });
    expect(ifMatches).toEqual(['"fingerprint-of-the-live-figures"']);
  });
});
