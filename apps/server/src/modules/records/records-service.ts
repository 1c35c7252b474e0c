import type { EventData, Permission, RecordKind, RevisionChange, TimeLogData } from "@vigil/contract";
import { type Actor, auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { AppError } from "../../errors/app-error.js";
import { findUserById } from "../../identity/user-directory.js";
import { recordCaseChange } from "../watch/watch-service.js";
import { assertInsideMonitoringPeriod } from "./monitoring-period-service.js";
import {
  authorOf,
  type RecordItem,
  type RecordRevision,
  toRecordItem,
  toRecordItems,
  toRevision,
} from "./record-items.js";
import { conflict, findTarget, planRevision, staleBase } from "./record-revisions.js";
import { summaryOf } from "./record-summaries.js";
import {
  authorFields,
  type InterpretationSignedHook,
  type RecordListQuery,
  type RecordReader,
  type RecordsContext,
  type RecordUser,
  type RevisionRequest,
  type RevisionTarget,
  recordLabels,
  type SignedInterpretation,
} from "./record-types.js";
import {
  assertNoOverlap,
  assertWritable,
  checkKindData,
  initialMeta,
  notFoundItem,
  requireCaseState,
  writeStateOf,
} from "./record-write-checks.js";
import {
  type CaseState,
  existsSignedInterpretation,
  findRecord,
  findRecordPage,
  findRevisions,
  insertRecord,
  insertRevision,
  saveTimeLog,
  timeLogProjection,
  updateRecordRow,
} from "./records-repository.js";
import { signedInterpretationOf } from "./signed-interpretation.js";

export type { InterpretationSignedHook, SignedInterpretation };

/**
 * Per-case records (PRODUCT.md §4): items with append-only revisions. Every write runs in one
 * transaction that locks the case row (so the stage that allowed it cannot change under it), checks the
 * stage-and-group table of the contract, locks the item and compares the base revision, then appends the
 * revision, moves the item's current state, keeps the time-log projection and records the audit event.
 */

export async function recordUserOf(db: Db, actor: Actor, permissions: ReadonlySet<Permission>): Promise<RecordUser> {
  // Outside any transaction: PGlite has one connection, and a transaction holds it.
  const user = await findUserById(db, actor.sub);
  return { name: user?.name ?? null, permissions, ...actor };
}

async function auditRecordWrite(
  tx: Db,
  user: Actor,
  state: CaseState,
  detail: { kind: RecordKind; itemId: string; revision: number; change: RevisionChange },
): Promise<void> {
  // The audit row names the case and the item, never the clinical content: the audit log is read more widely.
  const action = detail.change === "create" ? "case-record.create" : "case-record.revise";
  const target = { type: "case", id: state.id };
  await recordAudit(tx, auditedWrite(user, action, target, { caseNumber: state.caseNumber, ...detail }));
  await recordCaseChange(tx, { caseId: state.id, clientId: state.clientId, change: "record" });
}

/** `POST …/{kind}`: revision 1 of a new item, when the case's stage allows the caller to write this kind. */
export async function createRecord(
  ctx: RecordsContext,
  kind: RecordKind,
  caseId: string,
  data: unknown,
  user: RecordUser,
): Promise<RecordItem> {
  const now = new Date();
  const { row, state } = await ctx.db.transaction(async (tx) => {
    const state = await requireCaseState(tx, caseId, "update");
    assertWritable(kind, state, user.permissions);
    await checkKindData(tx, ctx, { kind, data, prefix: "body.", state, now }, user.username);
    const meta = await initialMeta(tx, kind, state);
    const row = await insertFirstRevision(tx, { kind, state, data, meta, now }, user);
    return { row, state };
  });
  return toRecordItem(kind, row, { state, now, ...ctx });
}

/** Revision 1 of a new item with its current state, time-log projection and audit event, in the caller's transaction. */
async function insertFirstRevision(
  tx: Db,
  item: { kind: RecordKind; state: CaseState; data: unknown; meta: Record<string, unknown>; now: Date },
  user: Actor & { name: string | null },
) {
  const { kind, state, data, meta, now } = item;
  const caseId = state.id;
  const author = { sub: user.sub, username: user.username, name: user.name };
  const row = await insertRecord(tx, {
    caseId,
    kind,
    revision: 1,
    deleted: false,
    data,
    meta,
    createdBySub: author.sub,
    createdByUsername: author.username,
    createdByName: author.name,
    createdAt: now,
    updatedBySub: author.sub,
    updatedByUsername: author.username,
    updatedByName: author.name,
    updatedAt: now,
  });
  await insertRevision(tx, {
    recordId: row.id,
    caseId,
    kind,
    revision: 1,
    change: "create",
    deleted: false,
    reason: null,
    data,
    meta,
    authorSub: author.sub,
    authorUsername: author.username,
    authorName: author.name,
    createdAt: now,
  });
  if (kind === "time-log") await saveTimeLog(tx, timeLogProjection(row, data as TimeLogData, false, author));
  await auditRecordWrite(tx, user, state, { kind, itemId: row.id, revision: 1, change: "create" });
  return row;
}

/**
 * The event record a critical finding is on its case as (PRODUCT.md §11), revision 1 like any new event, in the
 * caller's transaction, which holds the case lock and has judged the finding's own rule (`findings:raise`, monitoring
 * or preview). That rule decides rather than the events tab's write table: a reviewer raises findings in preview,
 * where events are otherwise not theirs to write. Later revisions of the record follow the events tab's rules.
 */
export async function createCriticalFindingEvent(
  tx: Db,
  caseId: string,
  data: EventData,
  author: Actor & { name: string | null },
  now: Date,
): Promise<string> {
  const state = await requireCaseState(tx, caseId, "update");
  const row = await insertFirstRevision(tx, { kind: "event", state, data, meta: {}, now }, author);
  return row.id;
}

/**
 * `POST …/{itemId}/revisions` (and `time-logs/latest/revisions`): appends revision N+1 to an item at revision N.
 * A stale base answers 409 with the current item and writes nothing; the item row is locked, so of two
 * revisions on the same base exactly one lands.
 */
export async function reviseRecord(
  ctx: RecordsContext,
  kind: RecordKind,
  caseId: string,
  target: RevisionTarget,
  request: RevisionRequest,
  user: RecordUser,
): Promise<RecordItem> {
  const now = new Date();
  let afterCommit: (() => Promise<void>) | undefined;
  try {
    const { row, state } = await ctx.db.transaction(async (tx) => {
      const state = await requireCaseState(tx, caseId, "update");
      assertWritable(kind, state, user.permissions);
      if (request.change === "sign" && !user.permissions.has("records:sign-interpretation")) {
        throw new AppError("forbidden", "Only a reviewer (or an administrator) may sign an interpretation.", {
          permission: "records:sign-interpretation",
        });
      }
      const current = await findTarget(tx, kind, state, target, user);
      if (request.baseRevision !== undefined && request.baseRevision !== current.revision) {
        throw await staleBase(tx, ctx, kind, current, request.baseRevision, { state, now });
      }
      const plan = await planRevision(tx, kind, current, request, { state, user, now });
      const technologist = authorOf(current.createdBySub, current.createdByUsername, current.createdByName);
      if (plan.change === "edit") {
        await checkKindData(
          tx,
          ctx,
          { kind, data: plan.data, prefix: "body.data.", state, now },
          technologist.username,
          current.id,
        );
      } else if (plan.change === "restore" && kind === "time-log") {
        await assertInsideMonitoringPeriod(tx, plan.data as TimeLogData, state, "data.");
        await assertNoOverlap(
          tx,
          ctx,
          { kind, data: plan.data, prefix: "data.", state, now },
          technologist.username,
          current.id,
        );
      }
      const revision = current.revision + 1;
      const author = authorFields(user);
      await insertRevision(tx, {
        recordId: current.id,
        caseId,
        kind,
        revision,
        change: plan.change,
        deleted: plan.deleted,
        reason: plan.reason,
        data: plan.data,
        meta: plan.meta,
        authorSub: author.sub,
        authorUsername: author.username,
        authorName: author.name,
        createdAt: now,
      });
      const row = await updateRecordRow(tx, current.id, {
        revision,
        deleted: plan.deleted,
        data: plan.data,
        meta: plan.meta,
        updatedBySub: author.sub,
        updatedByUsername: author.username,
        updatedByName: author.name,
        updatedAt: now,
      });
      if (kind === "time-log") {
        await saveTimeLog(tx, timeLogProjection(row, plan.data as TimeLogData, plan.deleted, technologist));
      }
      await auditRecordWrite(tx, user, state, { kind, itemId: row.id, revision, change: plan.change });
      if (kind === "interpretation" && (plan.change === "sign" || plan.change === "addendum")) {
        afterCommit = await ctx.onInterpretationSigned?.(
          tx,
          signedInterpretationOf(caseId, row.id, revision, plan, now),
        );
      }
      return { row, state };
    });
    await afterCommit?.();
    return await toRecordItem(kind, row, { state, now, ...ctx });
  } catch (error) {
    // The item lock makes this unreachable in practice; the unique index is the last line of defence.
    if (!isUniqueViolation(error, "case_record_revisions_record_revision_idx")) throw error;
    throw conflict(
      `This ${recordLabels[kind]} was changed by someone else at the same moment; reload it and try again.`,
    );
  }
}

/** `GET …/{itemId}/revisions`: the item and every revision, oldest first. */
export async function getRecordHistory(
  ctx: RecordsContext,
  kind: RecordKind,
  caseId: string,
  itemId: string,
): Promise<{ item: RecordItem; revisions: RecordRevision[] }> {
  const state = await requireCaseState(ctx.db, caseId);
  const row = await findRecord(ctx.db, { id: itemId, caseId, kind });
  if (!row) throw notFoundItem(kind, state, itemId);
  const [item, revisions] = await Promise.all([
    toRecordItem(kind, row, { state, now: new Date(), ...ctx }),
    findRevisions(ctx.db, row.id),
  ]);
  return { item, revisions: revisions.map(toRevision) };
}

/** A final (signed), not deleted interpretation exists: the precondition of preview → reviewed. */
export async function hasSignedInterpretation(db: Db, caseId: string): Promise<boolean> {
  return existsSignedInterpretation(db, caseId);
}

/** `GET …/{kind}`: one page of items, newest first by their own time, with what the caller may write. */
export async function listRecords(
  ctx: RecordsContext,
  kind: RecordKind,
  caseId: string,
  query: RecordListQuery,
  reader: RecordReader,
) {
  const now = new Date();
  const state = await requireCaseState(ctx.db, caseId);
  const { rows, total } = await findRecordPage(ctx.db, { caseId, kind, ...query });
  const [items, summary] = await Promise.all([
    toRecordItems(kind, rows, { state, now, ...ctx }),
    summaryOf(ctx, kind, state, reader, now),
  ]);
  return {
    caseId,
    stage: state.stage,
    write: writeStateOf(kind, state, reader.permissions),
    items,
    total,
    limit: query.limit,
    offset: query.offset,
    summary,
  };
}
