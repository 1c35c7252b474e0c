import { z } from "zod";
import { caseStages } from "../case-workflow.js";
import { authorSchema, idSchema, isoDateTimeSchema } from "../common.js";
import { revisionChangeSchema } from "./record-revisions.js";
import { recordWriteStateSchema } from "./record-write-rules.js";

/**
 * The building blocks every record kind's schemas are made of: text fields, the revision requests, the item's
 * common fields, lists and histories. Internal to the contract (not exported from its index).
 */

export const text = (max: number) => z.string().trim().max(max).default("");
export const required = (max: number) => z.string().trim().min(1, "is required").max(max);

export const reasonField = { reason: z.string().trim().max(2000).nullable().optional() };
export const baseRevisionField = { baseRevision: z.number().int().min(1) };

/** `POST …/{itemId}/revisions` of any kind: edit (the whole new data), delete, restore. */
export function revisionRequestOf<T extends z.ZodType>(data: T) {
  return [
    z.object({ change: z.literal("edit"), ...baseRevisionField, data, ...reasonField }),
    z.object({ change: z.literal("delete"), ...baseRevisionField, ...reasonField }),
    z.object({ change: z.literal("restore"), ...baseRevisionField, ...reasonField }),
  ] as const;
}

/** What every item carries around its data. */
export const itemFields = {
  id: idSchema,
  caseId: idSchema,
  /** The latest revision's number: the base the next revision must name. */
  revision: z.number().int().min(1),
  deleted: z.boolean(),
  createdAt: isoDateTimeSchema,
  createdBy: authorSchema,
  updatedAt: isoDateTimeSchema,
  updatedBy: authorSchema,
};

/** A revision as the history shows it: who, when, why, and the whole data as it then was. */
export function revisionOf<T extends z.ZodType>(data: T) {
  return z.object({
    id: idSchema,
    itemId: idSchema,
    revision: z.number().int().min(1),
    change: revisionChangeSchema,
    deleted: z.boolean(),
    reason: z.string().nullable(),
    data,
    author: authorSchema,
    createdAt: isoDateTimeSchema,
  });
}

export function listOf<T extends z.ZodType, S extends z.ZodType>(item: T, summary: S) {
  return z.object({
    caseId: idSchema,
    stage: z.enum(caseStages),
    write: recordWriteStateSchema,
    items: z.array(item),
    total: z.number().int().min(0),
    limit: z.number().int(),
    offset: z.number().int(),
    summary,
  });
}

export function historyOf<I extends z.ZodType, D extends z.ZodType>(item: I, data: D) {
  return z.object({ item, revisions: z.array(revisionOf(data)) });
}
