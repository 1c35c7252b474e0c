import { randomUUID } from "node:crypto";
import {
  type Author,
  billingNoteDataSchema,
  caseNoteDataSchema,
  eventDataSchema,
  impedanceDataSchema,
  interpretationDataSchema,
  type RecordKind,
  timeLogDataSchema,
} from "@vigil/contract";
import type { z } from "zod";
import type { DatasetContext } from "./dataset-context.js";
import { specs } from "./table-specs.js";

/** One revision of a record: what changed, its data and meta, when and by whom. */
export type Revision = {
  change: string;
  data: unknown;
  at: number;
  author: Author;
  meta?: Record<string, unknown>;
  deleted?: boolean;
  reason?: string | null;
};

/** The contract's data schemas: the first rows of each kind are checked to be exactly what the API would store. */
const dataSchemas: Record<RecordKind, z.ZodType> = {
  interpretation: interpretationDataSchema,
  impedance: impedanceDataSchema,
  event: eventDataSchema,
  "time-log": timeLogDataSchema,
  "case-note": caseNoteDataSchema,
  "billing-note": billingNoteDataSchema,
};
const checkedPerKind = 200;

/** One record and its revisions, as importRecordHistory would write them; returns the record's id. */
export function writeRecord(context: DatasetContext, caseId: string, kind: RecordKind, revisions: Revision[]): string {
  const { checkedRecords: checked, out } = context;
  const id = randomUUID();
  const first = revisions[0] as Revision;
  const last = revisions[revisions.length - 1] as Revision;
  if ((checked[kind] ?? 0) < checkedPerKind) {
    checked[kind] = (checked[kind] ?? 0) + 1;
    for (const revision of revisions) {
      const parsed = dataSchemas[kind].parse(revision.data);
      if (JSON.stringify(parsed) !== JSON.stringify(revision.data)) {
        throw new Error(
          `A generated ${kind} differs from what the API would store:\n${JSON.stringify(revision.data)}\n${JSON.stringify(parsed)}`,
        );
      }
    }
  }
  let meta: Record<string, unknown> = {};
  const metas = revisions.map((revision) => {
    meta = { ...meta, ...revision.meta };
    return meta;
  });
  out.row(specs.records, [
    id,
    caseId,
    kind,
    revisions.length,
    last.deleted ?? false,
    last.data,
    metas[metas.length - 1],
    first.author.sub,
    first.author.username,
    first.author.name,
    new Date(first.at),
    last.author.sub,
    last.author.username,
    last.author.name,
    new Date(last.at),
  ]);
  revisions.forEach((revision, index) => {
    out.row(specs.revisions, [
      randomUUID(),
      id,
      caseId,
      kind,
      index + 1,
      revision.change,
      revision.deleted ?? false,
      revision.reason ?? null,
      revision.data,
      metas[index],
      revision.author.sub,
      revision.author.username,
      revision.author.name,
      new Date(revision.at),
    ]);
  });
  context.counts.records++;
  context.counts.revisions += revisions.length;
  return id;
}
