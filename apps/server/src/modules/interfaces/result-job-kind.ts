import { z } from "zod";

/** The `hl7-result` kind's name and payload, apart from its handler so the signing side can enqueue it. */
export const resultJobKind = { kind: "hl7-result", payload: z.object({ messageId: z.uuid() }) };

/**
 * The `fhir-push` kind (its handler is the fhir module's, a floor above): a report version pushed to the hospital's
 * FHIR server, logged as an outbound row of the message log of this type, and sent again from the log like a result.
 */
export const fhirPushJobKind = { kind: "fhir-push", payload: z.object({ messageId: z.uuid() }) };
export const fhirPushMessageType = "FHIR transaction";

/** The job kind that sends a logged outbound message. */
export function sendingJobKindOf(messageType: string) {
  return messageType === fhirPushMessageType ? fhirPushJobKind : resultJobKind;
}
