import { describe, expect, it } from "vitest";
import { pdfPagesText, sampleReportInputs } from "../../testing/kits/reports-kit.js";
import { renderReportPdf, toWinAnsi } from "./report-pdf.js";

describe("the report PDF", () => {
  it("holds the company, client, patient, study, findings in prose, impression, critical finding and signer", async () => {
    const inputs = sampleReportInputs();
    const pdf = await renderReportPdf(inputs);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.sha256).toMatch(/^[0-9a-f]{64}$/);
    const text = (await pdfPagesText(pdf.bytes)).join("\n");
    for (const expected of [
      "Northwind Neurodiagnostics",
      "Prepared for Mercy General Hospital",
      "EEG report (24-hour), Nov 5, 2026 to Nov 6, 2026",
      "Lovelace, Ada",
      "MRN-0042",
      "CM-2026-000042",
      "Continuous EEG monitoring (ICU), with video",
      "lateralized periodic discharges with superimposed fast activity (LPDs+F)",
      "2 electrographic seizures (ESz) were recorded",
      "Abnormal study: frequent left lateralized periodic discharges",
      "Consistent with a left hemispheric structural lesion",
      "Electrographic seizure (ESz): EEG onset Nov 5, 2026, 09:02 EST",
      "Acknowledged by Dr. Nia Neuro by link",
      "Electronically signed by Dr. Grace Hopper (dr-reviewer) on Nov 6, 2026, 05:00 EST (America/New_York)",
    ]) {
      expect(text.replace(/\s+/g, " ")).toContain(expected);
    }
    expect(text).not.toMatch(/ADDENDUM/);
  });

  it("marks an addendum version plainly, keeps the original text and puts the addendum after it", async () => {
    const inputs = sampleReportInputs({
      report: { ...sampleReportInputs().report, version: 2, kind: "addendum" },
      addenda: [
        {
          text: "Review of the video shows the second seizure had a clinical correlate.",
          author: { sub: null, username: "dr-reviewer", name: "Dr. Grace Hopper" },
          createdAt: "2026-11-06T15:30:00.000Z",
        },
      ],
    });
    const text = (await pdfPagesText((await renderReportPdf(inputs)).bytes)).join("\n").replace(/\s+/g, " ");
    expect(text).toContain("ADDENDUM (version 2)");
    expect(text).toContain("Abnormal study: frequent left lateralized periodic discharges");
    expect(text).toContain("Addendum 1, by Dr. Grace Hopper (dr-reviewer) on Nov 6, 2026, 10:30 EST");
    expect(text).toContain("the second seizure had a clinical correlate");
    expect(text.indexOf("Electronically signed by")).toBeLessThan(text.indexOf("Addendum 1, by"));
  });

  it("puts the patient's name, MRN, case and page i of n on every page", async () => {
    const long = Array.from({ length: 40 }, (_, index) => `Paragraph ${index + 1} of a long technical note.`).join(
      "\n\n",
    );
    const inputs = sampleReportInputs();
    const pages = await pdfPagesText(
      (await renderReportPdf({ ...inputs, interpretation: { ...inputs.interpretation, technicalDescription: long } }))
        .bytes,
    );
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, index) => {
      const flat = page.replace(/\s+/g, " ");
      expect(flat).toContain("Lovelace, Ada · MRN MRN-0042 · CM-2026-000042");
      expect(flat).toContain(`Page ${index + 1} of ${pages.length}`);
    });
  });

  it("folds text the standard fonts cannot show into characters they can, never a wrong glyph", async () => {
    expect(toWinAnsi("Łódź ≥ 90% – “quoted” • Café")).toBe("Lódz >= 90% – “quoted” • Café");
    expect(toWinAnsi("李")).toBe("?");
    const inputs = sampleReportInputs();
    const text = (
      await pdfPagesText(
        (
          await renderReportPdf({
            ...inputs,
            patient: { ...inputs.patient, name: "Wałęsa, Łucja", firstName: "Łucja", lastName: "Wałęsa" },
          })
        ).bytes,
      )
    ).join("\n");
    expect(text).toContain("Walesa, Lucja");
  });
});
