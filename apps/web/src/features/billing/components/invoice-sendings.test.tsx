import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Invoice, InvoiceSending } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope, errorEnvelope } from "../../../test/fake-server";
import { clientId, renderBillingScreen } from "../testing/render-billing-screen";

const invoiceId = "5d4c3b2a-1111-4a2b-9c3d-00000000000b";
const invoicePath = `/api/billing/invoices/${invoiceId}`;

// `open` is what the receivables work adds to an invoice; an older contract drops it.
const invoice = {
  id: invoiceId,
  kind: "invoice",
  number: "INV-2026-00009",
  client: { id: clientId, name: "St. Mary's Regional Medical Center" },
  month: "2026-10",
  issueDate: "2026-11-03",
  dueDate: "2026-12-03",
  currency: "USD",
  subtotal: "100.00",
  tax: "0.00",
  total: "100.00",
  status: "issued",
  open: "100.00",
  corrects: null,
  statementId: "5d4c3b2a-1111-4a2b-9c3d-000000000009",
  reason: null,
  paymentTermsDays: 30,
  billTo: { name: "St. Mary's", address: [], poNumber: null },
  hourlyRate: "100.00",
  taxRatePercent: null,
  lines: [],
  pdfSha256: "cd".repeat(32),
  issuedAt: "2026-11-03T14:00:00.000Z",
  issuedBy: { sub: null, username: "bailey", name: "Bailey Biller" },
  issuer: { name: "Vigil Neurodiagnostics", details: "" },
} as unknown as Invoice;

function sending(overrides: Partial<InvoiceSending>): InvoiceSending {
  return {
    id: "7a000000-1111-4a2b-9c3d-000000000001",
    invoiceId,
    purpose: "invoice",
    trigger: "on-issue",
    reminderDays: null,
    recipients: [{ contactId: "7b000000-1111-4a2b-9c3d-000000000001", name: "Avery Payable", email: "ap@h.example" }],
    status: "sent",
    lastError: null,
    attachmentSha256: "cd".repeat(32),
    delivery: "attachment",
    linkExpiresAt: null,
    linkOpenedAt: null,
    requestedAt: "2026-11-03T14:00:00.000Z",
    requestedBy: { username: "bailey", name: "Bailey Biller" },
    finishedAt: "2026-11-03T14:00:05.000Z",
    ...overrides,
  };
}

describe("an invoice's e-mails", () => {
  it("lists each e-mail with who, to whom and how it went, and sends it again when asked", async () => {
    const sendings = [
      sending({
        id: "7a000000-1111-4a2b-9c3d-000000000002",
        purpose: "reminder",
        trigger: "reminder",
        reminderDays: 7,
        status: "failed",
        lastError: "550 Relay access denied",
        requestedBy: { username: "system", name: "Overdue reminders" },
      }),
      sending({}),
    ];
    let posted = 0;
    renderBillingScreen(`/billing/invoices/${invoiceId}`, {
      routes: {
        [`GET ${invoicePath}`]: () => envelope(invoice),
        [`GET ${invoicePath}/sendings`]: () => envelope({ items: sendings }),
        [`POST ${invoicePath}/sendings`]: () => {
          posted += 1;
          const queued = sending({
            id: "7a000000-1111-4a2b-9c3d-000000000003",
            trigger: "manual",
            status: "pending",
            finishedAt: null,
            attachmentSha256: null,
          });
          sendings.unshift(queued);
          return envelope(queued, { status: 201 });
        },
      },
    });
    const table = await screen.findByRole("table", { name: "E-mails of this invoice" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining("Reminder, 7 days overdue"),
      expect.stringContaining("Sent on issue"),
    ]);
    expect(rows[0]?.textContent).toContain("Failed (550 Relay access denied)");
    expect(rows[1]?.textContent).toContain("Avery Payable <ap@h.example>");
    expect(rows[1]?.textContent).toContain("PDF attached");
    await userEvent.click(screen.getByRole("button", { name: "Send again to billing contacts" }));
    await waitFor(() =>
      expect(within(screen.getByRole("table", { name: "E-mails of this invoice" })).getAllByRole("row")).toHaveLength(
        4,
      ),
    );
    expect(posted).toBe(1);
    expect(screen.getByText(/On its way/)).toBeTruthy();
  });

  it("says why nothing was sent when the client has no billing contact", async () => {
    renderBillingScreen(`/billing/invoices/${invoiceId}`, {
      routes: {
        [`GET ${invoicePath}`]: () => envelope(invoice),
        [`GET ${invoicePath}/sendings`]: () => envelope({ items: [] }),
        [`POST ${invoicePath}/sendings`]: () =>
          errorEnvelope(409, "conflict", "The client has no billing contact with an e-mail address."),
      },
    });
    expect(await screen.findByText("Not e-mailed yet.")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Send to billing contacts" }));
    expect(await screen.findByText(/Not sent: The client has no billing contact/)).toBeTruthy();
  });
});
