import type { Author, InterpretationData } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { findUserById } from "../../identity/user-directory.js";
import { requireCase } from "../cases/cases-service.js";
import { getPatientDetails } from "../cases/patient-details-service.js";
import { requireClient } from "../clients/clients-service.js";
import { type ReportCriticalFinding, type ReportInputs, reportTitleOf } from "./report-inputs.js";
import { findSignedVersionInputs } from "./report-original-repository.js";
import { renderReportPdf } from "./report-pdf.js";
import {
  findCriticalFindingsOfCase,
  findStoredVersionNumbers,
  insertReportVersion,
  type ReportVersionSummaryRow,
} from "./reports-repository.js";

/** Who issues reports (REPORT_COMPANY_*). */
export type ReportCompany = { name: string; details: string };

/** One version to issue: the interpretation as signed, and the addenda up to this version's. */
export type VersionToIssue = {
  caseId: string;
  interpretationId: string;
  recordRevision: number;
  version: number;
  data: InterpretationData;
  signedBy: Author;
  signedAt: string;
  addenda: { text: string; author: Author; createdAt: string }[];
  issuedAt: Date;
  /**
   * True when issued in the signing transaction itself: only then is the signer's professional identity read, so
   * a version stored later for an old signing never prints credentials the signer did not hold when signing.
   */
  atSigning?: boolean;
};

/**
 * The critical findings a report speaks for: a daily report those whose EEG onset lies in its period, a summary every
 * finding of the study; cancelled ones too (the cancellation and its reason are part of the record). Each as it stood
 * at `asOf`: a notification, acknowledgement or cancellation recorded later is not yet part of it.
 */
async function criticalFindingsFor(tx: Db, version: VersionToIssue, asOf: Date): Promise<ReportCriticalFinding[]> {
  const from = Date.parse(version.data.periodFrom);
  const to = Date.parse(version.data.periodTo);
  const byThen = (at: Date | null): at is Date => at !== null && at.getTime() <= asOf.getTime();
  const found = await findCriticalFindingsOfCase(tx, version.caseId, asOf);
  return found
    .filter(
      ({ finding }) =>
        version.data.reportType === "summary" || (finding.onsetAt.getTime() >= from && finding.onsetAt.getTime() <= to),
    )
    .map(({ finding, recipients }) => {
      const acknowledgement =
        byThen(finding.acknowledgedAt) && finding.acknowledgedName
          ? {
              at: finding.acknowledgedAt.toISOString(),
              name: finding.acknowledgedName,
              via: finding.acknowledgedVia ?? "phone",
              readBack: finding.readBackConfirmed,
            }
          : null;
      const cancellation = byThen(finding.cancelledAt)
        ? { at: finding.cancelledAt.toISOString(), reason: finding.cancelReason ?? "" }
        : null;
      return {
        kind: finding.kind,
        onsetAt: finding.onsetAt.toISOString(),
        raisedAt: finding.raisedAt.toISOString(),
        description: finding.description,
        status: acknowledgement ? "acknowledged" : cancellation ? "cancelled" : "open",
        raisedBy: finding.raisedByName ?? finding.raisedByUsername,
        notified: recipients
          .filter((recipient) => byThen(recipient.notifiedAt))
          .map((recipient) => ({ name: recipient.name, at: recipient.notifiedAt.toISOString() })),
        acknowledgement,
        cancellation,
      } satisfies ReportCriticalFinding;
    });
}

/**
 * Everything the version says. The signed version (1) is read in the signing transaction, names as they are at that
 * moment. An addendum reprints the report as signed: the signed version's stored inputs with the addenda after them;
 * when that version was never stored (signed before reports were kept), its inputs are read again, the critical
 * findings as they stood at the signing.
 */
export async function reportInputsOf(tx: Db, company: ReportCompany, version: VersionToIssue): Promise<ReportInputs> {
  if (version.version > 1) {
    const signed = (await findSignedVersionInputs(tx, version.interpretationId)) as ReportInputs | undefined;
    if (signed) {
      // biome-ignore lint/plugin/leading-spread-then-keys: the signed report's own version and kind, as this addendum's
      const report = { ...signed.report, version: version.version, kind: "addendum" as const };
      // biome-ignore lint/plugin/leading-spread-then-keys: the signed inputs' own report and addenda, as this version's
      return { ...signed, report: { ...report, issuedAt: version.issuedAt.toISOString() }, addenda: version.addenda };
    }
  }
  const asOf = version.version > 1 ? new Date(version.signedAt) : version.issuedAt;
  const caseRow = await requireCase(tx, version.caseId);
  const [client, details, criticalFindings] = await Promise.all([
    requireClient(tx, caseRow.clientId),
    getPatientDetails(tx, version.caseId, new Set()),
    criticalFindingsFor(tx, version, asOf),
  ]);
  const signer = version.atSigning && version.signedBy.sub ? await findUserById(tx, version.signedBy.sub) : undefined;
  const patient = details.current;
  const location = [patient.location.unit, patient.location.room, patient.location.bed].filter(Boolean).join(", ");
  const cityLine = [client.city, client.region, client.postalCode].filter(Boolean).join(" ");
  return {
    company,
    client: {
      id: client.id,
      name: client.name,
      code: client.code,
      timeZone: client.timezone,
      address: [client.addressLine1, client.addressLine2, cityLine, client.country].filter((line): line is string =>
        Boolean(line),
      ),
      phone: client.phone,
    },
    patient: {
      name: `${patient.lastName}, ${patient.firstName}`,
      firstName: patient.firstName,
      lastName: patient.lastName,
      mrn: patient.mrn,
      dateOfBirth: patient.dateOfBirth,
      sex: patient.sex,
      location: location || null,
      referringPhysician: patient.referringPhysician,
      indication: patient.indication,
      medications: patient.medications,
    },
    case: {
      id: caseRow.id,
      number: caseRow.caseNumber,
      studyType: caseRow.studyType,
      video: caseRow.hasVideo,
      recordingStartedAt: caseRow.recordingStartedAt?.toISOString() ?? null,
      recordingEndedAt: caseRow.recordingEndedAt?.toISOString() ?? null,
    },
    report: {
      interpretationId: version.interpretationId,
      version: version.version,
      kind: version.version === 1 ? "signed" : "addendum",
      reportType: version.data.reportType,
      title: reportTitleOf(version.data.reportType, version.data.periodFrom, version.data.periodTo, client.timezone),
      issuedAt: version.issuedAt.toISOString(),
    },
    interpretation: version.data,
    signedBy: version.signedBy,
    ...(signer ? { signerProfessional: signer.professional } : {}),
    signedAt: version.signedAt,
    addenda: version.addenda,
    criticalFindings,
  };
}

/**
 * Renders and stores one version in the caller's transaction. Undefined when that version is already stored (two
 * readers issuing a legacy report at once: the unique index lets one through).
 */
export async function storeReportVersion(
  tx: Db,
  company: ReportCompany,
  version: VersionToIssue,
): Promise<{ row: ReportVersionSummaryRow; inputs: ReportInputs; pdf: Buffer } | undefined> {
  const inputs = await reportInputsOf(tx, company, version);
  const pdf = await renderReportPdf(inputs);
  try {
    const row = await tx.transaction(async (savepoint) =>
      insertReportVersion(savepoint, {
        caseId: version.caseId,
        clientId: inputs.client.id,
        interpretationId: version.interpretationId,
        recordRevision: version.recordRevision,
        version: version.version,
        kind: inputs.report.kind,
        patientMrn: inputs.patient.mrn,
        patientName: inputs.patient.name,
        title: inputs.report.title,
        inputs: inputs as unknown as Record<string, unknown>,
        pdf: pdf.bytes,
        pdfSha256: pdf.sha256,
        pdfBytes: pdf.bytes.length,
        issuedAt: version.issuedAt,
      }),
    );
    return { row, inputs, pdf: pdf.bytes };
  } catch (error) {
    if (isUniqueViolation(error, "report_versions_interpretation_version_idx")) return undefined;
    throw error;
  }
}

/** The version numbers of an interpretation not stored yet, of the `1 + addenda` it has. */
export async function missingVersions(tx: Db, interpretationId: string, versions: number): Promise<number[]> {
  const stored = new Set(await findStoredVersionNumbers(tx, interpretationId));
  return Array.from({ length: versions }, (_, index) => index + 1).filter((version) => !stored.has(version));
}
