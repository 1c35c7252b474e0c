import {
  findOpenCasesOfPatient,
  recordInterfaceCaseAction,
  updatePatientFromInterface,
} from "../cases/interface-cases-service.js";
import { InboundProblem } from "./inbound-fields.js";
import { readPatient } from "./inbound-patient.js";
import { markOrdersDischarged } from "./inbound-repository.js";
import type { InboundContext, InboundEffect } from "./order-service.js";

/** The ADT events taken: admit, register, update (demographics) and discharge. */
export const adtEvents = ["A01", "A03", "A04", "A08"] as const;

/**
 * ADT^A01/A04/A08: the patient's demographics reach every open case of that MRN within the client as a new
 * patient-details revision by the interface (nothing when nothing differs). ADT^A03: each open case records the
 * discharge on its timeline and its order, and the watch board asks "patient discharged — end monitoring?".
 * A patient with no open case is acknowledged and changes nothing: Vigil keeps no patient index of its own.
 */
export async function applyAdtMessage(context: InboundContext, event: string): Promise<InboundEffect> {
  const { tx, reader, profile, actor } = context;
  if (!reader.has("PID")) throw new InboundProblem("error", 101, "The PID segment is required.", { segment: "PID" });
  const patient = readPatient(reader, profile);
  const open = await findOpenCasesOfPatient(tx, profile.clientId, patient.mrn);
  const effect = (text: string): InboundEffect => ({
    caseId: open.length === 1 ? (open[0]?.id ?? null) : null,
    patientMrn: patient.mrn,
    orderNumber: null,
    text,
  });
  if (open.length === 0) return effect("No open case for this patient; nothing changed.");
  if (event === "A03") {
    const at = new Date();
    for (const row of open) {
      await recordInterfaceCaseAction(tx, actor, row, "patient-discharged", { message: context.label });
    }
    await markOrdersDischarged(
      tx,
      open.map((row) => row.id),
      at,
    );
    return effect(`Discharge recorded on ${open.map((row) => row.caseNumber).join(", ")}.`);
  }
  const updated: string[] = [];
  for (const row of open) {
    const revision = await updatePatientFromInterface(
      tx,
      row.id,
      patient,
      `Updated by the hospital's ADT (${context.label}).`,
      actor,
    );
    if (revision) updated.push(row.caseNumber);
  }
  return effect(
    updated.length > 0
      ? `Patient details updated on ${updated.join(", ")}.`
      : "The patient details were already current; nothing changed.",
  );
}
