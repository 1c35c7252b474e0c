import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { envelope } from "../../../test/fake-server";
import {
  billingApi,
  clientId,
  renderBillingScreen,
  testStatement,
  testStatementCase,
} from "../testing/render-billing-screen";

const statementPath = `/billing/continuous-monitoring/${clientId}/2026-11`;

const running = testStatementCase({
  caseId: "9f1e2d3c-3333-4a2b-9c3d-000000000002",
  caseNumber: "CM-2026-000124",
  patientName: "Roe, Richard",
  stage: "monitoring",
  hours: "1.50",
  amount: "180.00",
  running: true,
  cpt: {
    recordingHours: "1.50",
    videoPercent: 0,
    lines: [],
    warnings: [{ id: "under-2-hours", message: "Recording under 2 hours: long-term EEG codes do not apply" }],
  },
});

/** Every rule emotion put into the document, as text (jsdom keeps it in the style elements). */
function documentStyles(): string {
  return Array.from(document.querySelectorAll("style"))
    .map((style) => style.textContent ?? "")
    .join("\n")
    .replace(/\s+/g, "");
}

describe("monthly statement", () => {
  it("prints the header, every case with its CPT suggestions, the totals and the rounding note", async () => {
    const statement = testStatement({
      provisional: true,
      cases: [testStatementCase(), running],
      totals: { hours: "27.75", amount: "3330.00", caseCount: 2 },
    });
    const { calls } = renderBillingScreen(statementPath, {
      routes: { [`GET ${billingApi}/${clientId}/2026-11`]: () => envelope(statement) },
    });
    const document = await screen.findByRole("article", {
      name: "Monthly statement: St. Mary's Regional Medical Center, November 2026",
    });
    expect(calls.some((call) => call.path === `${billingApi}/${clientId}/2026-11`)).toBe(true);
    expect(within(document).getByRole("heading", { level: 1, name: "Monthly statement: November 2026" })).toBeTruthy();
    expect(within(document).getByText("Vigil")).toBeTruthy();
    expect(
      within(document).getByText("Nov 1, 2026, 00:00 EDT to Dec 1, 2026, 00:00 EST (America/New_York)"),
    ).toBeTruthy();
    expect(within(document).getByText("$120.00 per hour (inherited from October 2026)")).toBeTruthy();
    expect(within(document).getByText("Not issued yet")).toBeTruthy();
    expect(within(document).getByText("Dec 2, 2026, 10:30 EST (America/New_York)")).toBeTruthy();
    expect(within(document).getByText("Provisional")).toBeTruthy();

    const table = within(document).getByRole("table", { name: "Cases billed in November 2026" });
    const first = within(table).getByText("CM-2026-000123").closest("tr") as HTMLElement;
    expect(within(first).getByText("Doe, Jane")).toBeTruthy();
    expect(within(first).getByText("26.25")).toBeTruthy();
    expect(within(first).getByText("$3,150.00")).toBeTruthy();
    expect(within(table).getByRole("columnheader", { name: "Amount (USD)" })).toBeTruthy();
    expect(first.textContent).toContain("95720 × 1");
    expect(first.textContent).toContain("95700 × 1");
    const second = within(table).getByText("CM-2026-000124").closest("tr") as HTMLElement;
    expect(within(second).getByText("Running: hours still grow")).toBeTruthy();
    expect(
      within(within(second).getByRole("list", { name: "CPT warnings for CM-2026-000124" })).getByText(
        "Warning: Recording under 2 hours: long-term EEG codes do not apply",
      ),
    ).toBeTruthy();

    const totals = within(document).getByRole("region", { name: "Totals" });
    expect(within(totals).getByText("27.75")).toBeTruthy();
    expect(within(totals).getByText("$3,330.00")).toBeTruthy();
    expect(within(totals).getByText("USD")).toBeTruthy();
    expect(within(totals).getByText(/totals are sums of the rounded lines/)).toBeTruthy();
  });

  it("flags a month without a rate, prints with the browser, and keeps the buttons off the paper", async () => {
    const user = userEvent.setup();
    const print = vi.fn();
    vi.stubGlobal("print", print);
    renderBillingScreen(statementPath, {
      routes: {
        [`GET ${billingApi}/${clientId}/2026-11`]: () =>
          envelope(
            testStatement({
              rate: null,
              rateMissing: true,
              cases: [testStatementCase({ amount: null })],
              totals: { hours: "26.25", amount: null, caseCount: 1 },
            }),
          ),
      },
    });
    const document = await screen.findByRole("article", { name: /^Monthly statement/ });
    expect(within(document).getByText("No rate", { selector: ".MuiAlertTitle-root" })).toBeTruthy();
    expect(within(document).getByText("— (no rate)")).toBeTruthy();

    const printButton = screen.getByRole("button", { name: "Print / Save as PDF" });
    const back = screen.getByRole("link", { name: "Back to billing" });
    expect(back.getAttribute("href")).toBe(`/billing/continuous-monitoring/${clientId}`);
    expect(printButton.closest(".vigil-no-print")).toBeTruthy();
    expect(back.closest(".vigil-no-print")).toBeTruthy();
    await user.click(printButton);
    expect(print).toHaveBeenCalledTimes(1);
  });

  it("has print rules: page margins, a header on every page, rows and totals never split", async () => {
    renderBillingScreen(statementPath, {
      routes: { [`GET ${billingApi}/${clientId}/2026-11`]: () => envelope(testStatement()) },
    });
    const document = await screen.findByRole("article", { name: /^Monthly statement/ });
    // A semantic table, so the browser can repeat its header on every printed page.
    expect(within(document).getByRole("table").querySelector("thead th")).toBeTruthy();
    expect(document.querySelector(".vigil-statement-totals")).toBeTruthy();

    const styles = documentStyles();
    expect(styles).toContain("@page{margin:15mm;}");
    const print = styles.slice(styles.indexOf("@mediaprint"));
    expect(styles).toContain("@mediaprint");
    expect(print).toContain(".vigil-statementthead{display:table-header-group;}");
    expect(print).toMatch(/\.vigil-statementtr\{break-inside:avoid;page-break-inside:avoid;\}/);
    expect(print).toMatch(/\.vigil-statement-totals\{break-inside:avoid;page-break-inside:avoid;\}/);
    expect(print).toContain(".vigil-no-print{display:none!important;}");
  });

  it("says so when the address names no client and month", async () => {
    const { calls } = renderBillingScreen(`/billing/continuous-monitoring/${clientId}/November`);
    expect(await screen.findByRole("heading", { name: "Statement not found" })).toBeTruthy();
    expect(calls).toHaveLength(0);
  });
});
