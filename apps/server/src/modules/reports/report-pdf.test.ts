import { describe, expect, it } from "vitest";
import { extractedPages, pdfFonts, pdfInfo, pdfStructure, pdfXmp } from "../../testing/kits/pdf-kit.js";
import { pdfPagesText, sampleReportInputs } from "../../testing/kits/reports-kit.js";
import type { ReportInputs } from "./report-inputs.js";
import { renderReportPdf } from "./report-pdf.js";

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

  it("lists the intake's indication and medications in the clinical history, before the reader's history", async () => {
    const inputs = sampleReportInputs();
    const pdf = await renderReportPdf({
      ...inputs,
      patient: { ...inputs.patient, indication: "r/o NCSE after cardiac arrest", medications: "levetiracetam 1 g bid" },
    });
    const text = extractedPages(pdf.bytes).join("\n");
    const history = text.slice(text.indexOf("Clinical history"), text.indexOf("Technical description"));
    expect(history).toContain("Indication: r/o NCSE after cardiac arrest");
    expect(history).toContain("Medications: levetiracetam 1 g bid");
    expect(history.indexOf("Medications:")).toBeLessThan(history.indexOf(inputs.interpretation.history));
  });
});

/** A report whose patient, client and clinical text are written in `patient`'s script. */
function reportFor(lastName: string, firstName: string): ReportInputs {
  const inputs = sampleReportInputs();
  return {
    ...inputs,
    client: { ...inputs.client, name: "Szpital Łódź" },
    patient: {
      ...inputs.patient,
      name: `${lastName}, ${firstName}`,
      firstName,
      lastName,
      referringPhysician: "Ελένη Παπαδοπούλου",
    },
    interpretation: {
      ...inputs.interpretation,
      technicalDescription: "Impedances below 5 kΩ. PDR ≈ 7–8 Hz; α/θ ratio 0.8; ≥ 90% artifact-free.",
    },
  };
}

describe("the report PDF's text, as another program extracts it (pdftotext, pdfinfo)", () => {
  it.each([
    ["Chinese", "王", "小明"],
    ["Polish", "Żółć", "Łukasz"],
    ["Greek", "Παπαδοπούλου", "Ελένη"],
    ["Russian", "Иванов", "Дмитрий"],
    ["Japanese", "佐藤", "ひなた"],
    ["Korean", "김", "민준"],
    ["Vietnamese", "Nguyễn", "Thị Ánh"],
  ])("prints a %s name exactly as entered on the page, in every footer and in the metadata", async (_script, last, first) => {
    const inputs = reportFor(last, first);
    const long = Array.from({ length: 30 }, (_, index) => `Paragraph ${index + 1} of a long note.`).join("\n\n");
    const pdf = await renderReportPdf({ ...inputs, interpretation: { ...inputs.interpretation, history: long } });
    const pages = extractedPages(pdf.bytes);
    const name = `${last}, ${first}`;
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]).toContain(`Patient: ${name}\n`);
    expect(pages[0]).toContain("Prepared for Szpital Łódź\n");
    expect(pages[0]).toContain("Referring physician: Ελένη Παπαδοπούλου\n");
    expect(pages.join("\n")).toContain("Impedances below 5 kΩ. PDR ≈ 7–8 Hz; α/θ ratio 0.8; ≥ 90% artifact-free.");
    pages.forEach((page, index) => {
      expect(page).toContain(`${name} · MRN MRN-0042 · CM-2026-000042\n`);
      expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
    });
    expect(pages.join("")).not.toContain("?");
    const info = pdfInfo(pdf.bytes);
    expect(info.Subject).toBe(`${name}, MRN MRN-0042`);
    expect(info.Title).toBe("EEG report (24-hour), Nov 5, 2026 to Nov 6, 2026 - CM-2026-000042");
  });

  it("prints a character no embedded font has as a visible U+FFFD, never a silent question mark", async () => {
    const pdf = await renderReportPdf(reportFor("כהן", "Sara"));
    const text = extractedPages(pdf.bytes).join("\n");
    expect(text).toContain("Patient: \uFFFD\uFFFD\uFFFD, Sara\n");
    expect(text).not.toContain("?");
  });

  it("is a tagged PDF/A-2b in PDF 1.7, with its language, every font embedded as a subset", async () => {
    const pdf = await renderReportPdf(reportFor("王", "小明"));
    const info = pdfInfo(pdf.bytes);
    expect(info.Tagged).toBe("yes");
    expect(info["PDF version"]).toBe("1.7");
    expect(pdf.bytes.toString("latin1")).toContain("/Lang (en-US)");
    const xmp = pdfXmp(pdf.bytes);
    expect(xmp).toMatch(/<pdfaid:part>2<\/pdfaid:part>\s*<pdfaid:conformance>B<\/pdfaid:conformance>/);
    const fonts = pdfFonts(pdf.bytes);
    expect(fonts.map((font) => font.name.replace(/^[A-Z]{6}\+/, "")).sort()).toEqual([
      "NotoSans-Bold",
      "NotoSans-Regular",
      "NotoSansSC-Regular",
    ]);
    expect(fonts.every((font) => font.embedded && font.subset)).toBe(true);
    // Subsets: two Latin faces and a few dozen CJK glyphs, not the 10 MB font.
    expect(pdf.bytes.length).toBeLessThan(60_000);
  });

  it("has a structure tree a screen reader follows: the title, each section's heading and its text", async () => {
    const structure = pdfStructure((await renderReportPdf(reportFor("王", "小明"))).bytes);
    expect(structure).toMatch(/^Document\n/);
    expect(structure).toMatch(/H1 \(block\)\n\s+"EEG report \(24-hour\), Nov 5, 2026 to Nov 6, 2026"/);
    expect(structure).toMatch(/Sect\n\s+H2 \(block\)\n\s+"Patient and study"\n\s+P \(block\)\n\s+"Patient: 王, 小明"/);
    expect(structure).toMatch(/H2 \(block\)\n\s+"Impression"/);
    // The running footer is an artifact: read once by the reader, not on every page.
    expect(structure).not.toContain("Page 1 of");
  });

  it("keeps the XMP metadata well-formed when a name holds & < >, and the info dictionary as written", async () => {
    const inputs = sampleReportInputs();
    const pdf = await renderReportPdf({ ...inputs, company: { ...inputs.company, name: "Smith & Jones <Neuro>" } });
    expect(pdfInfo(pdf.bytes).Author).toBe("Smith & Jones <Neuro>");
    expect(pdfXmp(pdf.bytes)).toContain("<rdf:li>Smith &amp; Jones &lt;Neuro&gt;</rdf:li>");
  });
});
