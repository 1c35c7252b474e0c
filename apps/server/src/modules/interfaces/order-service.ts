import type { CasePriority, StudyType } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import type { CaseRow } from "../cases/cases-service.js";
import {
  cancelCaseFromInterface,
  differingPatientFields,
  findOpenCaseForInterface,
  findOpenCasesOfPatient,
  getLatestPatientDetails,
  type InterfaceActor,
  type InterfacePatient,
  openCaseFromInterface,
  recordInterfaceCaseAction,
  updateCaseFromInterface,
  updatePatientFromInterface,
} from "../cases/interface-cases-service.js";
import { InboundProblem, type InboundProfile, type InboundReader, problemAt } from "./inbound-fields.js";
import { locationText, readPatient, readVisitNumber } from "./inbound-patient.js";
import {
  type CaseOrderRow,
  findOrderByPlacer,
  type Hl7MessageRow,
  type Hl7MessageValues,
  insertCaseOrder,
  insertInboundMessage,
  updateCaseOrder,
} from "./inbound-repository.js";
import { priorityOf, recognisedStudyType, studyTypeOf } from "./order-study-types.js";

/** What one message did, for its row in the message log and the ACK's text. */
/** The study-type and priority rules the v2 order path reads ORC/OBR with, for the FHIR order path too. */
export { priorityOf, recognisedStudyType, studyTypeOf };

/** The order a client's placer number was received as, on either channel (undefined if none). */
export async function findReceivedOrder(
  tx: Db,
  clientId: string,
  placerOrderNumber: string,
): Promise<CaseOrderRow | undefined> {
  return findOrderByPlacer(tx, clientId, placerOrderNumber);
}

/** A message received on another channel (a FHIR order), kept in the client's log beside the v2 messages. */
export async function logInterfaceMessage(db: Db, values: Hl7MessageValues): Promise<Hl7MessageRow | undefined> {
  return insertInboundMessage(db, values);
}

export type InboundEffect = {
  caseId: string | null;
  patientMrn: string | null;
  orderNumber: string | null;
  /** MSA-3 of the AA: plain words for the sender's interface team. */
  text: string;
};

export type InboundContext = {
  tx: Db;
  reader: InboundReader;
  profile: InboundProfile;
  actor: InterfaceActor;
  /** `ORM^O01 MSH-10 123`, for reasons written on revisions. */
  label: string;
};

const placerAddresses = [
  { segment: "ORC", field: 2, component: 1 },
  { segment: "OBR", field: 2, component: 1 },
] as const;

function readPlacer(reader: InboundReader): string {
  const placer = reader.first(...placerAddresses);
  if (!placer) {
    throw new InboundProblem(
      "error",
      101,
      "ORC-2 or OBR-2 (the placer order number) is required.",
      problemAt({ segment: "ORC", field: 2 }),
    );
  }
  if (placer.length > 100) {
    throw new InboundProblem(
      "error",
      102,
      "The placer order number is over 100 characters.",
      problemAt(placerAddresses[0]),
    );
  }
  return placer;
}

/** ORM^O01 and OML^O21: ORC-1 says what the hospital does with the order. */
export async function applyOrderMessage(context: InboundContext): Promise<InboundEffect> {
  const control = context.reader.value({ segment: "ORC", field: 1 }).toUpperCase();
  if (!context.reader.has("ORC")) {
    throw new InboundProblem("error", 101, "The ORC segment (common order) is required.", { segment: "ORC" });
  }
  switch (control) {
    case "NW":
      return newOrder(context);
    case "CA":
    case "DC":
      return cancelOrder(context);
    case "XO":
      return changeOrder(context);
    case "":
      throw new InboundProblem(
        "error",
        101,
        "ORC-1 (order control) is required.",
        problemAt({ segment: "ORC", field: 1 }),
      );
    default:
      throw new InboundProblem(
        "error",
        103,
        `ORC-1 "${control.slice(0, 10)}" is not taken here: this interface takes NW, CA (or DC) and XO.`,
        problemAt({ segment: "ORC", field: 1 }),
      );
  }
}

function orderFields(context: InboundContext, patient: InterfacePatient) {
  const { reader, profile } = context;
  return {
    visitNumber: readVisitNumber(reader, profile),
    orderingProvider: reader.person("ORC", 12) ?? reader.person("OBR", 16),
    reason: reader.coded("OBR", 31) ?? reader.coded("ORC", 16),
    location: locationText(patient),
  };
}

/** ORC-7.6, else OBR-27.6, else TQ1-9: the order's priority code, "" when none is sent. */
function readPriorityCode(reader: InboundReader): string {
  return reader.first(
    { segment: "ORC", field: 7, component: 6 },
    { segment: "OBR", field: 27, component: 6 },
    { segment: "TQ1", field: 9, component: 1 },
  );
}

/**
 * A new order as either interface reads it (HL7 v2 ORM/OML here, FHIR ServiceRequest in `modules/fhir`): the one
 * place the order-intake rules live, so both channels match orders and patients alike.
 */
export type IncomingOrder = {
  clientId: string;
  source: "hl7" | "fhir";
  placer: string;
  patient: InterfacePatient;
  mrnAssigningAuthority: string | null;
  study: { study: StudyType; hasVideo: boolean };
  priority: CasePriority;
  visitNumber: string | null;
  orderingProvider: string | null;
  reason: string | null;
  /** For the timeline's conflict note: `ORM^O01 MSH-10 123`, `FHIR ServiceRequest`. */
  label: string;
};

/**
 * What taking a new order did: a case opened in intake, or the order already known by its placer number within the
 * client (a resend: nothing changes), or that placer number already another patient's order (refused by the caller).
 */
export type OrderIntake =
  | { outcome: "created"; row: CaseRow; differing: string[]; keptFrom: string | null }
  | { outcome: "repeated"; order: CaseOrderRow }
  | { outcome: "other-patient"; order: CaseOrderRow };

/**
 * The order-intake rules: a placer number already received finds its case; the same patient with an open case
 * gives the new case the demographics Vigil already holds and puts the difference before the coordinator (PRODUCT.md:
 * never silently overwritten). Runs in the caller's transaction.
 */
export async function takeNewOrder(tx: Db, order: IncomingOrder, actor: InterfaceActor): Promise<OrderIntake> {
  const { patient } = order;
  const existing = await findOrderByPlacer(tx, order.clientId, order.placer);
  if (existing) {
    const details = await getLatestPatientDetails(tx, existing.caseId);
    return details && details.mrn !== patient.mrn
      ? { outcome: "other-patient", order: existing }
      : { outcome: "repeated", order: existing };
  }
  const [open] = await findOpenCasesOfPatient(tx, order.clientId, patient.mrn);
  const known = open ? await getLatestPatientDetails(tx, open.id) : undefined;
  const differing = known ? differingPatientFields(known, patient) : [];
  const kept: InterfacePatient =
    known && differing.length > 0
      ? // biome-ignore lint/plugin/leading-spread-then-keys: the patient's own demographics, as Vigil holds them
        {
          ...patient,
          firstName: known.firstName,
          lastName: known.lastName,
          dateOfBirth: known.dateOfBirth,
          sex: known.sex,
        }
      : patient;
  const created = await openCaseFromInterface(
    tx,
    {
      clientId: order.clientId,
      studyType: order.study.study,
      hasVideo: order.study.hasVideo,
      priority: order.priority,
      patient: kept,
      referringPhysician: order.orderingProvider?.slice(0, 200) ?? null,
      indication: order.reason?.slice(0, 2000) ?? null,
      source: order.source,
    },
    actor,
  );
  await insertCaseOrder(tx, {
    caseId: created.id,
    clientId: order.clientId,
    source: order.source,
    placerOrderNumber: order.placer,
    fillerOrderNumber: created.caseNumber,
    mrnAssigningAuthority: order.mrnAssigningAuthority,
    visitNumber: order.visitNumber,
    orderingProvider: order.orderingProvider,
    reason: order.reason,
    location: locationText(patient),
  });
  if (known && open && differing.length > 0) {
    const received = Object.fromEntries(differing.map((field) => [field, patient[field as keyof InterfacePatient]]));
    await recordInterfaceCaseAction(
      tx,
      actor,
      created,
      "interface-demographics-conflict",
      { fields: differing, received, keptFrom: open.caseNumber, message: order.label },
      { fields: differing, keptFrom: open.caseNumber },
    );
  }
  return {
    outcome: "created",
    row: created,
    differing,
    keptFrom: differing.length > 0 ? (open?.caseNumber ?? null) : null,
  };
}

async function newOrder(context: InboundContext): Promise<InboundEffect> {
  const { tx, reader, profile, actor } = context;
  const placer = readPlacer(reader);
  const patient = readPatient(reader, profile);
  const fields = orderFields(context, patient);
  const intake = await takeNewOrder(
    tx,
    {
      clientId: profile.clientId,
      source: "hl7",
      placer,
      patient,
      mrnAssigningAuthority: profile.mrnAssigningAuthority,
      study: studyTypeOf(
        reader.value({ segment: "OBR", field: 4, component: 1 }),
        reader.value({ segment: "OBR", field: 4, component: 2 }),
      ),
      priority: priorityOf(readPriorityCode(reader)),
      visitNumber: fields.visitNumber,
      orderingProvider: fields.orderingProvider,
      reason: fields.reason,
      label: context.label,
    },
    actor,
  );
  if (intake.outcome === "other-patient") {
    throw new InboundProblem(
      "error",
      205,
      `Placer order number ${placer} already belongs to another patient's order (${intake.order.fillerOrderNumber}).`,
      problemAt(placerAddresses[0]),
    );
  }
  if (intake.outcome === "repeated") {
    return {
      caseId: intake.order.caseId,
      patientMrn: patient.mrn,
      orderNumber: placer,
      text: `Order ${placer} was already received as ${intake.order.fillerOrderNumber}; nothing changed.`,
    };
  }
  const conflict = intake.keptFrom ? `; patient details differ from ${intake.keptFrom} (kept Vigil's)` : "";
  return {
    caseId: intake.row.id,
    patientMrn: patient.mrn,
    orderNumber: placer,
    text: `Order ${placer} received as ${intake.row.caseNumber}${conflict}.`,
  };
}

async function requireOrder(context: InboundContext, placer: string): Promise<CaseOrderRow> {
  const order = await findOrderByPlacer(context.tx, context.profile.clientId, placer);
  if (!order) {
    throw new InboundProblem(
      "error",
      204,
      `No order ${placer} was received from this sender.`,
      problemAt(placerAddresses[0]),
    );
  }
  return order;
}

/**
 * The hospital cancels an order it sent (v2 ORC-1 CA/DC, FHIR Task `cancelled`): an order still in intake is
 * archived with the reason; one past intake is the monitoring team's to stop, so the caller refuses it.
 */
export async function cancelReceivedOrder(
  tx: Db,
  order: CaseOrderRow,
  reason: string | null,
  actor: InterfaceActor,
): Promise<Awaited<ReturnType<typeof cancelCaseFromInterface>>> {
  const result = await cancelCaseFromInterface(tx, order.caseId, reason, actor);
  if (result.outcome === "cancelled") {
    await updateCaseOrder(tx, order.caseId, { cancelledAt: new Date(), cancelReason: reason });
  }
  return result;
}

async function cancelOrder(context: InboundContext): Promise<InboundEffect> {
  const { tx, reader, actor } = context;
  const placer = readPlacer(reader);
  const order = await requireOrder(context, placer);
  const mrn = reader.value({ segment: "PID", field: 3, component: 1 }) || null;
  const reason = (reader.coded("ORC", 16) ?? reader.coded("OBR", 31))?.slice(0, 500) ?? null;
  const result = await cancelReceivedOrder(tx, order, reason, actor);
  if (result.outcome === "past-intake") {
    throw new InboundProblem(
      "error",
      207,
      `Order ${placer} (${order.fillerOrderNumber}) is already in ${result.row.stage}; it cannot be cancelled by message — call the monitoring team.`,
      problemAt({ segment: "ORC", field: 1 }),
    );
  }
  const words = result.outcome === "cancelled" ? "cancelled" : "was already cancelled";
  return {
    caseId: order.caseId,
    patientMrn: mrn,
    orderNumber: placer,
    text: `Order ${placer} (${order.fillerOrderNumber}) ${words}.`,
  };
}

const caseFieldWords: Record<string, string> = { studyType: "study type", hasVideo: "video", priority: "priority" };

async function changeOrder(context: InboundContext): Promise<InboundEffect> {
  const { tx, reader, profile, actor } = context;
  const placer = readPlacer(reader);
  const order = await requireOrder(context, placer);
  const open = await findOpenCaseForInterface(tx, order.caseId);
  if (!open) {
    throw new InboundProblem(
      "error",
      207,
      `Order ${placer} (${order.fillerOrderNumber}) is closed or cancelled in Vigil; it no longer changes.`,
      problemAt({ segment: "ORC", field: 1 }),
    );
  }
  const patient = readPatient(reader, profile);
  if (open.patientMrn !== patient.mrn) {
    throw new InboundProblem(
      "error",
      204,
      `Order ${placer} belongs to another MRN; a change cannot move an order to another patient.`,
      problemAt({ segment: "PID", field: 3, component: 1 }),
    );
  }
  const fields = orderFields(context, patient);
  // Fields the change leaves empty keep what the order had.
  const values = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
  if (Object.keys(values).length > 0) {
    await updateCaseOrder(tx, order.caseId, values);
    const details = { source: "hl7", orderFields: Object.keys(values), message: context.label };
    await recordInterfaceCaseAction(tx, actor, open, "update", details);
  }
  // The study type and priority change only when the message carries them: an OBR-4 no rule recognises, or no
  // priority, keeps what the case has (perhaps the coordinator's correction).
  const study = recognisedStudyType(
    reader.value({ segment: "OBR", field: 4, component: 1 }),
    reader.value({ segment: "OBR", field: 4, component: 2 }),
  );
  const priorityCode = readPriorityCode(reader);
  const caseFields = await updateCaseFromInterface(
    tx,
    order.caseId,
    Object.assign(
      {},
      study ? { studyType: study.study, hasVideo: study.hasVideo } : {},
      priorityCode ? { priority: priorityOf(priorityCode) } : {},
    ),
    `Changed by the hospital's order update (${context.label}).`,
    actor,
  );
  const revision = await updatePatientFromInterface(
    tx,
    order.caseId,
    patient,
    `Changed by the hospital's order update (${context.label}).`,
    actor,
  );
  const changed =
    (caseFields.length > 0 ? `; ${caseFields.map((field) => caseFieldWords[field] ?? field).join(", ")} changed` : "") +
    (revision ? `; patient details revision ${revision}` : "");
  return {
    caseId: order.caseId,
    patientMrn: patient.mrn,
    orderNumber: placer,
    text: `Order ${placer} (${order.fillerOrderNumber}) updated${changed}.`,
  };
}
