import { z } from "zod";
import { isoDateTimeSchema } from "../common.js";
import { electrodeSchema, electrodes } from "./clinical-vocabularies.js";
import { historyOf, itemFields, listOf, revisionRequestOf, text } from "./record-shapes.js";

export const impedanceDataSchema = z.object({
  checkedAt: isoDateTimeSchema,
  values: z
    .array(z.object({ electrode: electrodeSchema, kohm: z.number().min(0).max(1000) }))
    .min(1, "enter at least one electrode")
    .max(electrodes.length)
    .refine(
      (values) => new Set(values.map((value) => value.electrode)).size === values.length,
      "each electrode may appear once",
    ),
  notes: text(2000),
});
export type ImpedanceData = z.infer<typeof impedanceDataSchema>;
export type ImpedanceInput = z.input<typeof impedanceDataSchema>;

export const impedanceRevisionRequestSchema = z.discriminatedUnion("change", revisionRequestOf(impedanceDataSchema));

export type ImpedanceRevisionRequest = z.input<typeof impedanceRevisionRequestSchema>;

export const impedanceItemSchema = z.object({
  ...itemFields,
  kind: z.literal("impedance"),
  data: impedanceDataSchema,
  /** The pinned protocol's threshold when the check was judged. */
  thresholdKohm: z.number(),
  /** Above the threshold. */
  flagged: z.array(electrodeSchema),
  /** From `recommendedImpedanceKohm` up to the threshold. */
  caution: z.array(electrodeSchema),
});
export type ImpedanceItem = z.infer<typeof impedanceItemSchema>;

export const impedanceListSchema = listOf(
  impedanceItemSchema,
  z.object({
    /** From the protocol revision pinned when monitoring started (the client's current one before that). */
    protocolRevision: z.number().int().nullable(),
    thresholdKohm: z.number(),
    cautionKohm: z.number(),
    intervalHours: z.number().int(),
    lastCheckedAt: isoDateTimeSchema.nullable(),
    /** When the next check is due (from the last check, else from the recording start); null when not monitoring. */
    dueAt: isoDateTimeSchema.nullable(),
    overdue: z.boolean(),
  }),
);

export type ImpedanceList = z.infer<typeof impedanceListSchema>;

export const impedanceHistorySchema = historyOf(impedanceItemSchema, impedanceDataSchema);
