import { z } from "zod";
import { caseStages } from "../case-workflow.js";
import { patientDetailsInputSchema, patientDetailsSchema } from "../cases.js";
import { idSchema } from "../common.js";
import { reasonField } from "./record-shapes.js";
import { recordWriteStateSchema } from "./record-write-rules.js";

/** Patient details: one per case; PUT with If-Match = the revision number. */

export const patientDetailsRevisionSchema = patientDetailsSchema.extend({ reason: z.string().nullable() });
export type PatientDetailsRevision = z.infer<typeof patientDetailsRevisionSchema>;

/** `GET patient-details`: the current revision (also the ETag) and whether the caller may change it now. */
export const patientDetailsViewSchema = z.object({
  caseId: idSchema,
  stage: z.enum(caseStages),
  current: patientDetailsRevisionSchema,
  write: recordWriteStateSchema,
});
export type PatientDetailsView = z.infer<typeof patientDetailsViewSchema>;

/** `PUT patient-details`: every change is a new revision; after monitoring it needs a reason. */
export const updatePatientDetailsRequestSchema = patientDetailsInputSchema.extend(reasonField);
export type UpdatePatientDetailsRequest = z.input<typeof updatePatientDetailsRequestSchema>;

export const patientDetailsHistorySchema = z.object({
  caseId: idSchema,
  revisions: z.array(patientDetailsRevisionSchema),
});
export type PatientDetailsHistory = z.infer<typeof patientDetailsHistorySchema>;
