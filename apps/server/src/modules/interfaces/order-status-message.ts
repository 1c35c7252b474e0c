import type { InterfaceProfileContent } from "@vigil/contract";
import { formatHl7Timestamp } from "../../hl7/hl7-ack.js";
import { escapeHl7 } from "../../hl7/hl7-text.js";
import type { ReportInputs } from "../reports/reports-service.js";
import {
  eegStudyCode,
  fieldsOf,
  mshSegment,
  pidSegment,
  type ResultOrder,
  segment,
  vigilSendingApplication,
} from "./result-message.js";

/**
 * The order status Vigil sends back to the hospital as the order's filler (docs/design/HL7.md, "Order status"):
 * ORM^O01 with ORC-1 `SC` (status changed) and ORC-5 from table 0038 — IP when monitoring starts, CM when the report
 * is signed, CA when Vigil archives the case. A pure function of what the caller read in the transaction of the
 * change; golden files of what it writes sit beside the tests.
 */

export const orderStatusMessageType = "ORM^O01";

/** Table 0038 (order status): in process, completed, cancelled. */
export type OrderStatusCode = "IP" | "CM" | "CA";

export type OrderStatusMessageInput = {
  controlId: string;
  /** MSH-7, and ORC-9 (when the status changed). */
  at: Date;
  /** MSH-4 (HL7_SENDING_FACILITY). */
  sendingFacility: string;
  profile: Pick<
    InterfaceProfileContent,
    "receivingApplication" | "receivingFacility" | "hl7Version" | "mrnAssigningAuthority" | "sendingApplication"
  >;
  order: ResultOrder;
  caseNumber: string;
  studyType: string;
  patient: Pick<ReportInputs["patient"], "mrn" | "firstName" | "lastName" | "dateOfBirth" | "sex">;
  status: OrderStatusCode;
};

/** MSH-9: v2.3.1 has no message structure component. */
function messageTypeField(version: string): string {
  return version === "2.3.1" ? orderStatusMessageType : `${orderStatusMessageType}^ORM_O01`;
}

/** ORM^O01: MSH, PID, PV1, ORC (SC, the order numbers, ORC-5), OBR (the study the order asked for). */
export function buildOrderStatusMessage(input: OrderStatusMessageInput): { type: "ORM^O01"; text: string } {
  const { order, profile } = input;
  const placer = `${escapeHl7(order.placerOrderNumber)}^${escapeHl7(profile.sendingApplication)}`;
  const filler = `${escapeHl7(input.caseNumber)}^${vigilSendingApplication}`;
  const at = formatHl7Timestamp(input.at);
  const patientClass = input.studyType === "ambulatory" ? "O" : "I";
  const text = [
    mshSegment(input, messageTypeField(profile.hl7Version)),
    pidSegment(input.patient, order.mrnAssigningAuthority ?? profile.mrnAssigningAuthority),
    segment("PV1", fieldsOf({ 1: "1", 2: patientClass, 19: escapeHl7(order.visitNumber ?? "") })),
    // ORC-1 SC: the filler reports a status change and asks nothing of the placer (v2.5.1 §4.5.1.1, table 0119).
    segment("ORC", fieldsOf({ 1: "SC", 2: placer, 3: filler, 5: input.status, 9: at })),
    segment("OBR", fieldsOf({ 1: "1", 2: placer, 3: filler, 4: eegStudyCode })),
  ].join("\r");
  return { type: orderStatusMessageType, text };
}
