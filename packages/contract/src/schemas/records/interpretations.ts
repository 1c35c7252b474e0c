import { z } from "zod";
import { authorSchema, isoDateTimeSchema } from "../common.js";
import {
  acnsContinuities,
  acnsDurations,
  acnsEvolutions,
  acnsLocations,
  acnsPatterns,
  acnsPlusModifiers,
  acnsPredominantFrequencies,
  acnsPrevalences,
  acnsReactivities,
  acnsStateChanges,
  acnsSymmetries,
  acnsVoltages,
  type ImpressionCode,
  impressionCodeIds,
  seizureClassifications,
} from "./clinical-vocabularies.js";
import {
  baseRevisionField,
  historyOf,
  itemFields,
  listOf,
  required,
  revisionRequestOf,
  text,
} from "./record-shapes.js";

export const acnsFindingSchema = z.object({
  location: z.enum(acnsLocations),
  pattern: z.enum(acnsPatterns),
  plusModifier: z.enum(acnsPlusModifiers).default("none"),
  prevalence: z.enum(acnsPrevalences),
  duration: z.enum(acnsDurations).nullable().default(null),
  /** Typical frequency in Hz. */
  frequencyHz: z.number().min(0).max(30).nullable().default(null),
  evolution: z.enum(acnsEvolutions).default("static"),
  stimulusInduced: z.boolean().default(false),
  notes: text(2000),
});
export type AcnsFinding = z.infer<typeof acnsFindingSchema>;

/** ACNS Guideline 7's report, with the background and findings in ACNS 2021 critical-care terms. */
export const interpretationDataSchema = z
  .object({
    /** A report after each 24-h period (95719/95720) or one summary of the whole study (95721–95726). */
    reportType: z.enum(["daily", "summary"]).default("daily"),
    periodFrom: isoDateTimeSchema,
    periodTo: isoDateTimeSchema,
    history: text(10_000),
    technicalDescription: text(10_000),
    background: z
      .object({
        continuity: z.enum(acnsContinuities).nullable().default(null),
        symmetry: z.enum(acnsSymmetries).nullable().default(null),
        predominantFrequency: z.enum(acnsPredominantFrequencies).nullable().default(null),
        /** Posterior dominant rhythm in Hz; null when absent. */
        pdrHz: z.number().min(0).max(20).nullable().default(null),
        voltage: z.enum(acnsVoltages).nullable().default(null),
        reactivity: z.enum(acnsReactivities).nullable().default(null),
        stateChanges: z.enum(acnsStateChanges).nullable().default(null),
        notes: text(5000),
      })
      .default({
        continuity: null,
        symmetry: null,
        predominantFrequency: null,
        pdrHz: null,
        voltage: null,
        reactivity: null,
        stateChanges: null,
        notes: "",
      }),
    findings: z.array(acnsFindingSchema).max(20).default([]),
    seizures: z
      .object({
        classification: z.enum(seizureClassifications).default("none"),
        count: z.number().int().min(0).max(10_000).nullable().default(null),
        description: text(5000),
      })
      .default({ classification: "none", count: null, description: "" }),
    impression: text(10_000),
    /** The impression as a code (`impressionCodes`), chosen at signing; null: not coded. */
    impressionCode: z
      .enum(impressionCodeIds as [ImpressionCode, ...ImpressionCode[]])
      .nullable()
      .default(null),
    clinicalCorrelation: text(10_000),
  })
  .refine((value) => Date.parse(value.periodTo) >= Date.parse(value.periodFrom), {
    message: "must not be before the start of the period",
    path: ["periodTo"],
  });
export type InterpretationData = z.infer<typeof interpretationDataSchema>;
export type InterpretationInput = z.input<typeof interpretationDataSchema>;

export const interpretationRevisionRequestSchema = z.discriminatedUnion("change", [
  ...revisionRequestOf(interpretationDataSchema),
  /**
   * Sign the draft as final (with `data`, save these words and sign them in one revision); `impressionCode`, when
   * sent, is the coded impression chosen in the sign dialog (null: not coded), set on the words signed.
   */
  z.object({
    change: z.literal("sign"),
    ...baseRevisionField,
    data: interpretationDataSchema.optional(),
    impressionCode: z
      .enum(impressionCodeIds as [ImpressionCode, ...ImpressionCode[]])
      .nullable()
      .optional(),
  }),
  /** After signing: an addendum is added beside the signed text, which never changes. */
  z.object({ change: z.literal("addendum"), ...baseRevisionField, text: required(10_000) }),
]);

export type InterpretationRevisionRequest = z.input<typeof interpretationRevisionRequestSchema>;

export const interpretationAddendumSchema = z.object({
  revision: z.number().int().min(1),
  text: z.string(),
  author: authorSchema,
  createdAt: isoDateTimeSchema,
});

export const interpretationItemSchema = z.object({
  ...itemFields,
  kind: z.literal("interpretation"),
  data: interpretationDataSchema,
  status: z.enum(["draft", "final"]),
  signedBy: authorSchema.nullable(),
  signedAt: isoDateTimeSchema.nullable(),
  addenda: z.array(interpretationAddendumSchema),
});
export type InterpretationItem = z.infer<typeof interpretationItemSchema>;

export const interpretationListSchema = listOf(
  interpretationItemSchema,
  z.object({
    /** A final (signed) interpretation exists: the precondition of preview → reviewed. */
    signed: z.boolean(),
    /** The caller may sign (reviewers and administrators), beside being allowed to write. */
    canSign: z.boolean(),
  }),
);

export type InterpretationList = z.infer<typeof interpretationListSchema>;

export const interpretationHistorySchema = historyOf(interpretationItemSchema, interpretationDataSchema);
