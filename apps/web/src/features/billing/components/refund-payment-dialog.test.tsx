import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PaymentSummary } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { renderPageScreens } from "../../../test/render-page-screens";
import { BillingPaymentsPage } from "./payments-page";

const withCredit: PaymentSummary = {
  id: "7a000000-1111-4a2b-9c3d-000000000011",
  client: { id: "5d4c3b2a-1111-4a2b-9c3d-000000000001", name: "St. Mary's Regional" },
  receivedOn: "2026-02-10",
  amount: "1000.00",
  currency: "USD",
  method: "check",
  reference: "CHK-1001",
  payer: null,
  allocated: "600.00",
  refunded: "0.00",
  unallocated: "400.00",
  reversal: null,
  recordedAt: "2026-02-10T12:00:00.000Z",
  recordedBy: { sub: null, username: "bailey", name: null },
};
const spent: PaymentSummary = {
  ...withCredit,
  id: "7a000000-1111-4a2b-9c3d-000000000012",
  allocated: "1000.00",
  unallocated: "0.00",
  reference: "CHK-1002",
};

describe("refunding a client's credit", () => {
  it("offers a refund only where credit is left, asks first with day and reason, and sends what is left", async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    renderPageScreens(
      "/billing/payments",
      { "billing-payments": BillingPaymentsPage },
      {
        groups: ["billing"],
        routes: {
          "GET /api/billing/payments": () => envelope({ items: [withCredit, spent], total: 2, limit: 25, offset: 0 }),
          [`POST /api/billing/payments/${withCredit.id}/refunds`]: async (request) => {
            bodies.push(JSON.parse(await request.text()));
            return envelope(
              { ...withCredit, refunded: "400.00", unallocated: "0.00", note: null, allocations: [], refunds: [] },
              { status: 201 },
            );
          },
        },
      },
    );
    const table = await screen.findByRole("table", { name: "Payments" });
    await within(table).findByText("CHK-1002");
    const refunds = within(table).getAllByRole("button", { name: "Refund" });
    // Only the payment with credit left offers it.
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.closest("tr")?.textContent).toContain("CHK-1001");
    await user.click(refunds[0] as HTMLElement);

    const dialog = screen.getByRole("dialog", { name: "Refund this credit?" });
    expect(within(dialog).getByText(/Pays \$400\.00 back to St\. Mary's Regional/)).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Refund" }));
    expect(await within(dialog).findByText("Give the day and the reason for the refund.")).toBeTruthy();
    expect(bodies).toEqual([]);

    await user.type(within(dialog).getByLabelText(/Refunded on/), "2026-03-01");
    await user.type(within(dialog).getByRole("textbox", { name: /Reason/ }), "Client overpaid; asked for it back");
    await user.click(within(dialog).getByRole("button", { name: "Refund" }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      refundedOn: "2026-03-01",
      amount: "400.00",
      method: "check",
      reason: "Client overpaid; asked for it back",
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});
