import {
  formatInstantInZone,
  type interpretationDataSchema,
  type RecordKind,
  type RevisionChange,
  type TimeLogData,
} from "@vigil/contract";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { interpretationChangeRefusal, interpretationMetaOf, lacksImpression } from "./interpretation-rules.js";
import { impedanceProtocolOf, toRecordItem } from "./record-items.js";
import {
  authorFields,
  type RecordsContext,
  type RecordUser,
  type RevisionRequest,
  type RevisionTarget,
  recordLabels,
} from "./record-types.js";
import { assertNotFuture, badRequest, clientTimeZone, notFoundItem, reasonFor } from "./record-write-checks.js";
import { type CaseState, findLatestTimeLogOf, findRecord, type RecordRow } from "./records-repository.js";

/*
 * Planning a revision: what an edit, delete, restore, sign, addendum or clock-out makes of an item, which item a
 * request targets, and the 409 of a stale base revision.
 */

type Plan = {
  change: RevisionChange;
  data: unknown;
  deleted: boolean;
  meta: Record<string, unknown>;
  reason: string | null;
};

export function conflict(message: string, details?: Record<string, unknown>): AppError {
  return new AppError("conflict", message, details);
}

/** What a revision request makes of the item, or why it cannot be applied (403, 409, 400). */
export async function planRevision(
  tx: Db,
  kind: RecordKind,
  row: RecordRow,
  request: RevisionRequest,
  context: { state: CaseState; user: RecordUser; now: Date },
): Promise<Plan> {
  const { state, user, now } = context;
  const label = recordLabels[kind];
  const meta = (row.meta ?? {}) as Record<string, unknown>;
  const keep = { data: row.data, meta };
  const interpretation = kind === "interpretation" ? interpretationMetaOf(row.meta) : undefined;
  const refuseForInterpretation = (change: RevisionChange) => {
    const refusal = interpretation ? interpretationChangeRefusal(change, interpretation) : undefined;
    if (refusal) throw conflict(refusal, { status: interpretation?.status });
  };
  const notDeleted = () => {
    if (row.deleted) throw conflict(`This ${label} is deleted; restore it first.`, { deleted: true });
  };
  const unsupported = () =>
    badRequest([{ path: "body.change", message: `"${request.change}" does not apply to a ${label}` }]);

  switch (request.change) {
    case "edit": {
      notDeleted();
      refuseForInterpretation("edit");
      const editedMeta =
        // biome-ignore lint/plugin/leading-spread-then-keys: the meta's own threshold, from the protocol now
        kind === "impedance" ? { ...meta, thresholdKohm: (await impedanceProtocolOf(tx, state)).thresholdKohm } : meta;
      return {
        change: "edit",
        data: request.data,
        deleted: false,
        meta: editedMeta,
        reason: reasonFor(kind, state, request.reason),
      };
    }
    case "delete":
      if (row.deleted) throw conflict(`This ${label} is already deleted.`, { deleted: true });
      refuseForInterpretation("delete");
      return { change: "delete", ...keep, deleted: true, reason: reasonFor(kind, state, request.reason) };
    case "restore":
      if (!row.deleted) {
        throw conflict(`This ${label} is not deleted; there is nothing to restore.`, { deleted: false });
      }
      return { change: "restore", ...keep, deleted: false, reason: reasonFor(kind, state, request.reason) };
    case "sign": {
      if (!interpretation) throw unsupported();
      notDeleted();
      refuseForInterpretation("sign");
      const words = (request.data ?? row.data) as z.output<typeof interpretationDataSchema>;
      // The code chosen in the sign dialog is part of what is signed; a draft saved before codes existed has none.
      // biome-ignore lint/plugin/leading-spread-then-keys: impressionCode is a field of the words
      const data = {
        ...words,
        impressionCode: request.impressionCode === undefined ? (words.impressionCode ?? null) : request.impressionCode,
      } as z.output<typeof interpretationDataSchema>;
      if (lacksImpression(data)) {
        const path = request.data ? "body.data.impression" : "data.impression";
        throw conflict("An interpretation is signed with its impression; write the impression first.", {
          issues: [{ path, message: "is required to sign" }],
        });
      }
      // biome-ignore lint/plugin/leading-spread-then-keys: signing sets these fields of the meta
      const signed = { ...interpretation, status: "final", signedBy: authorFields(user), signedAt: now.toISOString() };
      return { change: "sign", data, deleted: false, meta: signed, reason: null };
    }
    case "addendum": {
      if (!interpretation) throw unsupported();
      notDeleted();
      refuseForInterpretation("addendum");
      const addendum = {
        revision: row.revision + 1,
        text: request.text,
        author: authorFields(user),
        createdAt: now.toISOString(),
      };
      return {
        change: "addendum",
        ...keep,
        deleted: false,
        // biome-ignore lint/plugin/leading-spread-then-keys: the meta's addenda, one longer
        meta: { ...interpretation, addenda: [...interpretation.addenda, addendum] },
        reason: null,
      };
    }
    case "clock-out": {
      if (kind !== "time-log") throw unsupported();
      notDeleted();
      const data = row.data as TimeLogData;
      if (data.endedAt !== null) {
        const ended = formatInstantInZone(data.endedAt, await clientTimeZone(tx, state));
        throw conflict(`This time log is not running: it ended at ${ended}.`, { running: false });
      }
      const endedAt = request.endedAt ?? now.toISOString();
      if (Date.parse(endedAt) <= Date.parse(data.startedAt)) {
        throw badRequest([{ path: "body.endedAt", message: "must be after the start of the log" }]);
      }
      assertNotFuture([{ path: "body.endedAt", value: endedAt }], now);
      // biome-ignore lint/plugin/leading-spread-then-keys: endedAt is a field of the log's data
      return { change: "clock-out", data: { ...data, endedAt }, deleted: false, meta, reason: null };
    }
  }
}

export async function staleBase(
  tx: Db,
  ctx: RecordsContext,
  kind: RecordKind,
  row: RecordRow,
  baseRevision: number,
  context: { state: CaseState; now: Date },
): Promise<AppError> {
  const current = await toRecordItem(kind, row, { state: context.state, now: context.now, ...ctx, db: tx });
  return conflict(
    `This ${recordLabels[kind]} was changed by someone else: it is at revision ${row.revision}, and you based your change on revision ${baseRevision}. Review the current version and apply your change again.`,
    { current, currentRevision: row.revision, baseRevision },
  );
}

export async function findTarget(
  tx: Db,
  kind: RecordKind,
  state: CaseState,
  target: RevisionTarget,
  user: RecordUser,
): Promise<RecordRow> {
  if ("itemId" in target) {
    const row = await findRecord(tx, { id: target.itemId, caseId: state.id, kind }, "update");
    if (!row) throw notFoundItem(kind, state, target.itemId);
    return row;
  }
  const latest = await findLatestTimeLogOf(tx, state.id, user.username);
  const row = latest ? await findRecord(tx, { id: latest.recordId, caseId: state.id, kind }, "update") : undefined;
  if (!row) throw new AppError("not_found", `You have no time log on ${state.caseNumber}.`);
  return row;
}
