import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { caseId, renderCaseScreen, testCase } from "../testing/render-case-screen";

const caseApi = `/api/continuous-monitoring/cases/${caseId}`;

describe("the hospital order on the case overview", () => {
  it("shows the order number, the visit and a discharge the hospital sent", async () => {
    const item = testCase({
      stage: "monitoring",
      order: {
        source: "hl7",
        placerOrderNumber: "ORD778899",
        fillerOrderNumber: "CM-2026-000123",
        visitNumber: "V998877",
        orderingProvider: "NED NEURO (1234567)",
        mrnAssigningAuthority: "UCHMC",
        reason: "Unspecified convulsions",
        location: "4W, room 412, bed B",
        dischargedAt: "2026-11-22T18:00:00.000Z",
        cancelledAt: null,
        cancelReason: null,
        receivedAt: "2026-11-22T14:00:00.000Z",
      },
    });
    renderCaseScreen(`/continuous-monitoring/cases/monitoring/${caseId}/overview`, {
      routes: { [`GET ${caseApi}`]: () => envelope(item) },
    });
    const card = await screen.findByRole("region", { name: "Hospital order" });
    expect(within(card).getByText("ORD778899")).toBeTruthy();
    expect(within(card).getByText("V998877")).toBeTruthy();
    expect(within(card).getByText(/discharged the patient/)).toBeTruthy();
  });

  it("shows no order card for a case typed in", async () => {
    renderCaseScreen(`/continuous-monitoring/cases/intake/${caseId}/overview`, {
      routes: { [`GET ${caseApi}`]: () => envelope(testCase()) },
    });
    expect(await screen.findByRole("heading", { level: 2, name: "Patient" })).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Hospital order" })).toBeNull();
  });
});
