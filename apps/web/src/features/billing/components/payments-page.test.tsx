import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PaymentSummary } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { renderPageScreens } from "../../../test/render-page-screens";
import { BillingPaymentsPage } from "./payments-page";

const clientId = "5d4c3b2a-1111-4a2b-9c3d-000000000001";
const author = { sub: null, username: "bailey", name: null };

function payment(overrides: Partial<PaymentSummary> = {}): PaymentSummary {
  return {
    id: "7a000000-1111-4a2b-9c3d-000000000001",
    client: { id: clientId, name: "St. Mary's Regional" },
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
    recordedBy: author,
    ...overrides,
  };
}

describe("payments", () => {
  it("records a payment after asking, and reverses one with a reason", async () => {
    const bodies: { path: string; body: Record<string, unknown> }[] = [];
    const list = [payment()];
    renderPageScreens(
      "/billing/payments",
      { "billing-payments": BillingPaymentsPage },
      {
        groups: ["billing"],
        routes: {
          "GET /api/billing/payments": () => envelope({ items: list, total: list.length, limit: 25, offset: 0 }),
          "GET /api/continuous-monitoring/clients/ids": () =>
            envelope([{ id: clientId, name: "St. Mary's Regional", code: "SMR" }]),
          "GET /api/billing/invoices": () => envelope({ items: [], total: 0, limit: 100, offset: 0, totals: [] }),
          "POST /api/billing/payments": async ({ text }) => {
            const body = JSON.parse(await text()) as Record<string, unknown>;
            bodies.push({ path: "record", body });
            const made = payment({
              id: "7a000000-1111-4a2b-9c3d-000000000002",
              reference: "CHK-2002",
              amount: "250.00",
              allocated: "0.00",
              unallocated: "250.00",
            });
            list.unshift(made);
            return envelope({ ...made, note: null, allocations: [], refunds: [] }, { status: 201 });
          },
          "POST /api/billing/payments/7a000000-1111-4a2b-9c3d-000000000001/reversal": async ({ text }) => {
            const body = JSON.parse(await text()) as Record<string, unknown>;
            bodies.push({ path: "reverse", body });
            return envelope({ ...payment(), note: null, allocations: [], refunds: [] });
          },
        },
      },
    );
    const table = await screen.findByRole("table", { name: "Payments" });
    expect(await within(table).findByText("CHK-1001")).toBeTruthy();

    await userEvent.click(screen.getByRole("button", { name: "Record payment" }));
    const dialog = await screen.findByRole("dialog", { name: "Record a payment" });
    await within(dialog).findByRole("option", { name: /St\. Mary's Regional/ });
    await userEvent.selectOptions(within(dialog).getByRole("combobox", { name: "Client" }), clientId);
    await userEvent.type(within(dialog).getByLabelText(/Received on/), "2026-02-12");
    await userEvent.type(within(dialog).getByLabelText(/^Amount/), "250");
    await userEvent.click(within(dialog).getByRole("button", { name: "Record payment" }));
    await waitFor(() => expect(bodies, dialog.textContent ?? "").toHaveLength(1));
    expect(bodies[0]).toEqual({
      path: "record",
      body: {
        clientId,
        receivedOn: "2026-02-12",
        amount: "250",
        method: "check",
        reference: null,
        payer: null,
        allocations: [],
      },
    });

    const row = within(table).getByText("CHK-1001", { selector: "td" }).closest("tr") as HTMLElement;
    await userEvent.click(within(row).getByRole("button", { name: "Reverse" }));
    const reverse = await screen.findByRole("dialog", { name: "Reverse this payment?" });
    await userEvent.type(within(reverse).getByLabelText(/Reversed on/), "2026-02-20");
    await userEvent.type(within(reverse).getByLabelText(/Reason/), "Returned: insufficient funds");
    await userEvent.click(within(reverse).getByRole("button", { name: "Reverse payment" }));
    await screen.findByRole("table", { name: "Payments" });
    expect(bodies.at(-1)).toEqual({
      path: "reverse",
      body: { reason: "Returned: insufficient funds", reversedOn: "2026-02-20" },
    });
  });

  it("does not offer Reverse on a refunded payment, and says why", async () => {
    const refunded = payment({ refunded: "400.00", unallocated: "0.00", reference: "CHK-3003" });
    const other = payment({ id: "7a000000-1111-4a2b-9c3d-000000000009", reference: "CHK-4004" });
    renderPageScreens(
      "/billing/payments",
      { "billing-payments": BillingPaymentsPage },
      {
        groups: ["billing"],
        routes: {
          "GET /api/billing/payments": () => envelope({ items: [refunded, other], total: 2, limit: 25, offset: 0 }),
        },
      },
    );
    const table = await screen.findByRole("table", { name: "Payments" });
    const rowOf = async (reference: string) =>
      (await within(table).findByText(reference, { selector: "td" })).closest("tr") as HTMLElement;
    const refundedRow = await rowOf("CHK-3003");
    const button = within(refundedRow).getByRole("button", { name: "Reverse" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute("aria-describedby")).toBeTruthy();
    const why = document.getElementById(button.getAttribute("aria-describedby") as string);
    expect(why?.textContent).toBe("Part of the payment was refunded: it cannot be reversed as well.");
    const otherButton = within(await rowOf("CHK-4004")).getByRole("button", { name: "Reverse" }) as HTMLButtonElement;
    expect(otherButton.disabled).toBe(false);
  });
});
