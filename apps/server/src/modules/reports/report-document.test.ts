import { reportDocumentSchema } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { pdfPagesText, sampleReportInputs } from "../../testing/kits/reports-kit.js";
import { buildReportDocument } from "./report-document.js";
import { renderReportPdf } from "./report-pdf.js";

const addendumInputs = () =>
  sampleReportInputs({
    report: { ...sampleReportInputs().report, version: 2, kind: "addendum" },
    addenda: [
      {
        text: "Review of the video shows the second seizure had a clinical correlate.",
        author: { sub: null, username: "dr-reviewer", name: "Dr. Grace Hopper" },
        createdAt: "2026-11-06T15:30:00.000Z",
      },
    ],
  });

/** Every piece of text the document holds, in reading order. */
function textsOf(document: ReturnType<typeof buildReportDocument>): string[] {
  return [
    document.company.name,
    document.company.details,
    document.preparedFor,
    ...document.clientLines,
    document.title,
    document.status,
    ...document.sections.flatMap((section) => [
      section.heading,
      ...section.blocks.flatMap((block) => {
        if (block.kind === "fields") return block.rows.map((row) => `${row.label}: ${row.value}`);
        return block.kind === "paragraph" ? [block.text] : block.items;
      }),
    ]),
    document.signature,
    ...document.addenda.flatMap((addendum) => [addendum.heading, addendum.text]),
  ];
}

/** Text without any white space: a PDF line may wrap after a "/" or a dash, where the document has no space. */
const bare = (text: string) => text.replace(/\s+/g, "");

describe("the report document", () => {
  it("orders the header, the patient and study, the sections, the critical finding and the signature", () => {
    const document = buildReportDocument(sampleReportInputs());
    expect(reportDocumentSchema.safeParse({ id: "0f3e5d7c-9b1a-4c2e-8d6f-7a5b3c1e9d21", ...document }).success).toBe(
      true,
    );
    expect(document).toMatchObject({
      company: { name: "Northwind Neurodiagnostics" },
      preparedFor: "Prepared for Mercy General Hospital",
      clientLines: ["1 Mercy Plaza", "Boston MA 02114", "Phone +16175550199"],
      title: "EEG report (24-hour), Nov 5, 2026 to Nov 6, 2026",
      status: "Final report (version 1)",
      runningHeader: "Lovelace, Ada · MRN MRN-0042 · CM-2026-000042",
      patient: { name: "Lovelace, Ada", mrn: "MRN-0042" },
      caseNumber: "CM-2026-000042",
      signature: "Electronically signed by Dr. Grace Hopper (dr-reviewer) on Nov 6, 2026, 05:00 EST (America/New_York)",
      addenda: [],
    });
    expect(document.sections.map((section) => section.id)).toEqual([
      "patient-and-study",
      "clinical-history",
      "technical-description",
      "background",
      "findings",
      "seizures",
      "critical-findings",
      "impression",
      "clinical-correlation",
    ]);
    const [patient] = document.sections;
    expect(patient?.blocks[0]).toMatchObject({
      kind: "fields",
      rows: expect.arrayContaining([
        { label: "MRN", value: "MRN-0042" },
        { label: "Study", value: "Continuous EEG monitoring (ICU), with video" },
      ]),
    });
    const critical = document.sections.find((section) => section.id === "critical-findings");
    expect(critical?.blocks).toEqual([
      {
        kind: "list",
        items: [
          expect.stringMatching(/^Electrographic seizure \(ESz\): EEG onset Nov 5, 2026, 09:02 EST.*read back\.$/),
        ],
      },
    ]);
  });

  it("prints the impression's code before its text, when one was chosen at signing", () => {
    const inputs = sampleReportInputs();
    const document = buildReportDocument({
      ...inputs,
      interpretation: { ...inputs.interpretation, impressionCode: "electrographic-status-epilepticus" },
    });
    const impression = document.sections.find((section) => section.id === "impression");
    expect(impression?.blocks[0]).toEqual({
      kind: "paragraph",
      text: "Coded impression: Electrographic status epilepticus.",
    });
    expect(buildReportDocument(inputs).sections.find((section) => section.id === "impression")?.blocks).toHaveLength(1);
  });

  it("says so where nothing was recorded, instead of leaving a heading empty", () => {
    const inputs = sampleReportInputs({ criticalFindings: [] });
    const document = buildReportDocument({
      ...inputs,
      interpretation: { ...inputs.interpretation, history: "  ", findings: [] },
    });
    const blocksOf = (id: string) => document.sections.find((section) => section.id === id)?.blocks;
    expect(blocksOf("clinical-history")).toEqual([{ kind: "paragraph", text: "None recorded." }]);
    expect(blocksOf("findings")).toEqual([
      { kind: "paragraph", text: "No periodic or rhythmic patterns or epileptiform discharges were recorded." },
    ]);
    expect(blocksOf("critical-findings")).toEqual([
      { kind: "paragraph", text: "No critical finding was raised for this period." },
    ]);
  });

  it("marks an addendum version, keeps the original signature and puts each addendum after it", () => {
    const document = buildReportDocument(addendumInputs());
    expect(document.kind).toBe("addendum");
    expect(document.status).toMatch(/^ADDENDUM \(version 2\): Addendum 1 was added on Nov 6, 2026, 10:30 EST/);
    expect(document.runningHeader).toBe("Lovelace, Ada · MRN MRN-0042 · CM-2026-000042 · Addendum (version 2)");
    expect(document.signature).toMatch(/^Electronically signed by Dr. Grace Hopper/);
    expect(document.addenda).toEqual([
      {
        heading: "Addendum 1, by Dr. Grace Hopper (dr-reviewer) on Nov 6, 2026, 10:30 EST (America/New_York)",
        text: "Review of the video shows the second seizure had a clinical correlate.",
      },
    ]);
  });

  it.each([
    ["a signed version", sampleReportInputs],
    ["an addendum version", addendumInputs],
  ])("is what the PDF of %s says, in the same order, and on every page the same running line", async (_name, make) => {
    const inputs = make();
    const document = buildReportDocument(inputs);
    const pages = await pdfPagesText((await renderReportPdf(inputs)).bytes);
    const text = bare(pages.join("\n"));
    let from = 0;
    for (const piece of textsOf(document)) {
      const at = text.indexOf(bare(piece), from);
      expect(at, piece).toBeGreaterThanOrEqual(from);
      from = at;
    }
    for (const page of pages) expect(bare(page)).toContain(bare(document.runningHeader));
  });
});
