import { randomUUID } from "node:crypto";
import type { FhirServiceRequestInput, FhirTaskCancel, FhirTaskInput } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { AppError } from "../../errors/app-error.js";
import { FhirError } from "../../fhir/fhir-errors.js";
import {
  findOpenCasesOfPatient,
  getLatestPatientDetails,
  type InterfaceActor,
  type InterfacePatient,
} from "../cases/interface-cases-service.js";
import {
  cancelReceivedOrder,
  findReceivedOrder,
  logInterfaceMessage,
  takeNewOrder,
} from "../interfaces/order-service.js";
import {
  casePriorityOf,
  orderPatientOf,
  placerIdentifierOf,
  reasonOf,
  requesterOf,
  studyOf,
  unprocessable,
  visitNumberOf,
} from "./fhir-order-input.js";
import { findCaseOrderOfClient, findFhirOrderLog } from "./fhir-order-repository.js";
import { findProfileAuthority } from "./fhir-read-repository.js";
import { orderResourceOf } from "./fhir-read-service.js";
import { type FhirResource, type FhirSettings, hospitalSystem } from "./fhir-resource-common.js";

/**
 * Orders in (docs/design/FHIR.md, "Orders in"): a hospital's `ServiceRequest` opens the case in intake through the
 * same order-intake rules as an HL7 v2 ORM (`takeNewOrder`), and its `Task` asks Vigil to fulfil it. Each create
 * commits the case, its order, its row in the client's message log and its audit rows in one transaction; the
 * answer is the resource as reads serve it. The placer order number decides a retry: under an advisory lock on
 * (client, placer number) a second create — a retry, or another instance racing — finds the first's order.
 */

export type FhirOrderer = { clientId: string; systemClientId: string; ip?: string | undefined };

export type CreateAnswer = { status: 200 | 201; resource: FhirResource };

function actorOf(orderer: FhirOrderer): InterfaceActor {
  return {
    sub: null,
    username: `system:${orderer.systemClientId}`.slice(0, 200),
    name: `Hospital system ${orderer.systemClientId}`.slice(0, 200),
    ip: orderer.ip,
  };
}

/** `If-None-Exist: identifier=system|value` (or `identifier=value`): the only criterion a ServiceRequest takes. */
export function parseIfNoneExist(header: string | undefined): { system?: string; value: string } | undefined {
  if (header === undefined) return undefined;
  const params = [...new URLSearchParams(header.trim().replace(/^\?/, ""))];
  const [first] = params;
  if (params.length !== 1 || first?.[0] !== "identifier" || !first[1]) {
    throw new FhirError(
      400,
      "invalid",
      "If-None-Exist takes one search parameter here: identifier=<system>|<value> (the placer order number).",
      { expression: ["If-None-Exist"] },
    );
  }
  const token = first[1];
  const bar = token.indexOf("|");
  return bar < 0 ? { value: token } : { system: token.slice(0, bar) || undefined, value: token.slice(bar + 1) };
}

async function lockOn(tx: Db, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

type LogEntry = {
  resourceType: "ServiceRequest" | "Task" | "Task update";
  body: unknown;
  caseId: string | null;
  mrn: string | null;
  placer: string | null;
  status: "processed" | "rejected";
  answer: string;
  error?: string | null;
};

/**
 * The create's row in the client's message log, beside the HL7 v2 messages: the resource received as sent, the
 * answer's status as the acknowledgement. The sender is the hospital system's client id.
 */
async function logReceived(db: Db, orderer: FhirOrderer, entry: LogEntry): Promise<string> {
  const row = await logInterfaceMessage(db, {
    direction: "inbound",
    clientId: orderer.clientId,
    messageType: `FHIR ${entry.resourceType}`,
    controlId: randomUUID(),
    sendingApplication: orderer.systemClientId,
    sendingFacility: "FHIR R4",
    patientMrn: entry.mrn?.slice(0, 100) ?? null,
    orderNumber: entry.placer?.slice(0, 100) ?? null,
    caseId: entry.caseId,
    text: JSON.stringify(entry.body, null, 2),
    status: entry.status,
    ackCode: entry.answer.slice(0, 3),
    ack: entry.answer,
    error: entry.error ?? null,
    peer: orderer.ip?.slice(0, 100) ?? null,
    processedAt: new Date(),
  });
  return row?.id ?? "";
}

async function auditCreate(
  db: Db,
  orderer: FhirOrderer,
  type: "ServiceRequest" | "Task",
  outcome: "success" | "failure",
  details: Record<string, unknown>,
  caseId?: string,
  action: "fhir.create" | "fhir.update" = "fhir.create",
): Promise<void> {
  await recordAudit(db, {
    action,
    outcome,
    actor: { username: `system:${orderer.systemClientId}` },
    target: caseId ? { type, id: caseId } : undefined,
    ip: orderer.ip,
    details: { clientId: orderer.clientId, resourceType: type, ...details },
  });
}

/** As an inbound HL7 order is (inbound-service.ts): a write of patient data into the case, by the hospital's channel. */
async function auditPatientDataWrite(
  db: Db,
  orderer: FhirOrderer,
  caseId: string,
  messageId: string,
  resourceType: "ServiceRequest" | "Task" = "ServiceRequest",
) {
  await recordAudit(db, {
    action: "patient-data.write",
    outcome: "success",
    actor: { username: `system:${orderer.systemClientId}` },
    target: { type: "case", id: caseId },
    ip: orderer.ip,
    details: { channel: "fhir", messageId, resourceType },
  });
}

/**
 * A refused create: its audit row and its row in the message log (as a refused v2 message is kept), written after
 * the create's own transaction rolled back, so nothing of the order remains.
 */
export async function recordRefusedCreate(
  db: Db,
  orderer: FhirOrderer,
  type: "ServiceRequest" | "Task",
  body: unknown,
  error: FhirError,
  action: "fhir.create" | "fhir.update" = "fhir.create",
): Promise<void> {
  const diagnostics = error.issues[0]?.diagnostics ?? error.message;
  await db.transaction(async (tx) => {
    const messageId = await logReceived(tx, orderer, {
      resourceType: action === "fhir.update" ? "Task update" : type,
      body,
      caseId: null,
      mrn: null,
      placer: null,
      status: "rejected",
      answer: `${error.status} ${diagnostics}`.slice(0, 1000),
      error: diagnostics.slice(0, 1000),
    });
    await auditCreate(
      tx,
      orderer,
      type,
      "failure",
      { status: error.status, expression: error.issues[0]?.expression ?? null, messageId },
      undefined,
      action,
    );
  });
}

/** The patient of an order that names only an MRN: as Vigil holds them on that MRN's open case. */
async function knownPatient(tx: Db, clientId: string, mrn: string): Promise<InterfacePatient> {
  const [open] = await findOpenCasesOfPatient(tx, clientId, mrn);
  const details = open ? await getLatestPatientDetails(tx, open.id) : undefined;
  if (!details) {
    throw unprocessable(
      "ServiceRequest.subject",
      `No open case of MRN ${mrn.slice(0, 100)} is known to Vigil: send the patient as a contained Patient (identifier, name, gender, birthDate) with subject.reference "#<its id>".`,
    );
  }
  return {
    mrn,
    firstName: details.firstName,
    lastName: details.lastName,
    dateOfBirth: details.dateOfBirth,
    sex: details.sex,
    location: { unit: details.locationUnit, room: details.locationRoom, bed: details.locationBed },
  };
}

async function served(
  db: Db,
  settings: FhirSettings,
  clientId: string,
  type: "ServiceRequest" | "Task",
  caseId: string,
): Promise<FhirResource> {
  const resource = await orderResourceOf(db, settings, clientId, type, caseId);
  if (!resource) throw new Error(`${type}/${caseId} was written but cannot be read`);
  return resource;
}

/**
 * `POST /fhir/R4/ServiceRequest`: the case in intake, or — with `If-None-Exist` naming the placer identifier of an
 * order already received — that order, 200, nothing written. Without the header, a placer number already received is
 * a 409 `duplicate` naming the existing ServiceRequest: never a second case.
 */
export async function createServiceRequest(
  db: Db,
  settings: FhirSettings,
  orderer: FhirOrderer,
  request: FhirServiceRequestInput,
  ifNoneExist: string | undefined,
): Promise<CreateAnswer> {
  const condition = parseIfNoneExist(ifNoneExist);
  const { clientId } = orderer;
  const authority = await findProfileAuthority(db, clientId);
  const placerSystem = hospitalSystem(settings, clientId, "placer-order", null);
  const placerIdentifier = placerIdentifierOf(request.identifier);
  const placer = placerIdentifier.value.trim();
  if (/[\r\n\t]/.test(placer))
    throw unprocessable("ServiceRequest.identifier.value", "The placer order number spans lines.");
  const patientRead = orderPatientOf(request, hospitalSystem(settings, clientId, "mrn", authority));
  const order = {
    study: studyOf(request),
    priority: casePriorityOf(request.priority),
    visitNumber: visitNumberOf(request),
    orderingProvider: requesterOf(request),
    reason: reasonOf(request),
  };
  const matchesCondition = (system: string | undefined) =>
    system === undefined || system === placerSystem || system === placerIdentifier.system;

  let outcome: { status: 200 | 201; caseId: string };
  try {
    outcome = await db.transaction(async (tx) => {
      await lockOn(tx, `vigil:order:${clientId}:${placer}`);
      if (condition && matchesCondition(condition.system)) {
        if (condition.value !== placer) await lockOn(tx, `vigil:order:${clientId}:${condition.value}`);
        const existing = await findReceivedOrder(tx, clientId, condition.value);
        if (existing) {
          const messageId = await logReceived(tx, orderer, {
            resourceType: "ServiceRequest",
            body: request,
            caseId: existing.caseId,
            mrn: patientRead.mrn,
            placer,
            status: "processed",
            answer: `200 ServiceRequest/${existing.caseId} already exists (If-None-Exist); nothing changed.`,
          });
          await auditCreate(tx, orderer, "ServiceRequest", "success", { created: false, messageId }, existing.caseId);
          return { status: 200 as const, caseId: existing.caseId };
        }
      }
      const patient = patientRead.patient ?? (await knownPatient(tx, clientId, patientRead.mrn));
      const intake = await takeNewOrder(
        tx,
        {
          clientId,
          source: "fhir",
          placer,
          patient,
          mrnAssigningAuthority: authority,
          ...order,
          label: `FHIR ServiceRequest ${placer.slice(0, 40)}`,
        },
        actorOf(orderer),
      );
      if (intake.outcome !== "created") {
        const whose = intake.outcome === "other-patient" ? "another patient's order" : "an order already received";
        throw new FhirError(
          409,
          "duplicate",
          `Placer order number ${placer} is ${whose}: ServiceRequest/${intake.order.caseId} (${intake.order.fillerOrderNumber}). Send If-None-Exist: identifier=${placerSystem}|${placer} to have a retry answered with it.`,
          { expression: ["ServiceRequest.identifier"] },
        );
      }
      const caseId = intake.row.id;
      const messageId = await logReceived(tx, orderer, {
        resourceType: "ServiceRequest",
        body: request,
        caseId,
        mrn: patient.mrn,
        placer,
        status: "processed",
        answer: `201 ServiceRequest/${caseId} created as ${intake.row.caseNumber}.`,
      });
      await auditCreate(
        tx,
        orderer,
        "ServiceRequest",
        "success",
        { created: true, caseNumber: intake.row.caseNumber, messageId },
        caseId,
      );
      await auditPatientDataWrite(tx, orderer, caseId, messageId);
      return { status: 201 as const, caseId };
    });
  } catch (error) {
    if (isUniqueViolation(error, "case_orders_client_placer_idx")) {
      // The advisory lock serialises creates of one placer number; the index is the last word if it did not.
      throw new FhirError(
        409,
        "duplicate",
        `Placer order number ${placer} was received at the same moment in another request.`,
        {
          expression: ["ServiceRequest.identifier"],
        },
      );
    }
    if (error instanceof AppError && error.code === "conflict") {
      throw new FhirError(422, "processing", error.message, { expression: ["ServiceRequest"] });
    }
    throw error;
  }
  return { status: outcome.status, resource: await served(db, settings, clientId, "ServiceRequest", outcome.caseId) };
}

const serviceRequestReference = /^(?:.*\/)?ServiceRequest\/([0-9a-fA-F-]{36})$/;

/**
 * `POST /fhir/R4/Task`: the request to fulfil an order (its `focus`). Vigil keeps one Task per order, with the
 * order's id: the first create answers 201, every later one 200 with the same Task, so a retry is harmless. The
 * Task's state thereafter is the case's (`taskStatusOf`).
 */
export async function createTask(
  db: Db,
  settings: FhirSettings,
  orderer: FhirOrderer,
  task: FhirTaskInput,
): Promise<CreateAnswer> {
  const { clientId } = orderer;
  const caseId = serviceRequestReference.exec(task.focus.reference.trim())?.[1]?.toLowerCase();
  if (!caseId) {
    throw unprocessable(
      "Task.focus.reference",
      "Task.focus is the order to fulfil: ServiceRequest/<id> as created here.",
    );
  }
  const existing = await orderResourceOf(db, settings, clientId, "Task", caseId);
  if (!existing) {
    throw unprocessable("Task.focus.reference", `ServiceRequest/${caseId} is not an order of this hospital.`);
  }
  const forTask = existing.for as { reference?: string; identifier?: { system: string; value: string } };
  if (task.for?.reference && task.for.reference.replace(/^.*\/(Patient\/)/, "$1") !== forTask.reference) {
    throw unprocessable("Task.for.reference", `Task.for is the order's patient, ${forTask.reference}.`);
  }
  const forIdentifier = task.for?.identifier;
  if (
    forIdentifier &&
    (forIdentifier.value !== forTask.identifier?.value ||
      (forIdentifier.system !== undefined && forIdentifier.system !== forTask.identifier?.system))
  ) {
    throw unprocessable("Task.for.identifier", "Task.for names another patient than the order's.");
  }
  const status = await db.transaction(async (tx) => {
    await lockOn(tx, `vigil:task:${caseId}`);
    const before = await findFhirOrderLog(tx, clientId, caseId, "FHIR Task");
    const created = !before;
    const messageId = await logReceived(tx, orderer, {
      resourceType: "Task",
      body: task,
      caseId,
      mrn: forTask.identifier?.value ?? null,
      placer: null,
      status: "processed",
      answer: created ? `201 Task/${caseId} requested.` : `200 Task/${caseId} was already requested; nothing changed.`,
    });
    await auditCreate(tx, orderer, "Task", "success", { created, messageId }, caseId);
    return created ? (201 as const) : (200 as const);
  });
  return { status, resource: await served(db, settings, clientId, "Task", caseId) };
}

/**
 * `PUT /fhir/R4/Task/<id>` with `status: cancelled`: the hospital cancels its order, by the same rule as a v2 ORM CA
 * (`cancelReceivedOrder`): still in intake, the case is archived with the reason (`statusReason.text`) and the Task
 * reads cancelled; already cancelled, nothing changes (200 again); past intake, a 409 — the monitoring team stops a
 * running study, not a message.
 */
export async function cancelTask(
  db: Db,
  settings: FhirSettings,
  orderer: FhirOrderer,
  id: string,
  task: FhirTaskCancel,
): Promise<FhirResource> {
  const { clientId } = orderer;
  if (task.id !== id) {
    throw new FhirError(400, "invalid", `Task.id (${task.id.slice(0, 64)}) is not the id in the URL.`, {
      expression: ["Task.id"],
    });
  }
  const caseId = id.toLowerCase();
  const existing = /^[0-9a-f-]{36}$/.test(caseId)
    ? await orderResourceOf(db, settings, clientId, "Task", caseId)
    : undefined;
  if (!existing) throw new FhirError(404, "not-found", `Task/${id.slice(0, 64)} is not known to this server.`);
  const order = await findCaseOrderOfClient(db, clientId, caseId);
  if (!order) {
    throw unprocessable(
      "Task",
      "This order was opened by Vigil's staff, not received from the hospital: call the monitoring team to cancel it.",
    );
  }
  const reason =
    task.statusReason?.text?.trim() || task.statusReason?.coding?.find((coding) => coding.display)?.display || null;
  await db.transaction(async (tx) => {
    await lockOn(tx, `vigil:task:${caseId}`);
    const result = await cancelReceivedOrder(tx, order, reason?.slice(0, 500) ?? null, actorOf(orderer));
    if (result.outcome === "past-intake") {
      throw new FhirError(
        409,
        "conflict",
        `Order ${order.placerOrderNumber} (${order.fillerOrderNumber}) is already in ${result.row.stage}; it cannot be cancelled by the API — call the monitoring team.`,
        { expression: ["Task.status"] },
      );
    }
    const messageId = await logReceived(tx, orderer, {
      resourceType: "Task update",
      body: task,
      caseId,
      mrn: null,
      placer: order.placerOrderNumber,
      status: "processed",
      answer:
        result.outcome === "cancelled"
          ? `200 Task/${caseId} cancelled.`
          : `200 Task/${caseId} was already cancelled; nothing changed.`,
    });
    await auditCreate(
      tx,
      orderer,
      "Task",
      "success",
      { cancelled: result.outcome === "cancelled", messageId },
      caseId,
      "fhir.update",
    );
    if (result.outcome === "cancelled") await auditPatientDataWrite(tx, orderer, caseId, messageId, "Task");
  });
  return served(db, settings, clientId, "Task", caseId);
}
