import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Hl7MessageSummary } from "@vigil/contract";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { AccessProvider } from "../../../components/access/access-context";
import { theme } from "../../../config/theme";
import { configureAuth } from "../../../lib/auth";
import { createQueryClient } from "../../../lib/query-client";
import { envelope, type Handler, installFetch, storeSignedInTokens, testConfig } from "../../../test/fake-server";
import { browserTimeZone } from "../message-log-labels";
import { MessageLogPage } from "./message-log-page";

const clientId = "0b6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a10";
const caseId = "9f1e2d3c-3333-4a2b-9c3d-000000000001";

function testSummary(overrides: Partial<Hl7MessageSummary> = {}): Hl7MessageSummary {
  return {
    id: "6a1e2d3c-0000-4a2b-9c3d-000000000001",
    direction: "inbound",
    clientId,
    clientName: "Pacific Neurology Institute",
    messageType: "ORM^O01",
    controlId: "EPIC-0001",
    sendingApplication: "EPIC",
    sendingFacility: "PNI",
    patientMrn: "MRN-777",
    orderNumber: "PLACER-42",
    caseId,
    caseNumber: "CM-2026-000123",
    status: "processed",
    ackCode: "AA",
    error: null,
    attempts: 0,
    createdAt: "2026-11-22T14:14:05.000Z",
    processedAt: "2026-11-22T14:14:05.120Z",
    ...overrides,
  };
}

const page = (items: Hl7MessageSummary[], total = items.length, limit = 25, offset = 0) => ({
  items,
  total,
  limit,
  offset,
});

/** The log on its route for a coordinator, against a fake server at the fetch boundary. */
function renderLog(path: string, listRoute: Handler) {
  void configureAuth(testConfig);
  storeSignedInTokens("casey", ["coordinator"]);
  const network = installFetch({
    "GET /api/interfaces/hl7/messages": listRoute,
    "GET /api/continuous-monitoring/clients/ids": () =>
      envelope([{ id: clientId, name: "Pacific Neurology Institute", code: "PNI" }]),
  });
  const router = createMemoryRouter(
    [
      { path: "/interfaces/hl7/messages", element: <MessageLogPage /> },
      { path: "*", element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider theme={theme}>
        <AccessProvider groups={["coordinator"]}>
          <RouterProvider router={router} />
        </AccessProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  const listQueries = () =>
    network.calls
      .filter((call) => call.path.startsWith("/api/interfaces/hl7/messages"))
      .map((call) => Object.fromEntries(new URL(call.path, "http://localhost").searchParams));
  return { ...network, router, location, listQueries };
}

describe("the HL7 message log", () => {
  it("lists messages with their status in words, client, MRN, order and a link to the case and the message", async () => {
    renderLog("/interfaces/hl7/messages", () =>
      envelope(
        page([
          testSummary(),
          testSummary({
            id: "6a1e2d3c-0000-4a2b-9c3d-000000000002",
            direction: "outbound",
            messageType: "ORU^R01",
            controlId: "VIGIL-9",
            status: "failed",
            ackCode: "AE",
            error: "The hospital answered AE: unknown order.",
          }),
          testSummary({
            id: "6a1e2d3c-0000-4a2b-9c3d-000000000003",
            controlId: "EPIC-0002",
            clientId: null,
            clientName: null,
            caseId: null,
            caseNumber: null,
            status: "rejected",
            ackCode: "AR",
          }),
        ]),
      ),
    );
    const table = await screen.findByRole("table", { name: "HL7 messages" });
    const order = (await within(table).findByRole("link", { name: "ORM^O01 EPIC-0001" })).closest("tr") as HTMLElement;
    expect(within(order).getByText("Processed · AA")).toBeTruthy();
    expect(within(order).getByText("Pacific Neurology Institute")).toBeTruthy();
    expect(within(order).getByText("Order PLACER-42")).toBeTruthy();
    expect(within(order).getByRole("link", { name: "CM-2026-000123" }).getAttribute("href")).toBe(
      `/continuous-monitoring/cases/intake/${caseId}/overview`,
    );
    expect(
      within(order)
        .getByText(/^Nov 22, 2026/)
        .getAttribute("dateTime"),
    ).toBe("2026-11-22T14:14:05.000Z");
    const failed = within(table).getByRole("link", { name: "ORU^R01 VIGIL-9" }).closest("tr") as HTMLElement;
    expect(within(failed).getByText("Failed · AE")).toBeTruthy();
    expect(within(failed).getByText("The hospital answered AE: unknown order.")).toBeTruthy();
    expect(within(failed).getByText(/^Out \(to the hospital\)/)).toBeTruthy();
    const rejected = within(table).getByRole("link", { name: "ORM^O01 EPIC-0002" }).closest("tr") as HTMLElement;
    expect(within(rejected).getByText("Rejected (AR)")).toBeTruthy();
    expect(within(rejected).getByText("No client")).toBeTruthy();
    expect(screen.getByText(new RegExp(`browser's time zone, ${browserTimeZone()}`))).toBeTruthy();
  });

  it("sends the filters to the server, keeps them in the URL and starts again at page one", async () => {
    const user = userEvent.setup({ delay: null });
    const { location, listQueries } = renderLog("/interfaces/hl7/messages?page=2", () =>
      envelope(page([testSummary()], 80, 25, 50)),
    );
    await screen.findByRole("table", { name: "HL7 messages" });
    expect(listQueries()[0]).toEqual({ limit: "25", offset: "50" });

    await user.selectOptions(screen.getByLabelText("Direction"), "In (from the hospital)");
    await user.selectOptions(screen.getByLabelText("Status"), "Rejected (AR)");
    await user.selectOptions(screen.getByLabelText("Client"), "Pacific Neurology Institute (PNI)");
    await user.click(screen.getByLabelText("Message type"));
    await user.paste("ORM");
    await user.click(screen.getByLabelText("Control id, MRN or order number"));
    await user.paste("MRN-777");
    const expected = { direction: "inbound", status: "rejected", clientId, messageType: "ORM", search: "MRN-777" };
    await waitFor(() =>
      expect(Object.fromEntries(new URL(location(), "http://localhost").searchParams)).toEqual(expected),
    );
    await waitFor(() => expect(listQueries().at(-1)).toEqual({ ...expected, limit: "25", offset: "0" }));

    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() => expect(location()).toBe("/interfaces/hl7/messages"));
  });

  it("pages on the server", async () => {
    const user = userEvent.setup({ delay: null });
    const { listQueries } = renderLog("/interfaces/hl7/messages", ({ url }) =>
      envelope(page([testSummary()], 60, 25, Number(url.searchParams.get("offset")))),
    );
    await screen.findByRole("link", { name: "ORM^O01 EPIC-0001" });
    await user.click(screen.getByRole("button", { name: "Go to next page" }));
    await waitFor(() => expect(listQueries().at(-1)).toEqual({ limit: "25", offset: "25" }));
  });

  it("says when nothing matches, and offers no export of an empty log", async () => {
    renderLog("/interfaces/hl7/messages?status=failed", () => envelope(page([])));
    expect(await screen.findByText("No messages match these filters.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Export CSV" })).toHaveProperty("disabled", true);
  });
});
