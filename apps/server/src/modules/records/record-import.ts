import {
  type Author,
  billingNoteDataSchema,
  caseNoteDataSchema,
  eventDataSchema,
  impedanceDataSchema,
  interpretationDataSchema,
  type RecordKind,
  type RevisionChange,
  type TimeLogData,
  timeLogDataSchema,
} from "@vigil/contract";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { draftInterpretationMeta, interpretationMetaOf } from "./interpretation-rules.js";
import { insertRecord, insertRevision, saveTimeLog, timeLogProjection } from "./records-repository.js";

/* Importing kept records (the demo seed): whole histories written as they happened, without the stage rules. */

const dataSchemas = {
  interpretation: interpretationDataSchema,
  impedance: impedanceDataSchema,
  event: eventDataSchema,
  "time-log": timeLogDataSchema,
  "case-note": caseNoteDataSchema,
  "billing-note": billingNoteDataSchema,
} satisfies Record<RecordKind, z.ZodType>;

export type ImportedRevision = {
  change: RevisionChange;
  /** The kind's data as the API would accept it (parsed here with the contract's schema). */
  data: unknown;
  at: Date;
  author: Author;
  deleted?: boolean;
  reason?: string | null;
  /** An addendum's words. */
  text?: string;
  /** Merged into the item's meta from this revision on (e.g. an impedance check's threshold). */
  meta?: Record<string, unknown>;
};

/**
 * Writes an item with its whole history in the caller's transaction: current row, every revision and the
 * time-log projection, exactly as the API would have left them (signing and addenda fill in the meta). For
 * records kept before Vigil, and for the demo data, which cannot walk a case through its stages again.
 */
export async function importRecordHistory(
  tx: Db,
  input: { caseId: string; kind: RecordKind; revisions: readonly ImportedRevision[] },
): Promise<string> {
  const [first] = input.revisions;
  if (!first) throw new Error("an imported record needs at least one revision");
  const schema = dataSchemas[input.kind] as z.ZodType;
  let meta: Record<string, unknown> = input.kind === "interpretation" ? { ...draftInterpretationMeta } : {};
  const revisions = input.revisions.map((revision, index) => {
    const data = schema.parse(revision.data);
    meta = Object.assign({}, meta, revision.meta);
    if (input.kind === "interpretation" && revision.change === "sign") {
      // biome-ignore lint/plugin/leading-spread-then-keys: signing sets these fields of the meta
      meta = { ...meta, status: "final", signedBy: revision.author, signedAt: revision.at.toISOString() };
    }
    if (input.kind === "interpretation" && revision.change === "addendum") {
      const addenda = interpretationMetaOf(meta).addenda;
      const text = revision.text ?? "";
      // biome-ignore lint/plugin/leading-spread-then-keys: the meta's addenda, one longer
      meta = {
        ...meta,
        addenda: [
          ...addenda,
          { revision: index + 1, text, author: revision.author, createdAt: revision.at.toISOString() },
        ],
      };
    }
    return { number: index + 1, ...revision, data, meta };
  });
  const last = revisions[revisions.length - 1] as (typeof revisions)[number];
  const row = await insertRecord(tx, {
    caseId: input.caseId,
    kind: input.kind,
    revision: last.number,
    deleted: last.deleted ?? false,
    data: last.data,
    meta: last.meta,
    createdBySub: first.author.sub,
    createdByUsername: first.author.username,
    createdByName: first.author.name,
    createdAt: first.at,
    updatedBySub: last.author.sub,
    updatedByUsername: last.author.username,
    updatedByName: last.author.name,
    updatedAt: last.at,
  });
  for (const revision of revisions) {
    await insertRevision(tx, {
      recordId: row.id,
      caseId: input.caseId,
      kind: input.kind,
      revision: revision.number,
      change: revision.change,
      deleted: revision.deleted ?? false,
      reason: revision.reason ?? null,
      data: revision.data,
      meta: revision.meta,
      authorSub: revision.author.sub,
      authorUsername: revision.author.username,
      authorName: revision.author.name,
      createdAt: revision.at,
    });
  }
  if (input.kind === "time-log") {
    await saveTimeLog(tx, timeLogProjection(row, last.data as TimeLogData, last.deleted ?? false, first.author));
  }
  return row.id;
}
