import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ClientMonthRate } from "@vigil/contract";
import { describe, expect, it, vi } from "vitest";
import { envelope } from "../../../test/fake-server";
import {
  billingApi,
  clientId,
  renderBillingScreen,
  testOverview,
  testOwnRate,
  testRow,
} from "../testing/render-billing-screen";

const clientPath = `/billing/continuous-monitoring/${clientId}`;
const october = testRow();
const november = testRow({
  month: "2026-11",
  hours: "40.00",
  rate: { hourlyRate: "120.00", fromMonth: "2026-10", inherited: true },
  ownRate: null,
  amount: "4800.00",
});
const invoicedSeptember = testRow({
  month: "2026-09",
  rate: { hourlyRate: "110.00", fromMonth: "2026-09", inherited: false },
  ownRate: testOwnRate({ month: "2026-09", hourlyRate: "110.00", version: 1 }),
  invoiced: true,
});

type Posted = { path: string; body: Record<string, unknown> };

function routesWith(post: (body: Record<string, unknown>, posted: Posted[]) => Response) {
  const posted: Posted[] = [];
  return {
    posted,
    routes: {
      [`GET ${billingApi}`]: () => envelope(testOverview([november, october, invoicedSeptember])),
      [`GET /api/continuous-monitoring/clients/${clientId}`]: () =>
        Response.json(
          { enoch: "release-1", error: { status: 404, code: "not_found", message: "Not found" } },
          {
            status: 404,
          },
        ),
      ...Object.fromEntries(
        ["2026-09", "2026-10", "2026-11"].map((month) => [
          `POST ${billingApi}/${clientId}/${month}/rate`,
          async ({ url, text }: { url: URL; text: () => Promise<string> }) => {
            const body = JSON.parse(await text()) as Record<string, unknown>;
            posted.push({ path: url.pathname, body });
            return post(body, posted);
          },
        ]),
      ),
    },
  };
}

function savedRate(body: Record<string, unknown>, overrides: Partial<ClientMonthRate> = {}): Response {
  return envelope(testOwnRate({ hourlyRate: Number(body.hourlyRate).toFixed(2), version: 9, ...overrides }));
}

function errorResponse(status: number, code: string, message: string, details: unknown): Response {
  return Response.json({ enoch: "release-1", error: { status, code, message, details } }, { status });
}

async function openDialog(user: ReturnType<typeof userEvent.setup>, month: string) {
  await user.click(await screen.findByRole("button", { name: `Set rate for ${month}` }));
  return screen.findByRole("dialog", { name: `Set the rate for ${month}` });
}

describe("client billing: setting a month's rate", () => {
  it("exports the client's months as CSV, named after the client and the period the server answered", async () => {
    const user = userEvent.setup();
    const { routes } = routesWith(() => envelope(null));
    const saved: string[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation(() => "blob:export");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { calls } = renderBillingScreen(clientPath, { routes });
    await screen.findByRole("button", { name: "Set rate for November 2026" });

    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(saved).toEqual([`billing-${clientId}-2025-12-to-2026-11.csv`]));
    const exported = calls.filter((call) => call.path.includes("limit=200"));
    expect(exported.map((call) => new URL(call.path, "http://localhost").searchParams.get("clientId"))).toEqual([
      clientId,
    ]);
  });

  it("lists the client's months and validates the rate as it is typed, then sends the version seen", async () => {
    const user = userEvent.setup();
    const { posted, routes } = routesWith((body) => savedRate(body));
    const { calls } = renderBillingScreen(`${clientPath}?from=2026-01`, { routes });
    const table = await screen.findByRole("table", { name: /billing by month$/ });
    expect((await within(table).findByRole("link", { name: "November 2026 statement" })).getAttribute("href")).toBe(
      `${clientPath}/2026-11`,
    );
    expect(screen.getByRole("heading", { name: "St. Mary's Regional Medical Center: billing" })).toBeTruthy();
    const listCall = calls.find((call) => call.path.startsWith(`${billingApi}?`));
    expect(new URL(listCall?.path ?? "", "http://localhost").searchParams.get("clientId")).toBe(clientId);
    expect(new URL(listCall?.path ?? "", "http://localhost").searchParams.get("from")).toBe("2026-01");

    const dialog = await openDialog(user, "October 2026");
    expect(
      within(dialog).getByText(/Current rate \(this month's own\): \$120\.00 per hour, set by Bailey Biller/),
    ).toBeTruthy();
    const rate = within(dialog).getByLabelText(/Hourly rate/) as HTMLInputElement;
    expect(rate.value).toBe("120.00");

    await user.clear(rate);
    await user.type(rate, "12.345");
    expect(
      within(dialog).getByText("Hourly rate must be an amount such as 125 or 125.50 (at most 2 decimals)"),
    ).toBeTruthy();
    expect(rate.getAttribute("aria-invalid")).toBe("true");
    await user.click(within(dialog).getByRole("button", { name: "Save rate" }));
    expect(posted).toHaveLength(0);

    await user.type(rate, "{Backspace}");
    expect(within(dialog).queryByText(/must be an amount/)).toBeNull();
    await user.click(within(dialog).getByRole("button", { name: "Save rate" }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      path: `${billingApi}/${clientId}/2026-10/rate`,
      body: { hourlyRate: "12.34", baseVersion: 2, reason: null },
    });
    expect(await screen.findByText("The rate for October 2026 is now $12.34 per hour.")).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("sends no base version for a month that only inherits a rate", async () => {
    const user = userEvent.setup();
    const { posted, routes } = routesWith((body) => savedRate(body, { month: "2026-11" }));
    renderBillingScreen(clientPath, { routes });
    const dialog = await openDialog(user, "November 2026");
    expect(within(dialog).getByText(/inherits \$120\.00 per hour from October 2026/)).toBeTruthy();
    await user.paste("125.5");
    await user.click(within(dialog).getByRole("button", { name: "Save rate" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]?.body).toEqual({ hourlyRate: "125.5", baseVersion: null, reason: null });
  });

  it("requires a reason for an invoiced month before sending", async () => {
    const user = userEvent.setup();
    const { posted, routes } = routesWith((body) => savedRate(body, { month: "2026-09" }));
    renderBillingScreen(clientPath, { routes });
    const dialog = await openDialog(user, "September 2026");
    expect(within(dialog).getByText(/This month is invoiced: its statement has been issued/)).toBeTruthy();
    const rate = within(dialog).getByLabelText(/Hourly rate/);
    await user.clear(rate);
    await user.paste("115");
    await user.click(within(dialog).getByRole("button", { name: "Save rate" }));
    expect(await within(dialog).findByText("Reason is required: this month is invoiced")).toBeTruthy();
    expect(posted).toHaveLength(0);

    await user.click(within(dialog).getByLabelText(/Reason/));
    await user.paste("Contract amendment signed on 2026-09-28");
    await user.click(within(dialog).getByRole("button", { name: "Save rate" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]?.body).toEqual({
      hourlyRate: "115",
      baseVersion: 1,
      reason: "Contract amendment signed on 2026-09-28",
    });
  });

  it("shows the server's field messages under their fields and then asks for the reason", async () => {
    const user = userEvent.setup();
    const { posted, routes } = routesWith((body, all) =>
      all.length === 1
        ? errorResponse(400, "validation", "Validation failed", {
            issues: [{ path: "body.reason", message: "is required once a case billed in this month is closed" }],
          })
        : savedRate(body),
    );
    renderBillingScreen(clientPath, { routes });
    const dialog = await openDialog(user, "October 2026");
    await user.click(within(dialog).getByRole("button", { name: "Save rate" }));
    expect(
      await within(dialog).findByText("Reason is required once a case billed in this month is closed"),
    ).toBeTruthy();
    expect(within(dialog).getByText(/This month is invoiced/)).toBeTruthy();

    await user.click(within(dialog).getByLabelText(/Reason/));
    await user.paste("Corrected typo");
    await user.click(within(dialog).getByRole("button", { name: "Save rate" }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]?.body).toEqual({ hourlyRate: "120.00", baseVersion: 2, reason: "Corrected typo" });
  });

  it("on 409 shows the rate someone else set and saves on top of it when asked", async () => {
    const user = userEvent.setup();
    const theirs = testOwnRate({
      hourlyRate: "135.00",
      version: 3,
      setBy: { sub: null, username: "robin", name: "Robin Rates" },
      setAt: "2026-11-02T15:00:00.000Z",
    });
    const { posted, routes } = routesWith((body, all) =>
      all.length === 1
        ? errorResponse(409, "conflict", "The rate was changed meanwhile", { current: theirs })
        : savedRate(body, { version: 4 }),
    );
    renderBillingScreen(clientPath, { routes });
    const dialog = await openDialog(user, "October 2026");
    const rate = within(dialog).getByLabelText(/Hourly rate/);
    await user.clear(rate);
    await user.paste("140");
    await user.click(within(dialog).getByRole("button", { name: "Save rate" }));

    const conflict = await within(dialog).findByRole("alert");
    expect(within(conflict).getByText("Someone changed this month's rate first")).toBeTruthy();
    expect(conflict.textContent).toMatch(
      /It is now \$135\.00 per hour, set by Robin Rates on Nov 2, 2026, 10:00 EST \(America\/New_York\)/,
    );
    expect((rate as HTMLInputElement).value).toBe("140");
    expect(posted[0]?.body).toMatchObject({ baseVersion: 2 });

    await user.click(within(conflict).getByRole("button", { name: "Save my rate on top of theirs" }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]?.body).toEqual({ hourlyRate: "140", baseVersion: 3, reason: null });
    expect(await screen.findByText("The rate for October 2026 is now $140.00 per hour.")).toBeTruthy();
  });
});
