import type { CasePriority, PatientDetailsRevision, StudyType } from "@vigil/contract";

type PatientSex = PatientDetailsRevision["sex"];

import { and, desc, eq, isNull, ne } from "drizzle-orm";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { cases } from "../../db/schema.js";
import { AppError } from "../../errors/app-error.js";
import { requireWritableClient } from "../clients/clients-service.js";
import { recordCaseChange } from "../watch/watch-service.js";
import {
  type CaseActionRow,
  type CaseRow,
  findLatestPatientDetails,
  insertCase,
  insertCaseAction,
  insertPatientDetails,
  nextCaseNumberValue,
  type PatientDetailsRow,
  updateCaseRow,
} from "./cases-repository.js";
import { caseAuditTarget, caseNumberOf, requireCase } from "./cases-service.js";

/**
 * The case verbs a hospital interface uses (docs/design/HL7.md, "Inbound"). Each runs in the caller's transaction,
 * so an inbound message's row and its effect commit together before the ACK. The actor is the interface itself:
 * no user (sub null), a username naming the interface, and the sender's address in the audit row.
 */
export type InterfaceActor = { sub: null; username: string; name: string; ip?: string | undefined };

/** The demographics an order or an ADT message carries. */
export type InterfacePatient = {
  mrn: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  sex: PatientSex;
  location: { unit: string | null; room: string | null; bed: string | null };
};

export type InterfaceCaseInput = {
  clientId: string;
  studyType: StudyType;
  hasVideo: boolean;
  priority: CasePriority;
  patient: InterfacePatient;
  referringPhysician: string | null;
  indication: string | null;
  /** Which interface the order came by (the timeline says so); HL7 v2 unless given. */
  source?: "hl7" | "fhir";
};

function auditActor(actor: InterfaceActor) {
  return { sub: null, username: actor.username };
}

/** A timeline action and its audit row (audit details name no patient data). */
export async function recordInterfaceCaseAction(
  tx: Db,
  actor: InterfaceActor,
  row: CaseRow,
  action: CaseActionRow["action"],
  details: Record<string, unknown>,
  auditDetails: Record<string, unknown> = details,
): Promise<void> {
  await insertCaseAction(tx, {
    caseId: row.id,
    action,
    details,
    actorSub: null,
    actorUsername: actor.username,
    actorName: actor.name,
  });
  await recordAudit(tx, {
    action: `case.${action}`,
    outcome: "success",
    actor: auditActor(actor),
    target: caseAuditTarget(row),
    ip: actor.ip,
    details: { caseNumber: row.caseNumber, ...auditDetails },
  });
  await recordCaseChange(tx, { caseId: row.id, clientId: row.clientId, change: "case" });
}

/** Opens a case in intake from a hospital order, with patient-details revision 1 written by the interface. */
export async function openCaseFromInterface(
  tx: Db,
  input: InterfaceCaseInput,
  actor: InterfaceActor,
): Promise<CaseRow> {
  const client = await requireWritableClient(tx, input.clientId, "share");
  if (client.status !== "active") {
    throw new AppError("conflict", `${client.name} is inactive in Vigil; orders are taken for active clients only.`);
  }
  const { patient } = input;
  const created = await insertCase(tx, {
    caseNumber: caseNumberOf(await nextCaseNumberValue(tx), new Date()),
    clientId: client.id,
    studyType: input.studyType,
    hasVideo: input.hasVideo,
    priority: input.priority,
    stage: "intake",
    patientMrn: patient.mrn,
    patientFirstName: patient.firstName,
    patientLastName: patient.lastName,
    createdBySub: null,
    createdByUsername: actor.username,
    createdByName: actor.name,
  });
  await insertPatientDetails(tx, {
    caseId: created.id,
    revision: 1,
    ...patientColumns(patient),
    referringPhysician: input.referringPhysician,
    indication: input.indication,
    authorSub: null,
    authorUsername: actor.username,
    authorName: actor.name,
  });
  await recordInterfaceCaseAction(tx, actor, created, "create", {
    clientId: client.id,
    studyType: created.studyType,
    priority: created.priority,
    hasVideo: created.hasVideo,
    patientDetailsRevision: 1,
    source: input.source ?? "hl7",
  });
  return created;
}

function patientColumns(patient: InterfacePatient) {
  return {
    mrn: patient.mrn,
    firstName: patient.firstName,
    lastName: patient.lastName,
    dateOfBirth: patient.dateOfBirth,
    sex: patient.sex,
    locationUnit: patient.location.unit,
    locationRoom: patient.location.room,
    locationBed: patient.location.bed,
  };
}

/** The open (not closed, not archived) cases of one MRN within a client, newest first. */
export async function findOpenCasesOfPatient(tx: Db, clientId: string, mrn: string): Promise<CaseRow[]> {
  return tx
    .select()
    .from(cases)
    .where(
      and(eq(cases.clientId, clientId), eq(cases.patientMrn, mrn), ne(cases.stage, "closed"), isNull(cases.archivedAt)),
    )
    .orderBy(desc(cases.createdAt));
}

export async function getLatestPatientDetails(tx: Db, caseId: string): Promise<PatientDetailsRow | undefined> {
  return findLatestPatientDetails(tx, caseId);
}

/** Which identifying or demographic fields of `patient` differ from a stored revision (names only, no values). */
export function differingPatientFields(stored: PatientDetailsRow, patient: InterfacePatient): string[] {
  const fields: string[] = [];
  if (stored.firstName !== patient.firstName) fields.push("firstName");
  if (stored.lastName !== patient.lastName) fields.push("lastName");
  if (patient.dateOfBirth !== null && stored.dateOfBirth !== patient.dateOfBirth) fields.push("dateOfBirth");
  if (patient.sex !== "unknown" && stored.sex !== patient.sex) fields.push("sex");
  return fields;
}

function locationDiffers(stored: PatientDetailsRow, patient: InterfacePatient): boolean {
  const { unit, room, bed } = patient.location;
  if (unit === null && room === null && bed === null) return false;
  return stored.locationUnit !== unit || stored.locationRoom !== room || stored.locationBed !== bed;
}

/**
 * Appends a patient-details revision from the hospital (an ADT update, a changed order), under the case row lock,
 * when anything differs; returns the new revision number, or undefined when nothing changed. Fields the message
 * leaves empty keep their stored values. The reason names the message, as a correction after monitoring needs one.
 */
export async function updatePatientFromInterface(
  tx: Db,
  caseId: string,
  patient: InterfacePatient,
  reason: string,
  actor: InterfaceActor,
): Promise<number | undefined> {
  const locked = await requireCase(tx, caseId, "update");
  const latest = await findLatestPatientDetails(tx, caseId);
  if (!latest) return undefined;
  const changed = differingPatientFields(latest, patient);
  const moved = locationDiffers(latest, patient);
  if (changed.length === 0 && !moved) return undefined;
  const merged: InterfacePatient = {
    mrn: latest.mrn,
    firstName: patient.firstName,
    lastName: patient.lastName,
    dateOfBirth: patient.dateOfBirth ?? latest.dateOfBirth,
    sex: patient.sex === "unknown" ? latest.sex : patient.sex,
    location: moved
      ? patient.location
      : { unit: latest.locationUnit, room: latest.locationRoom, bed: latest.locationBed },
  };
  const row = await insertPatientDetails(tx, {
    caseId,
    revision: latest.revision + 1,
    ...patientColumns(merged),
    referringPhysician: latest.referringPhysician,
    indication: latest.indication,
    medications: latest.medications,
    notes: latest.notes,
    reason,
    authorSub: null,
    authorUsername: actor.username,
    authorName: actor.name,
  });
  const after = await updateCaseRow(tx, caseId, {
    patientMrn: row.mrn,
    patientFirstName: row.firstName,
    patientLastName: row.lastName,
  });
  await recordAudit(tx, {
    action: "case.patient-details.update",
    outcome: "success",
    actor: auditActor(actor),
    target: caseAuditTarget(after),
    ip: actor.ip,
    details: {
      caseNumber: after.caseNumber,
      revision: row.revision,
      baseRevision: latest.revision,
      stage: locked.stage,
      reasonGiven: true,
      changedFields: moved ? [...changed, "location"] : changed,
      version: after.version,
      source: "hl7",
    },
  });
  await recordCaseChange(tx, { caseId: after.id, clientId: after.clientId, change: "patient" });
  return row.revision;
}

/**
 * A hospital's cancellation of an order still in intake archives its case (as a coordinator's archive does: it
 * leaves every queue and keeps its history), with the reason on the timeline. A case past intake is refused: the
 * monitoring team decides.
 */
export async function cancelCaseFromInterface(
  tx: Db,
  caseId: string,
  reason: string | null,
  actor: InterfaceActor,
): Promise<{ outcome: "cancelled" | "already-archived" } | { outcome: "past-intake"; row: CaseRow }> {
  const locked = await requireCase(tx, caseId, "update");
  if (locked.archivedAt) return { outcome: "already-archived" };
  if (locked.stage !== "intake") return { outcome: "past-intake", row: locked };
  const after = await updateCaseRow(tx, caseId, { archivedAt: new Date() });
  await recordInterfaceCaseAction(
    tx,
    actor,
    after,
    "archive",
    { stage: locked.stage, source: "hl7", reason },
    { stage: locked.stage, source: "hl7", reasonGiven: reason !== null },
  );
  return { outcome: "cancelled" };
}

/**
 * A hospital's order change carrying a study type, video or priority: the case takes them as an update by the
 * interface (timeline and audit, with the reason naming the message), as a coordinator's PATCH would; a case made
 * STAT needs a fresh acknowledgement. Only what differs is written; the names of the changed fields are returned.
 */
export async function updateCaseFromInterface(
  tx: Db,
  caseId: string,
  input: { studyType?: StudyType; hasVideo?: boolean; priority?: CasePriority },
  reason: string,
  actor: InterfaceActor,
): Promise<string[]> {
  const locked = await requireCase(tx, caseId, "update");
  const values: Partial<CaseRow> = {};
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of ["studyType", "hasVideo", "priority"] as const) {
    const value = input[field];
    if (value === undefined || value === locked[field]) continue;
    Object.assign(values, { [field]: value });
    changes[field] = { from: locked[field], to: value };
  }
  const fields = Object.keys(changes);
  if (fields.length === 0) return [];
  if (values.priority === "stat") {
    Object.assign(values, {
      acknowledgedAt: null,
      acknowledgedBySub: null,
      acknowledgedByUsername: null,
      acknowledgedByName: null,
    });
  }
  const after = await updateCaseRow(tx, caseId, values);
  await recordInterfaceCaseAction(tx, actor, after, "update", {
    version: after.version,
    changes,
    cause: reason,
    source: "hl7",
  });
  return fields;
}

/** A case by id for an interface write, locked; undefined when archived or closed (no longer open). */
export async function findOpenCaseForInterface(tx: Db, caseId: string): Promise<CaseRow | undefined> {
  const row = await requireCase(tx, caseId, "update");
  return row.archivedAt || row.stage === "closed" ? undefined : row;
}
