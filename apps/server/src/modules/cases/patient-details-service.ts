import {
  type PatientDetailsHistory,
  type PatientDetailsRevision,
  type PatientDetailsView,
  type Permission,
  recordReasonRequired,
  recordWriteRefusal,
  type updatePatientDetailsRequestSchema,
} from "@vigil/contract";
import type { z } from "zod";
import { auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { AppError } from "../../errors/app-error.js";
import { assertVersion } from "../../http/versioning.js";
import { recordCaseChange } from "../watch/watch-service.js";
import {
  type CaseRow,
  findLatestPatientDetails,
  findPatientDetailsHistory,
  insertPatientDetails,
  type PatientDetailsRow,
  updateCaseRow,
} from "./cases-repository.js";
import { type CaseActor, caseAuditTarget, requireCase } from "./cases-service.js";

type UpdatePatientDetailsInput = z.output<typeof updatePatientDetailsRequestSchema>;

/**
 * Patient details (PRODUCT.md §4): one per case, append-only revisions in `case_patient_details`; the revision
 * number is the ETag. Corrections after monitoring carry a reason (ACNS Guideline 4: identification errors are
 * corrected, visibly). The case row keeps a copy of the MRN and name for the queues' search indexes.
 */

export function toPatientDetailsRevision(row: PatientDetailsRow): PatientDetailsRevision {
  return {
    id: row.id,
    caseId: row.caseId,
    revision: row.revision,
    mrn: row.mrn,
    firstName: row.firstName,
    lastName: row.lastName,
    dateOfBirth: row.dateOfBirth,
    sex: row.sex,
    location: { unit: row.locationUnit, room: row.locationRoom, bed: row.locationBed },
    referringPhysician: row.referringPhysician,
    indication: row.indication,
    medications: row.medications,
    notes: row.notes,
    reason: row.reason,
    author: { sub: row.authorSub, username: row.authorUsername, name: row.authorName },
    createdAt: row.createdAt.toISOString(),
  };
}

function writeState(row: CaseRow, permissions: ReadonlySet<Permission>) {
  const { stage } = row;
  const refusal = recordWriteRefusal("patient-details", { stage, archived: row.archivedAt !== null }, permissions);
  return {
    allowed: !refusal,
    reason: refusal?.message ?? null,
    reasonRequired: recordReasonRequired("patient-details", stage),
  };
}

async function requireLatest(db: Db, row: CaseRow): Promise<PatientDetailsRow> {
  const latest = await findLatestPatientDetails(db, row.id);
  // Every case is opened with revision 1; a case without one was written outside the API.
  if (!latest) throw new AppError("not_found", `${row.caseNumber} has no patient details.`);
  return latest;
}

/** `GET patient-details`: the current revision and whether the caller may change it now. */
export async function getPatientDetails(
  db: Db,
  caseId: string,
  permissions: ReadonlySet<Permission>,
): Promise<PatientDetailsView> {
  const row = await requireCase(db, caseId);
  const latest = await requireLatest(db, row);
  return {
    caseId,
    stage: row.stage,
    current: toPatientDetailsRevision(latest),
    write: writeState(row, permissions),
  };
}

/** `GET patient-details/revisions`: every revision, oldest first. */
export async function getPatientDetailsHistory(db: Db, caseId: string): Promise<PatientDetailsHistory> {
  await requireCase(db, caseId);
  const rows = await findPatientDetailsHistory(db, caseId);
  return { caseId, revisions: rows.map(toPatientDetailsRevision) };
}

const identifying = ["mrn", "firstName", "lastName", "dateOfBirth"] as const;

function changedFields(before: PatientDetailsRevision, after: PatientDetailsRevision): string[] {
  const fields = [
    ...identifying,
    "sex",
    "location",
    "referringPhysician",
    "indication",
    "medications",
    "notes",
  ] as const;
  return fields.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/**
 * `PUT patient-details` (If-Match = the revision read): appends revision N+1 under the case row lock, copies the
 * identifying fields to the case row (a new case version) and audits which fields changed, never their values.
 */
export async function updatePatientDetails(
  db: Db,
  caseId: string,
  expectedRevisions: readonly number[],
  input: UpdatePatientDetailsInput,
  actor: CaseActor,
  permissions: ReadonlySet<Permission>,
): Promise<PatientDetailsRevision> {
  try {
    return await db.transaction(async (tx) => {
      const locked = await requireCase(tx, caseId, "update");
      const refusal = recordWriteRefusal(
        "patient-details",
        { stage: locked.stage, archived: locked.archivedAt !== null },
        permissions,
      );
      if (refusal) throw new AppError(refusal.code, refusal.message, { stage: locked.stage, area: "patient-details" });
      const latest = await requireLatest(tx, locked);
      assertVersion(expectedRevisions, { version: latest.revision }, () => toPatientDetailsRevision(latest));
      const reason = input.reason?.trim() || null;
      if (!reason && recordReasonRequired("patient-details", locked.stage)) {
        const issue = {
          path: "body.reason",
          message: `is required to correct patient details once monitoring has ended (the case is in ${locked.stage})`,
        };
        throw new AppError("bad_request", `Invalid request: ${issue.path} ${issue.message}`, { issues: [issue] });
      }
      const row = await insertPatientDetails(tx, {
        caseId,
        revision: latest.revision + 1,
        mrn: input.mrn,
        firstName: input.firstName,
        lastName: input.lastName,
        dateOfBirth: input.dateOfBirth ?? null,
        sex: input.sex,
        locationUnit: input.location.unit ?? null,
        locationRoom: input.location.room ?? null,
        locationBed: input.location.bed ?? null,
        referringPhysician: input.referringPhysician ?? null,
        indication: input.indication ?? null,
        medications: input.medications ?? null,
        notes: input.notes ?? null,
        reason,
        authorSub: actor.sub,
        authorUsername: actor.username,
        authorName: actor.name,
      });
      const after = await updateCaseRow(tx, caseId, {
        patientMrn: row.mrn,
        patientFirstName: row.firstName,
        patientLastName: row.lastName,
      });
      const revision = toPatientDetailsRevision(row);
      // The audit row names the fields that changed, never their values: the audit log is read more widely.
      await recordAudit(
        tx,
        auditedWrite(actor, "case.patient-details.update", caseAuditTarget(after), {
          caseNumber: after.caseNumber,
          revision: row.revision,
          baseRevision: latest.revision,
          stage: after.stage,
          reasonGiven: reason !== null,
          changedFields: changedFields(toPatientDetailsRevision(latest), revision),
          version: after.version,
        }),
      );
      await recordCaseChange(tx, { caseId: after.id, clientId: after.clientId, change: "patient" });
      return revision;
    });
  } catch (error) {
    // The case lock serialises writers; the unique (case, revision) index is the last line of defence.
    if (!isUniqueViolation(error, "case_patient_details_case_revision_idx")) throw error;
    throw new AppError("conflict", "The patient details were changed by someone else at the same moment; reload them.");
  }
}
