import type { InterpretationData } from "@vigil/contract";
import { printableInstant } from "../form-values";
import { backgroundSelects, describeFinding, reportTypeLabels, seizureClassificationLabels } from "./acns-terms";

/** The report's fields in words, one row each, for history diffs and the conflict comparison. */
export function flattenInterpretation(data: InterpretationData): Record<string, string> {
  const rows: Record<string, string> = {
    "Report type": reportTypeLabels[data.reportType],
    "Period from": printableInstant(data.periodFrom),
    "Period to": printableInstant(data.periodTo),
    History: data.history,
    "Technical description": data.technicalDescription,
  };
  for (const select of backgroundSelects) {
    const value = data.background[select.key];
    rows[`Background: ${select.label.toLowerCase()}`] =
      value === null ? "" : ((select.options as Record<string, string>)[value] ?? value);
  }
  rows["Background: posterior dominant rhythm"] = data.background.pdrHz === null ? "" : `${data.background.pdrHz} Hz`;
  rows["Background: notes"] = data.background.notes;
  data.findings.forEach((finding, index) => {
    rows[`Finding ${index + 1}`] = finding.notes
      ? `${describeFinding(finding)} — ${finding.notes}`
      : describeFinding(finding);
  });
  rows["Seizure classification"] = seizureClassificationLabels[data.seizures.classification];
  rows["Seizure count"] = data.seizures.count === null ? "" : String(data.seizures.count);
  rows["Seizure description"] = data.seizures.description;
  rows.Impression = data.impression;
  rows["Clinical correlation"] = data.clinicalCorrelation;
  return rows;
}
