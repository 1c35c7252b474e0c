import { z } from "zod";
import { cptWarningIdSchema, cptWarningIds } from "../billing.js";
import { historyOf, itemFields, listOf, required, revisionRequestOf, text } from "./record-shapes.js";

export const cptCodeLineSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{5}$/, "must be a five-digit CPT code"),
  units: z.number().int().min(1).max(99).default(1),
  modifiers: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[0-9A-Z]{2}$/, "must be a two-character modifier such as 52"),
    )
    .max(4)
    .default([]),
});
export const billingNoteDataSchema = z.object({
  body: required(20_000),
  cptCodes: z.array(cptCodeLineSchema).max(30).default([]),
  adjustments: text(5000),
  /** CPT warnings of the case (see the billing check) this note acknowledges; closing needs each acknowledged. */
  acknowledgedWarnings: z.array(cptWarningIdSchema).max(cptWarningIds.length).default([]),
});
export type BillingNoteData = z.infer<typeof billingNoteDataSchema>;

export const billingNoteRevisionRequestSchema = z.discriminatedUnion(
  "change",
  revisionRequestOf(billingNoteDataSchema),
);

export type BillingNoteRevisionRequest = z.input<typeof billingNoteRevisionRequestSchema>;

export const billingNoteItemSchema = z.object({
  ...itemFields,
  kind: z.literal("billing-note"),
  data: billingNoteDataSchema,
});
export type BillingNoteItem = z.infer<typeof billingNoteItemSchema>;

export const billingNoteListSchema = listOf(billingNoteItemSchema, z.object({}));

export type BillingNoteList = z.infer<typeof billingNoteListSchema>;

export const billingNoteHistorySchema = historyOf(billingNoteItemSchema, billingNoteDataSchema);
