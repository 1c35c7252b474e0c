import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Invoice } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { noAllocations, renderBillingScreen, testInvoice } from "../testing/render-billing-screen";

const invoiceId = "5d4c3b2a-1111-4a2b-9c3d-00000000001b";
const invoiceWith = (overrides: Partial<Invoice>) => testInvoice({ id: invoiceId, ...overrides });
const invoicePath = `/api/billing/invoices/${invoiceId}`;

describe("writing off an invoice", () => {
  it("asks first, requires the day and a reason, and sends them", async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    renderBillingScreen(`/billing/invoices/${invoiceId}`, {
      routes: {
        [`GET ${invoicePath}`]: () => envelope(invoiceWith({})),
        [`GET ${invoicePath}/sendings`]: () => envelope({ items: [] }),
        [`GET ${invoicePath}/allocations`]: () => envelope(noAllocations),
        [`POST ${invoicePath}/write-off`]: async (request) => {
          bodies.push(JSON.parse(await request.text()));
          return envelope({ invoiceId, amount: "250.00" });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Write off…" }));
    const dialog = screen.getByRole("dialog", { name: "Write off INV-2026-00019?" });
    expect(within(dialog).getByText(/Forgives the \$250\.00 still open/)).toBeTruthy();

    await user.click(within(dialog).getByRole("button", { name: "Write off" }));
    expect(await within(dialog).findByText("Give the day and the reason for the write-off.")).toBeTruthy();
    expect(bodies).toEqual([]);

    await user.type(within(dialog).getByLabelText(/Written off on/), "2026-11-20");
    await user.type(within(dialog).getByRole("textbox", { name: /Reason/ }), "Hospital closed; uncollectable");
    await user.click(within(dialog).getByRole("button", { name: "Write off" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(bodies).toEqual([{ writtenOffOn: "2026-11-20", reason: "Hospital closed; uncollectable" }]);
  });

  it("offers nothing on a paid, written-off or credit-note document", async () => {
    for (const overrides of [
      { status: "paid", open: "0.00" },
      { status: "written-off", open: "0.00" },
      { kind: "credit-note", status: "issued", open: "0.00" },
    ] as Partial<Invoice>[]) {
      const { unmount } = renderBillingScreen(`/billing/invoices/${invoiceId}`, {
        routes: {
          [`GET ${invoicePath}`]: () => envelope(invoiceWith(overrides)),
          [`GET ${invoicePath}/sendings`]: () => envelope({ items: [] }),
          [`GET ${invoicePath}/allocations`]: () => envelope(noAllocations),
        },
      });
      await screen.findByText("PDF SHA-256:", { exact: false });
      expect(screen.queryByRole("button", { name: "Write off…" })).toBeNull();
      unmount();
    }
  });
});
