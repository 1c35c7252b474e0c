import { type ReportInputs, reportPeriodOf, reportPeriodSlugOf } from "./report-inputs.js";

/**
 * What a report version is called outside Vigil: its file name and its e-mail's subject. A case has a 24-hour report
 * a day and a study summary, so both name the kind and the dates covered, not the case alone. No patient name or MRN:
 * file names and subjects are seen by whoever handles the file or the mailbox.
 */

const kindWords = { daily: "24-hour report", summary: "study summary" } as const;
const kindSlugs = { daily: "eeg-24h", summary: "eeg-summary" } as const;

/** "CM-2026-000042-eeg-24h-2026-11-05-to-2026-11-06-v1.pdf" */
export function reportFileNameOf(inputs: ReportInputs): string {
  const { periodFrom, periodTo } = inputs.interpretation;
  const period = reportPeriodSlugOf(periodFrom, periodTo, inputs.client.timeZone);
  return `${inputs.case.number}-${kindSlugs[inputs.report.reportType]}-${period}-v${inputs.report.version}.pdf`;
}

/** "EEG report ready: CM-2026-000042, 24-hour report, Nov 5, 2026 to Nov 6, 2026" (and which addendum, for one). */
export function reportSubjectOf(inputs: ReportInputs): string {
  const { periodFrom, periodTo } = inputs.interpretation;
  const period = reportPeriodOf(periodFrom, periodTo, inputs.client.timeZone);
  const addendum = inputs.report.kind === "addendum" ? `, addendum (version ${inputs.report.version})` : "";
  return `EEG report ready: ${inputs.case.number}, ${kindWords[inputs.report.reportType]}, ${period}${addendum}`;
}
