import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { envelope, errorEnvelope } from "../../../test/fake-server";
import { clientId, noAllocations, renderBillingScreen, testInvoice } from "../testing/render-billing-screen";

const invoice = testInvoice({});
const invoicePath = `/api/billing/invoices/${invoice.id}`;
const applyPath = `/api/billing/clients/${clientId}/credit/apply`;

describe("applying a client's credit to an invoice", () => {
  it("asks first, applies as much as allowed when no amount is given, and says how much went", async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    renderBillingScreen(`/billing/invoices/${invoice.id}`, {
      routes: {
        [`GET ${invoicePath}`]: () => envelope(invoice),
        [`GET ${invoicePath}/sendings`]: () => envelope({ items: [] }),
        [`GET ${invoicePath}/allocations`]: () => envelope(noAllocations),
        [`POST ${applyPath}`]: async (request) => {
          bodies.push(JSON.parse(await request.text()));
          return envelope({ allocated: "120.00", payments: ["7a000000-1111-4a2b-9c3d-000000000001"] });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Apply client's credit…" }));
    const dialog = screen.getByRole("dialog", { name: /Apply St\. Mary's Regional Medical Center's credit/ });
    expect(within(dialog).getByText(/\$250\.00 open on INV-2026-00019/)).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Apply credit" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(bodies).toEqual([{ invoiceId: invoice.id }]);
    expect(screen.getByRole("status").textContent).toBe("Applied $120.00 of the client's credit.");
  });

  it("keeps the dialog open with the server's reason when there is no credit", async () => {
    const user = userEvent.setup();
    renderBillingScreen(`/billing/invoices/${invoice.id}`, {
      routes: {
        [`GET ${invoicePath}`]: () => envelope(invoice),
        [`GET ${invoicePath}/sendings`]: () => envelope({ items: [] }),
        [`GET ${invoicePath}/allocations`]: () => envelope(noAllocations),
        [`POST ${applyPath}`]: () =>
          errorEnvelope(409, "conflict", "There is no credit to apply, or nothing is open on the invoice."),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Apply client's credit…" }));
    const dialog = screen.getByRole("dialog");
    await user.type(within(dialog).getByLabelText("Amount to apply (optional)"), "50");
    await user.click(within(dialog).getByRole("button", { name: "Apply credit" }));
    expect(await within(dialog).findByText(/There is no credit to apply/)).toBeTruthy();
  });
});
