import {
  criticalFindingKindLabels,
  formatInstantInZone,
  impressionCodes,
  type ReportDocument,
  type ReportDocumentBlock,
} from "@vigil/contract";
import type { ReportCriticalFinding, ReportInputs } from "./report-inputs.js";
import { studyTypeLabel } from "./report-inputs.js";
import { describeBackground, describeFindings, describeSeizures } from "./report-prose.js";

/**
 * What a report version says, in reading order, made from its stored inputs: the PDF is rendered from this and the
 * printable page shows it, so the two cannot say different things. Every instant is written in the client's zone
 * here, once. The PDF's stored bytes are never rendered again, so a change here alters only versions signed later.
 */

/** The document without the version's id, which the PDF is rendered before it has. */
export type ReportContent = Omit<ReportDocument, "id">;

function inZone(instant: string | null, inputs: ReportInputs): string {
  return instant ? formatInstantInZone(instant, inputs.client.timeZone) : "not recorded";
}

function paragraph(text: string, fallback = "None recorded."): ReportDocumentBlock {
  return { kind: "paragraph", text: text.trim() || fallback };
}

function personOf(author: { name: string | null; username: string }): string {
  return author.name ? `${author.name} (${author.username})` : author.username;
}

/** "Adaeze N. Okafor, MD", "NPI 1234567893", "Board certified: …": nothing that was not filled in. */
function signatureDetailsOf(inputs: ReportInputs): string[] {
  const professional = inputs.signerProfessional;
  if (!professional) return [];
  const structured = [...professional.givenNames, professional.familyName ?? ""].filter(Boolean).join(" ");
  const name = structured || inputs.signedBy.name || inputs.signedBy.username;
  return [
    professional.credentials ? `${name}, ${professional.credentials}` : structured ? name : "",
    professional.npi ? `NPI ${professional.npi}` : "",
    professional.boardCertifications.length > 0
      ? `Board certified: ${professional.boardCertifications.join("; ")}`
      : "",
  ].filter(Boolean);
}

function statusOf(inputs: ReportInputs): string {
  if (inputs.report.kind !== "addendum") return "Final report (version 1)";
  const latest = inputs.addenda[inputs.addenda.length - 1];
  return `ADDENDUM (version ${inputs.report.version}): Addendum ${inputs.addenda.length} was added on ${inZone(latest?.createdAt ?? null, inputs)}. The report as originally signed on ${inZone(inputs.signedAt, inputs)} follows unchanged; the addenda are at the end.`;
}

function patientRows(inputs: ReportInputs): { label: string; value: string }[] {
  const { patient } = inputs;
  return [
    { label: "Patient", value: patient.name },
    { label: "MRN", value: patient.mrn || "not recorded" },
    { label: "Date of birth", value: patient.dateOfBirth ?? "not recorded" },
    { label: "Sex", value: patient.sex },
    ...(patient.location ? [{ label: "Location", value: patient.location }] : []),
    ...(patient.referringPhysician ? [{ label: "Referring physician", value: patient.referringPhysician }] : []),
    { label: "Case", value: inputs.case.number },
    {
      label: "Study",
      value: `${studyTypeLabel(inputs.case.studyType)}${inputs.case.video ? ", with video" : ", without video"}`,
    },
    {
      label: "Recording",
      value: `${inZone(inputs.case.recordingStartedAt, inputs)} to ${inputs.case.recordingEndedAt ? inZone(inputs.case.recordingEndedAt, inputs) : "ongoing"}`,
    },
    {
      label: "Period of this report",
      value: `${inZone(inputs.interpretation.periodFrom, inputs)} to ${inZone(inputs.interpretation.periodTo, inputs)}`,
    },
  ];
}

/** One critical finding as the sentence the report prints: when, by whom, who was told, and how it ended. */
export function describeCriticalFinding(finding: ReportCriticalFinding, inputs: ReportInputs): string {
  const parts = [
    `${criticalFindingKindLabels[finding.kind]}: EEG onset ${inZone(finding.onsetAt, inputs)}, raised ${inZone(finding.raisedAt, inputs)} by ${finding.raisedBy}.`,
    finding.description ? `${finding.description.trim().replace(/\.?$/, ".")}` : "",
    finding.notified.length > 0
      ? `Notified: ${finding.notified.map((entry) => `${entry.name} (${inZone(entry.at, inputs)})`).join("; ")}.`
      : "No notification recorded.",
  ];
  if (finding.acknowledgement) {
    const ack = finding.acknowledgement;
    parts.push(
      `Acknowledged by ${ack.name} ${ack.via === "phone" ? "by phone" : "by link"} at ${inZone(ack.at, inputs)}${ack.readBack ? ", read back" : ""}.`,
    );
  } else if (finding.cancellation) {
    parts.push(`Cancelled at ${inZone(finding.cancellation.at, inputs)}: ${finding.cancellation.reason}`);
  } else {
    parts.push("Not yet acknowledged when this report was signed.");
  }
  return parts.filter(Boolean).join(" ");
}

/**
 * The history as ACNS Guideline 7 asks for it: the clinical question and the medications from the intake (versions
 * signed before the intake was kept say nothing of them), then the reader's history.
 */
function historyBlocks(inputs: ReportInputs): ReportDocumentBlock[] {
  const { indication, medications } = inputs.patient;
  const rows =
    indication === undefined && medications === undefined
      ? []
      : [
          { label: "Indication", value: indication?.trim() || "not recorded" },
          { label: "Medications", value: medications?.trim() || "not recorded" },
        ];
  return [...(rows.length > 0 ? [{ kind: "fields" as const, rows }] : []), paragraph(inputs.interpretation.history)];
}

function sectionsOf(inputs: ReportInputs): ReportDocument["sections"] {
  const data = inputs.interpretation;
  const findings = data.findings.length === 0 ? paragraph(describeFindings([])[0] ?? "") : undefined;
  return [
    { id: "patient-and-study", heading: "Patient and study", blocks: [{ kind: "fields", rows: patientRows(inputs) }] },
    { id: "clinical-history", heading: "Clinical history", blocks: historyBlocks(inputs) },
    { id: "technical-description", heading: "Technical description", blocks: [paragraph(data.technicalDescription)] },
    {
      id: "background",
      heading: "Background",
      blocks: [paragraph(describeBackground(data.background), "Not described.")],
    },
    {
      id: "findings",
      heading: "Findings (ACNS 2021 terminology)",
      blocks: [findings ?? { kind: "list", items: describeFindings(data.findings) }],
    },
    { id: "seizures", heading: "Seizures", blocks: [paragraph(describeSeizures(data.seizures))] },
    {
      id: "critical-findings",
      heading: "Critical findings and notifications",
      blocks: [
        inputs.criticalFindings.length === 0
          ? paragraph("No critical finding was raised for this period.")
          : { kind: "list", items: inputs.criticalFindings.map((finding) => describeCriticalFinding(finding, inputs)) },
      ],
    },
    {
      id: "impression",
      heading: "Impression",
      blocks: [
        ...(data.impressionCode ? [paragraph(`Coded impression: ${impressionCodes[data.impressionCode].label}.`)] : []),
        paragraph(data.impression),
      ],
    },
    { id: "clinical-correlation", heading: "Clinical correlation", blocks: [paragraph(data.clinicalCorrelation)] },
  ];
}

/** The version's document: the same inputs always give the same document. */
export function buildReportDocument(inputs: ReportInputs): ReportContent {
  const mrn = inputs.patient.mrn || "not recorded";
  const addendumMark = inputs.report.kind === "addendum" ? ` · Addendum (version ${inputs.report.version})` : "";
  return {
    caseId: inputs.case.id,
    version: inputs.report.version,
    kind: inputs.report.kind,
    company: { name: inputs.company.name, details: inputs.company.details },
    preparedFor: `Prepared for ${inputs.client.name}`,
    clientLines: [...inputs.client.address, inputs.client.phone ? `Phone ${inputs.client.phone}` : ""].filter(Boolean),
    title: inputs.report.title,
    status: statusOf(inputs),
    runningHeader: `${inputs.patient.name} · MRN ${mrn} · ${inputs.case.number}${addendumMark}`,
    patient: { name: inputs.patient.name, mrn },
    caseNumber: inputs.case.number,
    sections: sectionsOf(inputs),
    signature: `Electronically signed by ${personOf(inputs.signedBy)} on ${inZone(inputs.signedAt, inputs)}`,
    ...(inputs.signerProfessional ? { signatureDetails: signatureDetailsOf(inputs) } : {}),
    addenda: inputs.addenda.map((addendum, index) => ({
      heading: `Addendum ${index + 1}, by ${personOf(addendum.author)} on ${inZone(addendum.createdAt, inputs)}`,
      text: addendum.text.trim() || "None recorded.",
    })),
  };
}
