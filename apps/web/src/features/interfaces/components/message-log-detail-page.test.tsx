import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AccessGroup, Hl7MessageDetail } from "@vigil/contract";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { AccessProvider } from "../../../components/access/access-context";
import { theme } from "../../../config/theme";
import { configureAuth } from "../../../lib/auth";
import { createQueryClient } from "../../../lib/query-client";
import {
  envelope,
  errorEnvelope,
  type Handler,
  installFetch,
  storeSignedInTokens,
  testConfig,
} from "../../../test/fake-server";
import { MessageLogDetailPage } from "./message-log-detail-page";
import { fieldRows } from "./message-log-segments";

const messageId = "6a1e2d3c-0000-4a2b-9c3d-000000000001";
const replayId = "6a1e2d3c-0000-4a2b-9c3d-000000000002";
const clientId = "0b6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a10";
const caseId = "9f1e2d3c-3333-4a2b-9c3d-000000000001";

function testDetail(overrides: Partial<Hl7MessageDetail> = {}): Hl7MessageDetail {
  return {
    id: messageId,
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
    text: "MSH|^~\\&|EPIC|PNI|VIGIL|VIGIL|20261122091405||ORM^O01|EPIC-0001|P|2.5.1\nPID|1||MRN-777^^^PNI^MR||Doe^Jane",
    segments: [
      {
        name: "MSH",
        fields: [
          "|",
          "^~\\&",
          "EPIC",
          "PNI",
          "VIGIL",
          "VIGIL",
          "20261122091405",
          "",
          "ORM^O01",
          "EPIC-0001",
          "P",
          "2.5.1",
        ],
      },
      { name: "PID", fields: ["1", "", "MRN-777^^^PNI^MR", "", "Doe^Jane"] },
      { name: "OBX", fields: ["1", "ED", "PDF^Report", "", "^AP^PDF^Base64^[PDF, 120,000 bytes base64]"] },
      { name: "OBX", fields: ["2", "TX", "IMP^Impression", "", "Normal EEG"] },
    ],
    ack: "MSH|^~\\&|VIGIL|VIGIL|EPIC|PNI|20261122091405||ACK^O01|A1|P|2.5.1\nMSA|AA|EPIC-0001",
    reportVersionId: null,
    replayOf: null,
    ...overrides,
  };
}

function renderMessage(groups: AccessGroup[], routes: Record<string, Handler>) {
  void configureAuth(testConfig);
  storeSignedInTokens("alice", groups);
  const network = installFetch(routes);
  const router = createMemoryRouter(
    [
      { path: "/interfaces/hl7/messages/:messageId", element: <MessageLogDetailPage /> },
      { path: "*", element: <p>Elsewhere</p> },
    ],
    { initialEntries: [`/interfaces/hl7/messages/${messageId}`] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider theme={theme}>
        <AccessProvider groups={groups}>
          <RouterProvider router={router} />
        </AccessProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return { ...network, router };
}

const read = `GET /api/interfaces/hl7/messages/${messageId}`;
const replay = `POST /api/interfaces/hl7/messages/${messageId}/replay`;

describe("an HL7 message's page", () => {
  it("lays out each segment's fields by number, with the ACK and links to the case and the client", async () => {
    renderMessage(["coordinator"], { [read]: () => envelope(testDetail()) });
    const table = await screen.findByRole("table", { name: "Segments and fields" });
    const name = within(table).getByText("PID-5").closest("tr") as HTMLElement;
    expect(within(name).getByText("Doe^Jane")).toBeTruthy();
    expect(within(within(table).getByText("MSH-10").closest("tr") as HTMLElement).getByText("EPIC-0001")).toBeTruthy();
    const pdf = within(table).getByText("^AP^PDF^Base64^[PDF, 120,000 bytes base64]").closest("tr") as HTMLElement;
    expect(within(pdf).getByText("OBX (1)")).toBeTruthy();
    expect(within(table).getAllByText("OBX (2)")).toHaveLength(4);
    // Empty fields are left out until asked for.
    expect(within(table).queryByText("PID-2")).toBeNull();
    await userEvent.setup({ delay: null }).click(screen.getByLabelText("Show empty fields"));
    expect(within(table).getByText("PID-2")).toBeTruthy();

    expect(screen.getByLabelText("Acknowledgement").textContent).toContain("MSA|AA|EPIC-0001");
    expect(screen.getByRole("link", { name: "CM-2026-000123" }).getAttribute("href")).toBe(
      `/continuous-monitoring/cases/intake/${caseId}/overview`,
    );
    expect(screen.getByRole("link", { name: "Pacific Neurology Institute" }).getAttribute("href")).toBe(
      `/continuous-monitoring/clients/${clientId}/overview`,
    );
    expect(screen.getByRole("heading", { name: "ORM^O01 EPIC-0001" })).toBeTruthy();
    expect(screen.getByText("Processed · AA")).toBeTruthy();
    // Coordinators read the log; replaying is the administrators'.
    expect(screen.queryByRole("button", { name: "Replay" })).toBeNull();
  });

  it("replays for an administrator after asking, and shows what came of it with a link to the new row", async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderMessage(["admin"], {
      [read]: () => envelope(testDetail()),
      [replay]: () => envelope(testDetail({ id: replayId, replayOf: messageId, ackCode: "AA" })),
    });
    await user.click(await screen.findByRole("button", { name: "Replay" }));
    const dialog = screen.getByRole("dialog", { name: "Replay ORM^O01 EPIC-0001?" });
    expect(within(dialog).getByText(/no second case is created/)).toBeTruthy();
    expect(calls.some((call) => call.method === "POST")).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "Process again" }));
    const outcome = await screen.findByRole("status");
    expect(outcome.textContent).toContain("Replayed: Processed, acknowledged AA");
    expect(within(outcome).getByRole("link", { name: "Open the replay" }).getAttribute("href")).toBe(
      `/interfaces/hl7/messages/${replayId}`,
    );
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("shows the server's refusal of a replay in the dialog", async () => {
    const user = userEvent.setup({ delay: null });
    renderMessage(["admin"], {
      [read]: () => envelope(testDetail({ direction: "outbound", messageType: "ORU^R01", controlId: "VIGIL-9" })),
      [replay]: () =>
        errorEnvelope(409, "conflict", "The hospital acknowledged this result (AA); it is sent once, not again."),
    });
    await user.click(await screen.findByRole("button", { name: "Replay" }));
    const dialog = screen.getByRole("dialog", { name: "Replay ORU^R01 VIGIL-9?" });
    await user.click(within(dialog).getByRole("button", { name: "Send again" }));
    expect(
      await within(dialog).findByText("The hospital acknowledged this result (AA); it is sent once, not again."),
    ).toBeTruthy();
  });

  it("says a message is not in the log (past its retention) rather than failing", async () => {
    renderMessage(["coordinator"], { [read]: () => errorEnvelope(404, "not_found", "No logged HL7 message.") });
    expect(await screen.findByText(/older than the log keeps/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to the message log" }).getAttribute("href")).toBe(
      "/interfaces/hl7/messages",
    );
  });
});

describe("fieldRows", () => {
  it("numbers MSH from its field separator, so MSH-9 is the message type", () => {
    const rows = fieldRows(testDetail().segments, false);
    expect(rows.find((row) => row.field === "MSH-9")?.value).toBe("ORM^O01");
    expect(rows.find((row) => row.field === "MSH-1")?.value).toBe("|");
  });
});
