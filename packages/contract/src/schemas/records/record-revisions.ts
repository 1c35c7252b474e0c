import { z } from "zod";
import { pageQuerySchema } from "../../envelope.js";
import { type authorSchema, idSchema } from "../common.js";

/** Why a revision exists. `sign` makes an interpretation final; after that only `addendum` adds to it. */
export const revisionChanges = ["create", "edit", "delete", "restore", "sign", "addendum", "clock-out"] as const;
export const revisionChangeSchema = z.enum(revisionChanges);
export type RevisionChange = z.infer<typeof revisionChangeSchema>;

export const recordListQuerySchema = pageQuerySchema.extend({
  /** Deleted items are listed too (so they can be restored). */
  includeDeleted: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
});
export type RecordListQuery = z.input<typeof recordListQuerySchema>;

/** The revisions of an item, oldest first, beside its current state. */
export type RecordHistory<I, D> = {
  item: I;
  revisions: {
    id: string;
    itemId: string;
    revision: number;
    change: RevisionChange;
    deleted: boolean;
    reason: string | null;
    data: D;
    author: z.infer<typeof authorSchema>;
    createdAt: string;
  }[];
};

export const recordItemParamsSchema = z.object({ id: idSchema, itemId: idSchema });
