import { z } from "zod";
import { historyOf, itemFields, listOf, required, revisionRequestOf } from "./record-shapes.js";

export const caseNoteCategories = ["general", "handoff", "issue"] as const;
export const caseNoteDataSchema = z.object({
  category: z.enum(caseNoteCategories).default("general"),
  body: required(20_000),
});
export type CaseNoteData = z.infer<typeof caseNoteDataSchema>;

export const caseNoteRevisionRequestSchema = z.discriminatedUnion("change", revisionRequestOf(caseNoteDataSchema));

export type CaseNoteRevisionRequest = z.input<typeof caseNoteRevisionRequestSchema>;

export const caseNoteItemSchema = z.object({ ...itemFields, kind: z.literal("case-note"), data: caseNoteDataSchema });
export type CaseNoteItem = z.infer<typeof caseNoteItemSchema>;

export const caseNoteListSchema = listOf(caseNoteItemSchema, z.object({}));

export type CaseNoteList = z.infer<typeof caseNoteListSchema>;

export const caseNoteHistorySchema = historyOf(caseNoteItemSchema, caseNoteDataSchema);
