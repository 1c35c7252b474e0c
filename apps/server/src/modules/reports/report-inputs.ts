import type {
  Author,
  CriticalFindingKind,
  CriticalFindingStatus,
  InterpretationData,
  ReportVersionKind,
} from "@vigil/contract";

/**
 * Everything one report version is made from, as it was when the version was signed: kept beside the PDF
 * (`report_versions.inputs`) so the stored document and the FHIR resource say the same thing for ever, whatever is
 * renamed or corrected later. Instants are ISO strings (the column is JSON).
 */
export type ReportInputs = {
  company: { name: string; details: string };
  client: { id: string; name: string; code: string; timeZone: string; address: string[]; phone: string | null };
  patient: {
    name: string;
    firstName: string;
    lastName: string;
    mrn: string;
    dateOfBirth: string | null;
    sex: "female" | "male" | "other" | "unknown";
    location: string | null;
    referringPhysician: string | null;
  };
  case: {
    id: string;
    number: string;
    studyType: string;
    video: boolean;
    recordingStartedAt: string | null;
    recordingEndedAt: string | null;
  };
  report: {
    interpretationId: string;
    version: number;
    kind: ReportVersionKind;
    reportType: "daily" | "summary";
    title: string;
    issuedAt: string;
  };
  interpretation: InterpretationData;
  signedBy: Author;
  signedAt: string;
  /** Every addendum up to and including this version's, oldest first. */
  addenda: { text: string; author: Author; createdAt: string }[];
  criticalFindings: ReportCriticalFinding[];
};

export type ReportCriticalFinding = {
  kind: CriticalFindingKind;
  onsetAt: string;
  raisedAt: string;
  description: string;
  status: CriticalFindingStatus;
  raisedBy: string;
  /** Who was told and when (one line per recipient). */
  notified: { name: string; at: string }[];
  acknowledgement: { at: string; name: string; via: "link" | "phone"; readBack: boolean } | null;
  cancellation: { at: string; reason: string } | null;
};

const studyTypeLabels: Record<string, string> = {
  "icu-ceeg": "Continuous EEG monitoring (ICU)",
  ambulatory: "Ambulatory EEG",
  "emu-video": "Epilepsy monitoring unit video-EEG",
};

export function studyTypeLabel(studyType: string): string {
  return studyTypeLabels[studyType] ?? studyType;
}

/** "EEG report — daily, Nov 5, 2026 to Nov 6, 2026": the heading of the PDF and the FHIR attachment's title. */
export function reportTitleOf(reportType: "daily" | "summary", periodFrom: string, periodTo: string, timeZone: string) {
  const day = (instant: string) => {
    try {
      return new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "short", day: "numeric" }).format(
        new Date(instant),
      );
    } catch {
      return instant.slice(0, 10);
    }
  };
  const kind = reportType === "daily" ? "EEG report (24-hour)" : "EEG study summary";
  const from = day(periodFrom);
  const to = day(periodTo);
  return from === to ? `${kind}, ${from}` : `${kind}, ${from} to ${to}`;
}
