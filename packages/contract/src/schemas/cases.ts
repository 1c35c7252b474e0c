import { z } from "zod";
import { pageQuerySchema } from "../envelope.js";
import { caseStages } from "../pages.js";
import { idSchema, isoDateTimeSchema } from "./common.js";

export const caseStageSchema = z.enum(caseStages);
export const casePrioritySchema = z.enum(["routine", "stat"]);
export const studyTypeSchema = z.enum(["icu-ceeg", "ambulatory", "emu-video"]);

/** A case as lists show it; the full case arrives with the case workflow. */
export const caseSummarySchema = z.object({
  id: idSchema,
  caseNumber: z.string(),
  clientId: idSchema,
  studyType: studyTypeSchema,
  hasVideo: z.boolean(),
  priority: casePrioritySchema,
  stage: caseStageSchema,
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
});
export type CaseSummary = z.infer<typeof caseSummarySchema>;

export const clientCasesQuerySchema = pageQuerySchema.extend({
  stage: caseStageSchema.optional(),
});
