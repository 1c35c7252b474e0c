import type { Db } from "../../db/client.js";
import { newControlId } from "../../hl7/hl7-ack.js";
import { enqueueJob } from "../../jobs/job-queue.js";
import { requireCase } from "../cases/cases-service.js";
import { getLatestPatientDetails } from "../cases/interface-cases-service.js";
import { buildOrderStatusMessage, type OrderStatusCode } from "./order-status-message.js";
import { findCaseOrder, hasOrderStatusMessage, insertOutboundMessage } from "./outbound-repository.js";
import { getCurrentInterfaceProfile } from "./profile-service.js";
import { resultJobKind } from "./result-job-kind.js";
import { vigilSendingApplication } from "./result-message.js";

/** The case whose order's status changed, as the caller's transaction sees it. */
export type OrderStatusChange = {
  caseId: string;
  clientId: string;
  caseNumber: string;
  studyType: string;
  status: OrderStatusCode;
};

/**
 * In the transaction of the change (monitoring started, report signed, case archived): when the case came from the
 * hospital's order and the client's profile is on, has a destination and asks for order status updates, the status
 * message is built once — text and MSH-10 fixed from here on — stored as an outbound `queued` row of the message log
 * and its job enqueued, exactly as a result message is; each status at most once per case. The `hl7-result` job sends it: the same tries, back-off and
 * AE/AR → failed for good. Nothing otherwise (a case typed in by a coordinator has no order to report on).
 */
export async function queueOrderStatusMessage(
  settings: { sendingFacility: string },
  tx: Db,
  change: OrderStatusChange,
): Promise<string | undefined> {
  const profile = await getCurrentInterfaceProfile(tx, change.clientId);
  if (!profile?.enabled || !profile.destination || !profile.orderStatusUpdates) return undefined;
  const order = await findCaseOrder(tx, change.caseId);
  if (!order) return undefined;
  // Each status once per order: a case returned to monitoring and signed again completed its order already.
  if (await hasOrderStatusMessage(tx, change.caseId, change.status)) return undefined;
  const patient = await getLatestPatientDetails(tx, change.caseId);
  if (!patient) return undefined;
  const controlId = newControlId();
  const message = buildOrderStatusMessage({
    controlId,
    at: new Date(),
    sendingFacility: settings.sendingFacility,
    profile,
    order,
    caseNumber: change.caseNumber,
    studyType: change.studyType,
    patient,
    status: change.status,
  });
  const inserted = await insertOutboundMessage(tx, {
    direction: "outbound",
    clientId: change.clientId,
    messageType: message.type,
    controlId,
    sendingApplication: vigilSendingApplication,
    sendingFacility: settings.sendingFacility,
    patientMrn: patient.mrn,
    orderNumber: order.placerOrderNumber,
    caseId: change.caseId,
    text: message.text,
    status: "queued",
    attempts: 0,
  });
  await enqueueJob(tx, resultJobKind, { messageId: inserted.id }, { uniqueKey: `hl7-result:${inserted.id}` });
  return inserted.id;
}

/**
 * A signed report version completes the order (CM) when it is the version 1 of a report signed after monitoring
 * ended: a daily report signed while the patient is still monitored leaves the order in process, and an addendum
 * corrects the result, not the order.
 */
export async function completeOrderOnSigning(
  settings: { sendingFacility: string },
  tx: Db,
  issued: { caseId: string; clientId: string; version: number },
): Promise<string | undefined> {
  if (issued.version !== 1) return undefined;
  const caseRow = await requireCase(tx, issued.caseId);
  if (caseRow.stage === "intake" || caseRow.stage === "monitoring" || caseRow.archivedAt) return undefined;
  return queueOrderStatusMessage(settings, tx, {
    caseId: caseRow.id,
    clientId: caseRow.clientId,
    caseNumber: caseRow.caseNumber,
    studyType: caseRow.studyType,
    status: "CM",
  });
}

/** What `app.ts` hands the cases module: monitoring started → IP; archived by a person → CA. */
export function orderStatusOnMilestone(settings: { sendingFacility: string }) {
  return async (
    tx: Db,
    caseRow: { id: string; clientId: string; caseNumber: string; studyType: string },
    milestone: "monitoring-started" | "archived",
  ): Promise<void> => {
    await queueOrderStatusMessage(settings, tx, {
      caseId: caseRow.id,
      clientId: caseRow.clientId,
      caseNumber: caseRow.caseNumber,
      studyType: caseRow.studyType,
      status: milestone === "monitoring-started" ? "IP" : "CA",
    });
  };
}
