import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { BillingExport, BillingExportAccounts } from "@vigil/contract";
import { describe, expect, it, vi } from "vitest";
import { envelope } from "../../../test/fake-server";
import { renderPageScreens } from "../../../test/render-page-screens";
import { BillingExportsPage } from "./billing-exports-page";

const accounts: BillingExportAccounts = {
  serviceItem: "EEG monitoring",
  incomeAccount: "Monitoring Income",
  creditNotesAccount: "Monitoring Income",
  receivablesAccount: "Accounts Receivable",
  undepositedFundsAccount: "Undeposited Funds",
  taxAccount: "Sales Tax Payable",
  taxType: "Tax Exempt",
  version: null,
};

function entry(overrides: Partial<BillingExport>): BillingExport {
  return {
    id: "8a000000-1111-4a2b-9c3d-000000000001",
    from: "2026-06-01",
    to: "2026-06-30",
    format: "iif",
    documents: [],
    changes: null,
    createdAt: "2026-07-01T09:00:00.000Z",
    createdBy: "bailey",
    ...overrides,
  };
}

describe("exports for the accountant", () => {
  it("exports a period, downloads the file, says what changed, and saves the account names", async () => {
    const saved: string[] = [];
    vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:export");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const history = [entry({})];
    const bodies: Record<string, unknown>[] = [];
    renderPageScreens(
      "/billing/exports",
      { "billing-exports": BillingExportsPage },
      {
        groups: ["billing"],
        routes: {
          "GET /api/billing/export-accounts": () => envelope(accounts),
          "GET /api/billing/exports": () => envelope({ items: history }),
          "POST /api/billing/exports": async ({ text }) => {
            const body = JSON.parse(await text()) as Record<string, unknown>;
            bodies.push(body);
            const made = entry({
              id: "8a000000-1111-4a2b-9c3d-000000000002",
              format: "xero-csv",
              changes: { previousExportId: history[0]?.id ?? "", added: ["INV-2026-00007"], changed: [], removed: [] },
            });
            history.unshift(made);
            return envelope({
              export: made,
              fileName: "vigil-xero-csv.csv",
              contentType: "text/csv",
              content: "a,b\r\n",
            });
          },
          "PUT /api/billing/export-accounts": async ({ text }) => {
            const body = JSON.parse(await text()) as Record<string, unknown>;
            bodies.push(body);
            return envelope({ ...accounts, incomeAccount: body.incomeAccount, version: 1 });
          },
        },
      },
    );
    const table = await screen.findByRole("table", { name: "Exports so far" });
    expect(within(table).getByText("First export of this period")).toBeTruthy();

    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    expect(await screen.findByText("Choose the first day of the period.")).toBeTruthy();
    await userEvent.type(screen.getByLabelText("From (issue date)"), "2026-06-01");
    await userEvent.type(screen.getByLabelText("To (issue date)"), "2026-06-30");
    await userEvent.click(screen.getByRole("combobox", { name: "Format" }));
    await userEvent.click(await screen.findByRole("option", { name: "Xero (CSV)" }));
    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    await waitFor(() => expect(saved).toEqual(["vigil-xero-csv.csv"]));
    expect(bodies[0]).toEqual({ from: "2026-06-01", to: "2026-06-30", format: "xero-csv" });
    expect(await screen.findByText("New: INV-2026-00007")).toBeTruthy();

    const form = screen.getByRole("form", { name: "Account names" });
    const income = within(form).getByRole("textbox", { name: "Monitoring income account" });
    await userEvent.clear(income);
    await userEvent.click(within(form).getByRole("button", { name: "Save account names" }));
    expect(await within(form).findByText(/is required/)).toBeTruthy();
    await userEvent.type(income, "4000 EEG");
    await userEvent.click(within(form).getByRole("button", { name: "Save account names" }));
    expect(await screen.findByText(/The account names are saved/)).toBeTruthy();
    expect(bodies[1]).toMatchObject({ incomeAccount: "4000 EEG", baseVersion: null });
  });
});
