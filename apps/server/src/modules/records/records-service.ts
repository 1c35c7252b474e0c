import {
  type Author,
  billingNoteDataSchema,
  type CaseStage,
  caseNoteDataSchema,
  type EventData,
  eventDataSchema,
  formatInstantInZone,
  impedanceDataSchema,
  interpretationDataSchema,
  type Permission,
  type RecordKind,
  type RecordWriteState,
  type RevisionChange,
  recommendedImpedanceKohm,
  recordReasonRequired,
  recordWriteRefusal,
  type TimeLogData,
  type TimeLogItem,
  timeLogDataSchema,
} from "@vigil/contract";
import type { z } from "zod";
import { type Actor, auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { AppError } from "../../errors/app-error.js";
import { findUserById } from "../../identity/user-directory.js";
import { getCaseTimeline } from "../cases/cases-service.js";
import { requireClient } from "../clients/clients-service.js";
import { getContact } from "../clients/contacts-service.js";
import { impedanceDue } from "./impedance-rules.js";
import {
  draftInterpretationMeta,
  interpretationChangeRefusal,
  interpretationMetaOf,
  lacksImpression,
} from "./interpretation-rules.js";
import { assertInsideMonitoringPeriod } from "./monitoring-period-service.js";
import {
  authorOf,
  impedanceProtocolOf,
  type RecordItem,
  type RecordRevision,
  toRecordItem,
  toRecordItems,
  toRevision,
} from "./record-items.js";
import {
  type CaseState,
  countUnacknowledgedNotifications,
  existsSignedInterpretation,
  findCaseState,
  findLatestRecordTime,
  findLatestTimeLogOf,
  findOverlappingTimeLogs,
  findRecord,
  findRecordPage,
  findRevisions,
  findRunningTimeLogsOf,
  findTimeLogsOfCase,
  insertRecord,
  insertRevision,
  type RecordRow,
  saveTimeLog,
  updateRecordRow,
} from "./records-repository.js";
import { currentLoad, futureToleranceMinutes, reviewCheckState, type TechnologistCaps } from "./time-log-rules.js";

/**
 * Per-case records (PRODUCT.md §4): items with append-only revisions. Every write runs in one
 * transaction that locks the case row (so the stage that allowed it cannot change under it), checks the
 * stage-and-group table of the contract, locks the item and compares the base revision, then appends the
 * revision, moves the item's current state, keeps the time-log projection and records the audit event.
 */

export type RecordsContext = { db: Db; caps: TechnologistCaps };

/** Who reads: enough to say what they may write. */
export type RecordReader = { username: string; permissions: ReadonlySet<Permission> };
/** Who writes: the audit actor, their display name (looked up before any transaction) and permissions. */
export type RecordUser = Actor & RecordReader & { name: string | null };

export type RevisionRequest =
  | { change: "edit"; baseRevision: number; data: unknown; reason?: string | null | undefined }
  | { change: "delete" | "restore"; baseRevision: number; reason?: string | null | undefined }
  | { change: "sign"; baseRevision: number; data?: unknown }
  | { change: "addendum"; baseRevision: number; text: string }
  | { change: "clock-out"; baseRevision?: number | undefined; endedAt?: string | undefined };

export type RecordListQuery = { limit: number; offset: number; includeDeleted: boolean };

const labels: Record<RecordKind, string> = {
  interpretation: "interpretation",
  impedance: "impedance check",
  event: "event",
  "time-log": "time log",
  "case-note": "case note",
  "billing-note": "billing note",
};

const dataSchemas = {
  interpretation: interpretationDataSchema,
  impedance: impedanceDataSchema,
  event: eventDataSchema,
  "time-log": timeLogDataSchema,
  "case-note": caseNoteDataSchema,
  "billing-note": billingNoteDataSchema,
} satisfies Record<RecordKind, z.ZodType>;

export async function recordUserOf(db: Db, actor: Actor, permissions: ReadonlySet<Permission>): Promise<RecordUser> {
  // Outside any transaction: PGlite has one connection, and a transaction holds it.
  const user = await findUserById(db, actor.sub);
  return { ...actor, name: user?.name ?? null, permissions };
}

function authorFields(user: RecordUser) {
  return { sub: user.sub, username: user.username, name: user.name };
}

async function requireCaseState(db: Db, caseId: string, lock?: "update"): Promise<CaseState> {
  const state = await findCaseState(db, caseId, lock);
  if (!state) throw new AppError("not_found", `No case with id ${caseId}.`);
  return state;
}

function notFoundItem(kind: RecordKind, state: CaseState, itemId: string): AppError {
  return new AppError("not_found", `${state.caseNumber} has no ${labels[kind]} with id ${itemId}.`);
}

/** Whether `permissions` may write `kind` on this case now, and if not why (the contract's one wording). */
export function writeStateOf(
  area: RecordKind | "patient-details",
  state: { stage: string; archivedAt: Date | null },
  permissions: ReadonlySet<Permission>,
): RecordWriteState {
  const stage = state.stage as CaseStage;
  const refusal = recordWriteRefusal(area, { stage, archived: state.archivedAt !== null }, permissions);
  return { allowed: !refusal, reason: refusal?.message ?? null, reasonRequired: recordReasonRequired(area, stage) };
}

function assertWritable(kind: RecordKind, state: CaseState, permissions: ReadonlySet<Permission>): void {
  const refusal = recordWriteRefusal(
    kind,
    { stage: state.stage as CaseStage, archived: state.archivedAt !== null },
    permissions,
  );
  if (refusal) throw new AppError(refusal.code, refusal.message, { stage: state.stage, area: kind });
}

function badRequest(issues: { path: string; message: string }[]): AppError {
  return new AppError("bad_request", `Invalid request: ${issues.map((i) => `${i.path} ${i.message}`).join("; ")}`, {
    issues,
  });
}

/** The reason of a change, required where the table says so (none of the six kinds today; kept general). */
function reasonFor(kind: RecordKind, state: CaseState, reason: string | null | undefined): string | null {
  const given = reason?.trim() || null;
  if (!given && recordReasonRequired(kind, state.stage as CaseStage)) {
    throw badRequest([{ path: "body.reason", message: `is required while the case is in ${state.stage}` }]);
  }
  return given;
}

/** Times of things that happened may not lie in the future (a little clock drift is forgiven). */
function assertNotFuture(fields: { path: string; value: string | null | undefined }[], now: Date): void {
  const limit = now.getTime() + futureToleranceMinutes * 60_000;
  const issues = fields
    .filter((field) => field.value && Date.parse(field.value) > limit)
    .map((field) => ({ path: field.path, message: "must not be in the future" }));
  if (issues.length > 0) throw badRequest(issues);
}

type Checked = { kind: RecordKind; data: unknown; prefix: string; state: CaseState; now: Date };

/** The rules of each kind's data that the schema alone cannot judge; `prefix` names where the data sat. */
async function checkKindData(tx: Db, ctx: RecordsContext, input: Checked, technologist: string, itemId?: string) {
  const { kind, prefix, now } = input;
  if (kind === "time-log") {
    const data = input.data as TimeLogData;
    assertNotFuture(
      [
        { path: `${prefix}startedAt`, value: data.startedAt },
        { path: `${prefix}endedAt`, value: data.endedAt },
      ],
      now,
    );
    await assertInsideMonitoringPeriod(tx, data, input.state, prefix);
    await assertNoOverlap(tx, ctx, input, technologist, itemId);
  }
  if (kind === "impedance") {
    assertNotFuture([{ path: `${prefix}checkedAt`, value: (input.data as { checkedAt: string }).checkedAt }], now);
  }
  if (kind === "event") {
    const data = input.data as EventData;
    assertNotFuture([{ path: `${prefix}occurredAt`, value: data.occurredAt }], now);
    const contactId = data.notification?.contactId;
    if (contactId) {
      // Through the clients module's service: a removed contact or one of another client is not this client's.
      const contact = await getContact(tx, contactId).catch((error: unknown) => {
        if (error instanceof AppError && error.code === "not_found") return undefined;
        throw error;
      });
      if (!contact || contact.clientId !== input.state.clientId) {
        throw badRequest([
          { path: `${prefix}notification.contactId`, message: "is not a contact of the case's client" },
        ]);
      }
    }
  }
}

/**
 * One technologist's logs on one case may not overlap: a second log over the same minutes would bill them twice.
 * A running log is open-ended, so at most one can run per technologist and case.
 */
async function assertNoOverlap(tx: Db, ctx: RecordsContext, input: Checked, technologist: string, itemId?: string) {
  const data = input.data as TimeLogData;
  const [overlapping] = await findOverlappingTimeLogs(tx, {
    caseId: input.state.id,
    technologistUsername: technologist,
    start: new Date(data.startedAt),
    end: data.endedAt ? new Date(data.endedAt) : null,
    ...(itemId ? { excludeId: itemId } : {}),
  });
  if (!overlapping) return;
  const row = await findRecord(tx, { id: overlapping.recordId, caseId: input.state.id, kind: "time-log" });
  const item = row ? await toRecordItem("time-log", row, { ...ctx, db: tx, state: input.state, now: input.now }) : null;
  const timeZone = await clientTimeZone(tx, input.state);
  const until = overlapping.endedAt ? formatInstantInZone(overlapping.endedAt, timeZone) : "now (it is still running)";
  throw new AppError(
    "conflict",
    `This time log overlaps ${technologist}'s log on this case from ${formatInstantInZone(overlapping.startedAt, timeZone)} to ${until}; one technologist's logs on a case may not overlap. End or adjust that log first.`,
    {
      overlapping: item,
      issues: [{ path: `${input.prefix}startedAt`, message: "overlaps another log of the same technologist here" }],
    },
  );
}

/** The zone of the case's client: refusals name times in it, as the screens do. */
async function clientTimeZone(db: Db, state: CaseState): Promise<string> {
  return (await requireClient(db, state.clientId)).timezone;
}

/** What the server keeps beside a new item's data. */
async function initialMeta(tx: Db, kind: RecordKind, state: CaseState): Promise<Record<string, unknown>> {
  if (kind === "interpretation") return { ...draftInterpretationMeta };
  if (kind === "impedance") return { thresholdKohm: (await impedanceProtocolOf(tx, state)).thresholdKohm };
  return {};
}

function timeLogProjection(
  row: { id: string; caseId: string },
  data: TimeLogData,
  deleted: boolean,
  technologist: Author,
) {
  return {
    recordId: row.id,
    caseId: row.caseId,
    technologistSub: technologist.sub,
    technologistUsername: technologist.username,
    technologistName: technologist.name,
    activity: data.activity,
    mode: data.mode,
    video: data.video,
    billable: data.billable,
    channels: data.channels,
    startedAt: new Date(data.startedAt),
    endedAt: data.endedAt ? new Date(data.endedAt) : null,
    deleted,
  };
}

async function auditRecordWrite(
  tx: Db,
  user: RecordUser,
  state: CaseState,
  detail: { kind: RecordKind; itemId: string; revision: number; change: RevisionChange },
): Promise<void> {
  // The audit row names the case and the item, never the clinical content: the audit log is read more widely.
  const action = detail.change === "create" ? "case-record.create" : "case-record.revise";
  const target = { type: "case", id: state.id };
  await recordAudit(tx, auditedWrite(user, action, target, { caseNumber: state.caseNumber, ...detail }));
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
    const author = authorFields(user);
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
    return { row, state };
  });
  return toRecordItem(kind, row, { ...ctx, state, now });
}

type Plan = {
  change: RevisionChange;
  data: unknown;
  deleted: boolean;
  meta: Record<string, unknown>;
  reason: string | null;
};

function conflict(message: string, details?: Record<string, unknown>): AppError {
  return new AppError("conflict", message, details);
}

/** What a revision request makes of the item, or why it cannot be applied (403, 409, 400). */
async function planRevision(
  tx: Db,
  kind: RecordKind,
  row: RecordRow,
  request: RevisionRequest,
  context: { state: CaseState; user: RecordUser; now: Date },
): Promise<Plan> {
  const { state, user, now } = context;
  const label = labels[kind];
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
      const data = (request.data ?? row.data) as z.output<typeof interpretationDataSchema>;
      if (lacksImpression(data)) {
        const path = request.data ? "body.data.impression" : "data.impression";
        throw conflict("An interpretation is signed with its impression; write the impression first.", {
          issues: [{ path, message: "is required to sign" }],
        });
      }
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
      return { change: "clock-out", data: { ...data, endedAt }, deleted: false, meta, reason: null };
    }
  }
}

async function staleBase(
  tx: Db,
  ctx: RecordsContext,
  kind: RecordKind,
  row: RecordRow,
  baseRevision: number,
  context: { state: CaseState; now: Date },
): Promise<AppError> {
  const current = await toRecordItem(kind, row, { ...ctx, db: tx, ...context });
  return conflict(
    `This ${labels[kind]} was changed by someone else: it is at revision ${row.revision}, and you based your change on revision ${baseRevision}. Review the current version and apply your change again.`,
    { current, currentRevision: row.revision, baseRevision },
  );
}

/** Which item a revision is for: one by id, or the caller's latest time log on the case (clock-out). */
export type RevisionTarget = { itemId: string } | { latestOfCaller: true };

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
      return { row, state };
    });
    return await toRecordItem(kind, row, { ...ctx, state, now });
  } catch (error) {
    // The item lock makes this unreachable in practice; the unique index is the last line of defence.
    if (!isUniqueViolation(error, "case_record_revisions_record_revision_idx")) throw error;
    throw conflict(`This ${labels[kind]} was changed by someone else at the same moment; reload it and try again.`);
  }
}

async function findTarget(
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
    toRecordItem(kind, row, { ...ctx, state, now: new Date() }),
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
    toRecordItems(kind, rows, { ...ctx, state, now }),
    summaryOf(ctx, kind, state, reader, now),
  ]);
  return {
    caseId,
    stage: state.stage as CaseStage,
    write: writeStateOf(kind, state, reader.permissions),
    items,
    total,
    limit: query.limit,
    offset: query.offset,
    summary,
  };
}

async function summaryOf(ctx: RecordsContext, kind: RecordKind, state: CaseState, reader: RecordReader, now: Date) {
  switch (kind) {
    case "interpretation":
      return {
        signed: await existsSignedInterpretation(ctx.db, state.id),
        canSign: reader.permissions.has("records:sign-interpretation"),
      };
    case "impedance":
      return impedanceSummary(ctx.db, state, now);
    case "event":
      return { unacknowledged: await countUnacknowledgedNotifications(ctx.db, state.id) };
    case "time-log":
      return timeLogSummary(ctx, state, reader, now);
    case "case-note":
    case "billing-note":
      return {};
  }
}

/** When monitoring started: the recording start, else the latest completed move into monitoring. */
async function monitoringStartedAt(db: Db, state: CaseState): Promise<Date | null> {
  if (state.recordingStartedAt) return state.recordingStartedAt;
  const timeline = await getCaseTimeline(db, state.id);
  const started = timeline.items.findLast(
    (entry) =>
      entry.kind === "transition" && entry.transition.to === "monitoring" && entry.transition.status === "completed",
  );
  return started ? new Date(started.at) : null;
}

async function impedanceSummary(db: Db, state: CaseState, now: Date) {
  const [protocol, lastCheckedAt] = await Promise.all([
    impedanceProtocolOf(db, state),
    findLatestRecordTime(db, { caseId: state.id, kind: "impedance", field: "checkedAt" }),
  ]);
  const due = impedanceDue({
    stage: state.stage as CaseStage,
    lastCheckedAt: lastCheckedAt ?? null,
    recordingStartedAt: state.recordingStartedAt,
    monitoringStartedAt: state.stage === "monitoring" && !lastCheckedAt ? await monitoringStartedAt(db, state) : null,
    intervalHours: protocol.intervalHours,
    now,
  });
  return {
    protocolRevision: protocol.protocolRevision,
    thresholdKohm: protocol.thresholdKohm,
    cautionKohm: recommendedImpedanceKohm,
    intervalHours: protocol.intervalHours,
    lastCheckedAt: lastCheckedAt?.toISOString() ?? null,
    dueAt: due.dueAt?.toISOString() ?? null,
    overdue: due.overdue,
  };
}

async function timeLogSummary(ctx: RecordsContext, state: CaseState, reader: RecordReader, now: Date) {
  const { db, caps } = ctx;
  const [logs, lastReviewCheckAt] = await Promise.all([
    findTimeLogsOfCase(db, state.id),
    findLatestRecordTime(db, { caseId: state.id, kind: "event", field: "occurredAt", eventType: "review-check" }),
  ]);
  const running = logs.filter((log) => log.endedAt === null);
  const mine = running.find((log) => log.technologistUsername === reader.username);
  const mineRow = mine ? await findRecord(db, { id: mine.recordId, caseId: state.id, kind: "time-log" }) : undefined;
  const runningMine = mineRow
    ? ((await toRecordItem("time-log", mineRow, { ...ctx, state, now })) as TimeLogItem)
    : null;

  // Each technologist running a log here, with their patients now on every case (DOMAIN.md §2.3 caps).
  const technologists = [...new Map(running.map((log) => [log.technologistUsername, log])).values()];
  const everywhere = await findRunningTimeLogsOf(
    db,
    technologists.map((log) => log.technologistUsername),
  );
  const loads = technologists.map((log) => {
    const load = currentLoad(everywhere.filter((other) => other.technologistUsername === log.technologistUsername));
    return {
      technologist: authorOf(log.technologistSub, log.technologistUsername, log.technologistName),
      ...load,
      overCap: load.intermittent > caps.intermittent || load.continuous > caps.continuous,
    };
  });

  const intermittentStarts = running.filter((log) => log.mode === "intermittent").map((log) => log.startedAt.getTime());
  const review = reviewCheckState({
    runningIntermittentStartedAt: intermittentStarts.length > 0 ? new Date(Math.min(...intermittentStarts)) : null,
    lastReviewCheckAt: lastReviewCheckAt ?? null,
    now,
  });
  const billableMilliseconds = logs
    .filter((log) => log.billable)
    .reduce((sum, log) => sum + Math.max(0, (log.endedAt ?? now).getTime() - log.startedAt.getTime()), 0);
  return {
    runningMine,
    caps: { intermittent: caps.intermittent, continuous: caps.continuous },
    technologists: loads,
    reviewCheck: {
      required: review.required,
      lastAt: review.lastAt?.toISOString() ?? null,
      dueAt: review.dueAt?.toISOString() ?? null,
      overdue: review.overdue,
    },
    billableMinutes: Math.floor(billableMilliseconds / 60_000),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Importing kept records (the demo seed): whole histories written as they happened, without the stage rules
// ---------------------------------------------------------------------------------------------------------------

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
    meta = { ...meta, ...revision.meta };
    if (input.kind === "interpretation" && revision.change === "sign") {
      meta = { ...meta, status: "final", signedBy: revision.author, signedAt: revision.at.toISOString() };
    }
    if (input.kind === "interpretation" && revision.change === "addendum") {
      const addenda = interpretationMetaOf(meta).addenda;
      const text = revision.text ?? "";
      meta = {
        ...meta,
        addenda: [
          ...addenda,
          { revision: index + 1, text, author: revision.author, createdAt: revision.at.toISOString() },
        ],
      };
    }
    return { ...revision, data, meta, number: index + 1 };
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
