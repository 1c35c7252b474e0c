import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { pages, type ReportDocument } from "@vigil/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { envelope, errorEnvelope, type Handler } from "../../../test/fake-server";
import { renderWithRoutes } from "../../../test/render-page-screens";
import { caseId } from "../testing/report-fixtures";
import { ReportPrintPage } from "./report-print-page";
import { cssString, pageRules } from "./report-print-styles";

const reportId = "7b1b2c3d-0000-4000-8000-000000000002";
const documentPath = `/api/continuous-monitoring/cases/${caseId}/reports/${reportId}/document`;

function reportDocument(overrides: Partial<ReportDocument> = {}): ReportDocument {
  return {
    id: reportId,
    caseId,
    version: 2,
    kind: "addendum",
    company: { name: "Northwind Neurodiagnostics", details: "12 Harbor Way, Boston MA" },
    preparedFor: "Prepared for Pacific Neurology Institute",
    clientLines: ["1 Pacific Way", "Phone +14155550100"],
    title: "EEG report (24-hour), Nov 21, 2026 to Nov 22, 2026",
    status: "ADDENDUM (version 2): Addendum 1 was added on Nov 23, 2026, 01:00 PST (America/Los_Angeles).",
    runningHeader: "Lovelace, Ada · MRN MRN-0042 · CM-2026-000123 · Addendum (version 2)",
    patient: { name: "Lovelace, Ada", mrn: "MRN-0042" },
    caseNumber: "CM-2026-000123",
    sections: [
      {
        id: "patient-and-study",
        heading: "Patient and study",
        blocks: [
          {
            kind: "fields",
            rows: [
              { label: "Patient", value: "Lovelace, Ada" },
              { label: "MRN", value: "MRN-0042" },
            ],
          },
        ],
      },
      {
        id: "clinical-history",
        heading: "Clinical history",
        blocks: [{ kind: "paragraph", text: "Cardiac arrest.\n\nOn propofol." }],
      },
      {
        id: "critical-findings",
        heading: "Critical findings and notifications",
        blocks: [{ kind: "list", items: ["Electrographic seizure (ESz): EEG onset Nov 21, 2026, 06:02 PST."] }],
      },
      { id: "impression", heading: "Impression", blocks: [{ kind: "paragraph", text: "Abnormal study." }] },
    ],
    signature: "Electronically signed by Dr. Riley Reviewer (reviewer) on Nov 22, 2026, 07:30 PST",
    addenda: [{ heading: "Addendum 1, by Casey Coordinator (coordinator) on Nov 23, 2026", text: "Video reviewed." }],
    ...overrides,
  };
}

function openPage(routes: Record<string, Handler>, query = "?stage=reviewed") {
  const path = pages["case-report-print"].path;
  return renderWithRoutes(
    `${pages["case-report-print"].href({ caseId, reportId })}${query}`,
    [{ path, element: <ReportPrintPage /> }],
    { groups: ["coordinator"], routes },
  );
}

describe("the report's printable page", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows the document in the PDF's order: header, addendum notice, sections, signature, then the addenda", async () => {
    const { calls } = openPage({ [`GET ${documentPath}`]: () => envelope(reportDocument()) });
    const article = await screen.findByRole("article");
    expect(within(article).getByRole("heading", { level: 1 }).textContent).toBe(reportDocument().title);
    expect(within(article).getByText("Prepared for Pacific Neurology Institute")).toBeTruthy();
    expect(within(article).getByText("1 Pacific Way · Phone +14155550100")).toBeTruthy();
    expect(within(article).getByText(/^ADDENDUM \(version 2\)/)).toBeTruthy();
    expect(
      within(article)
        .getAllByRole("heading", { level: 2 })
        .map((heading) => heading.textContent),
    ).toEqual([
      "Patient and study",
      "Clinical history",
      "Critical findings and notifications",
      "Impression",
      "Addendum 1, by Casey Coordinator (coordinator) on Nov 23, 2026",
    ]);
    const patient = within(article).getByRole("region", { name: "Patient and study" });
    expect(within(patient).getByText("MRN").nextElementSibling?.textContent).toBe("MRN-0042");
    const critical = within(article).getByRole("region", { name: "Critical findings and notifications" });
    expect(within(critical).getAllByRole("listitem")).toHaveLength(1);
    // The paragraphs keep the lines as written.
    expect(within(article).getByText(/Cardiac arrest\.\s+On propofol\./).textContent).toBe(
      "Cardiac arrest.\n\nOn propofol.",
    );
    const text = article.textContent ?? "";
    expect(text.indexOf("Abnormal study.")).toBeLessThan(text.indexOf("Electronically signed by Dr. Riley Reviewer"));
    expect(text.indexOf("Electronically signed by")).toBeLessThan(text.indexOf("Video reviewed."));
    expect(calls.filter((call) => call.path === documentPath)).toHaveLength(1);
  });

  it("puts the running line and page numbers in the page margins and keeps the screen's controls off the paper", async () => {
    openPage({ [`GET ${documentPath}`]: () => envelope(reportDocument()) });
    await screen.findByRole("article");
    const rules = document.querySelector("style[data-report-page-rules]")?.textContent ?? "";
    expect(rules).toContain(
      `@top-left { content: "Lovelace, Ada · MRN MRN-0042 · CM-2026-000123 · Addendum (version 2)";`,
    );
    expect(rules).toContain('content: "Page " counter(page) " of " counter(pages)');
    const back = screen.getByRole("link", { name: "Back to the case" });
    expect(back.getAttribute("href")).toBe(pages["case-reviewed-detail"].href({ caseId, tab: "interpretations" }));
    const print = screen.getByRole("button", { name: "Print" });
    expect(back.closest(".vigil-no-print")).not.toBeNull();
    expect(print.closest(".vigil-no-print")).not.toBeNull();
    const printSpy = vi.spyOn(window, "print").mockImplementation(() => {});
    await userEvent.setup().click(print);
    expect(printSpy).toHaveBeenCalledOnce();
  });

  it("writes a name with quotes or backslashes into the page rules as text, never as CSS", () => {
    expect(cssString('O"Brien\\ <x>\nnext')).toBe('"O\\"Brien\\\\ \\3C x> next"');
    // A patient name cannot close the string and add rules of its own: every quote in it stays escaped.
    const rules = pageRules('a"; } body { display: none; } x { content: "');
    expect(rules).toContain('@top-left { content: "a\\"; } body { display: none; } x { content: \\""; font-family');
  });

  it("says a report that is not the case's was not found, and offers the way back", async () => {
    openPage({ [`GET ${documentPath}`]: () => errorEnvelope(404, "not_found", "The case has no report version.") }, "");
    expect(await screen.findByRole("heading", { level: 1, name: "Report not found" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to the case" }).getAttribute("href")).toBe(
      pages["case-monitoring-detail"].href({ caseId, tab: "interpretations" }),
    );
    expect(screen.queryByRole("button", { name: "Print" })).toBeNull();
  });

  it("offers a retry when the report could not be read", async () => {
    let attempts = 0;
    openPage({
      [`GET ${documentPath}`]: () => {
        attempts++;
        return attempts === 1
          ? errorEnvelope(500, "internal", "Something went wrong.")
          : envelope(reportDocument({ kind: "signed", status: "Final report (version 1)", addenda: [] }));
      },
    });
    await userEvent.setup().click(await screen.findByRole("button", { name: /retry|try again/i }));
    expect(await screen.findByText("Final report (version 1)")).toBeTruthy();
  });
});
