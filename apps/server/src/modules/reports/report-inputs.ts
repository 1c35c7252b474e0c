import type {
  Author,
  CriticalFindingKind,
  CriticalFindingStatus,
  InterpretationData,
  ReportVersionKind,
  UserProfessional,
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
    /** The intake's clinical question and current medications (absent from versions signed before they were kept). */
    indication?: string | null;
    medications?: string | null;
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
  /**
   * The signer's professional identity (names as parts, NPI, credentials, certifications) as it stood at the
   * signing; absent from versions signed before users held it, whose PDFs therefore never print it.
   */
  signerProfessional?: UserProfessional;
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

function dayIn(instant: string, timeZone: string, locale: "en-US" | "en-CA"): string {
  const options =
    locale === "en-US"
      ? ({ month: "short", day: "numeric" } as const)
      : ({ month: "2-digit", day: "2-digit" } as const);
  try {
    return new Intl.DateTimeFormat(locale, { timeZone, year: "numeric", ...options }).format(new Date(instant));
  } catch {
    return instant.slice(0, 10);
  }
}

/** "Nov 5, 2026 to Nov 6, 2026", or one day: the dates a report covers, in the client's zone. */
export function reportPeriodOf(periodFrom: string, periodTo: string, timeZone: string): string {
  const from = dayIn(periodFrom, timeZone, "en-US");
  const to = dayIn(periodTo, timeZone, "en-US");
  return from === to ? from : `${from} to ${to}`;
}

/** "2026-11-05-to-2026-11-06", or one day: the same dates for a file name. */
export function reportPeriodSlugOf(periodFrom: string, periodTo: string, timeZone: string): string {
  const from = dayIn(periodFrom, timeZone, "en-CA");
  const to = dayIn(periodTo, timeZone, "en-CA");
  return from === to ? from : `${from}-to-${to}`;
}

/** "EEG report (24-hour), Nov 5, 2026 to Nov 6, 2026": the heading of the PDF and the FHIR attachment's title. */
export function reportTitleOf(reportType: "daily" | "summary", periodFrom: string, periodTo: string, timeZone: string) {
  const kind = reportType === "daily" ? "EEG report (24-hour)" : "EEG study summary";
  return `${kind}, ${reportPeriodOf(periodFrom, periodTo, timeZone)}`;
}
