import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ClientBillingProfile, Contact } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { billingApi, clientId, renderBillingScreen, testOverview, testRow } from "../testing/render-billing-screen";

const clientPath = `/billing/continuous-monitoring/${clientId}`;
const profilePath = `/api/billing/clients/${clientId}/profile`;
const billingContactId = "5c3e8f1a-1111-4a2b-9c3d-000000000002";

function contact(id: string, name: string, email: string): Contact {
  return {
    _id: id,
    clientId,
    name,
    role: "Accounts payable",
    email,
    phone: null,
    isPrimary: false,
    notifyOnCritical: false,
    notes: null,
    version: 1,
    createdAt: "2026-11-01T10:00:00.000Z",
    updatedAt: "2026-11-01T10:00:00.000Z",
  };
}

function profile(overrides: Partial<ClientBillingProfile> = {}): ClientBillingProfile {
  return {
    clientId,
    legalName: null,
    poNumber: null,
    paymentTermsDays: 30,
    taxRatePercent: null,
    showPatientNames: false,
    billingContactIds: [],
    sendOnIssue: false,
    invoiceDelivery: "attachment",
    remindersEnabled: true,
    reminderDays: [7, 30],
    version: null,
    ...overrides,
  };
}

function routes(put: (body: Record<string, unknown>) => Response) {
  const sent: Record<string, unknown>[] = [];
  return {
    sent,
    routes: {
      [`GET ${billingApi}`]: () => envelope(testOverview([testRow()])),
      [`GET ${profilePath}`]: () => envelope(profile()),
      [`GET /api/continuous-monitoring/clients/${clientId}/contacts`]: () =>
        envelope([contact(billingContactId, "Avery Payable", "ap@hospital.example")]),
      [`PUT ${profilePath}`]: async ({ text }: { text: () => Promise<string> }) => {
        const body = JSON.parse(await text()) as Record<string, unknown>;
        sent.push(body);
        return put(body);
      },
    },
  };
}

async function openProfile() {
  await userEvent.click(await screen.findByRole("button", { name: "Billing profile" }));
  return screen.findByRole("form", { name: "Billing profile" });
}

describe("the client's billing profile form", () => {
  it("saves terms, PO number, billing contacts, sending on issue, link delivery and reminder days with the version seen", async () => {
    const server = routes((body) => envelope(profile({ ...(body as Partial<ClientBillingProfile>), version: 1 })));
    renderBillingScreen(clientPath, { routes: server.routes });
    const form = await openProfile();
    const terms = within(form).getByRole("textbox", { name: "Payment terms (days)" });
    await userEvent.clear(terms);
    await userEvent.type(terms, "45");
    await userEvent.type(within(form).getByRole("textbox", { name: "PO number" }), "PO-7781");
    await userEvent.click(within(form).getByRole("checkbox", { name: /Avery Payable/ }));
    await userEvent.click(within(form).getByRole("checkbox", { name: /when it is issued/ }));
    const delivery = within(form).getByRole("combobox", { name: "Invoice delivery" });
    expect((delivery as HTMLSelectElement).value).toBe("attachment");
    await userEvent.selectOptions(delivery, "A one-time link to the PDF");
    const days = within(form).getByRole("textbox", { name: "Reminder days" });
    await userEvent.clear(days);
    await userEvent.type(days, "30, 10");
    await userEvent.click(within(form).getByRole("button", { name: "Save billing profile" }));
    expect(await screen.findByText(/The billing profile is saved/)).toBeTruthy();
    expect(server.sent).toEqual([
      {
        legalName: null,
        poNumber: "PO-7781",
        paymentTermsDays: 45,
        taxRatePercent: null,
        showPatientNames: false,
        billingContactIds: [billingContactId],
        sendOnIssue: true,
        invoiceDelivery: "link",
        remindersEnabled: true,
        reminderDays: [30, 10],
        baseVersion: null,
      },
    ]);
  });

  it("says what is wrong under each field and sends nothing", async () => {
    const server = routes(() => envelope(profile()));
    renderBillingScreen(clientPath, { routes: server.routes });
    const form = await openProfile();
    const terms = within(form).getByRole("textbox", { name: "Payment terms (days)" });
    await userEvent.clear(terms);
    await userEvent.type(terms, "400");
    const days = within(form).getByRole("textbox", { name: "Reminder days" });
    await userEvent.clear(days);
    await userEvent.type(days, "7, 7");
    await userEvent.click(within(form).getByRole("checkbox", { name: /when it is issued/ }));
    await userEvent.click(within(form).getByRole("button", { name: "Save billing profile" }));
    expect(await within(form).findByText(/must be 365 days or fewer/)).toBeTruthy();
    expect(terms.getAttribute("aria-invalid")).toBe("true");
    expect(within(form).getByText(/must name each day once/)).toBeTruthy();
    expect(within(form).getByText(/at least one contact when invoices are sent on issue/)).toBeTruthy();
    expect(server.sent).toEqual([]);
  });

  it("keeps the edits when someone saved first, and saves over theirs only when asked", async () => {
    const theirs = profile({ poNumber: "PO-THEIRS", version: 3 });
    const server = routes((body) =>
      body.baseVersion === 3
        ? envelope(profile({ ...(body as Partial<ClientBillingProfile>), version: 4 }))
        : Response.json(
            {
              enoch: "release-1",
              error: { status: 409, code: "conflict", message: "changed", details: { current: theirs } },
            },
            { status: 409 },
          ),
    );
    renderBillingScreen(clientPath, { routes: server.routes });
    const form = await openProfile();
    await userEvent.type(within(form).getByRole("textbox", { name: "PO number" }), "PO-MINE");
    await userEvent.click(within(form).getByRole("button", { name: "Save billing profile" }));
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Someone else saved this billing profile first")).toBeTruthy();
    expect((within(form).getByRole("textbox", { name: "PO number" }) as HTMLInputElement).value).toBe("PO-MINE");
    await userEvent.click(within(alert).getByRole("button", { name: "Save my edits over theirs" }));
    expect(await screen.findByText(/The billing profile is saved/)).toBeTruthy();
    expect(server.sent.map((body) => [body.poNumber, body.baseVersion])).toEqual([
      ["PO-MINE", null],
      ["PO-MINE", 3],
    ]);
  });
});
