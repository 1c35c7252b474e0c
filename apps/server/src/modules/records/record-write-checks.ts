import {
  type CaseStage,
  type EventData,
  formatInstantInZone,
  type Permission,
  type RecordKind,
  type RecordWriteState,
  recordReasonRequired,
  recordWriteRefusal,
  type TimeLogData,
} from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { requireClient } from "../clients/clients-service.js";
import { getContact } from "../clients/contacts-service.js";
import { draftInterpretationMeta } from "./interpretation-rules.js";
import { assertInsideMonitoringPeriod } from "./monitoring-period-service.js";
import { impedanceProtocolOf, toRecordItem } from "./record-items.js";
import { type RecordsContext, recordLabels } from "./record-types.js";
import { type CaseState, findCaseState, findOverlappingTimeLogs, findRecord } from "./records-repository.js";
import { futureToleranceMinutes } from "./time-log-rules.js";

/*
 * What a record write must satisfy beyond its schema: the case exists and its stage lets the caller write this kind,
 * times of things that happened are not in the future, a billable time log lies in the monitoring period and
 * overlaps no other log of its technologist, and an event's notified contact belongs to the case's client.
 */

export async function requireCaseState(db: Db, caseId: string, lock?: "update"): Promise<CaseState> {
  const state = await findCaseState(db, caseId, lock);
  if (!state) throw new AppError("not_found", `No case with id ${caseId}.`);
  return state;
}

export function notFoundItem(kind: RecordKind, state: CaseState, itemId: string): AppError {
  return new AppError("not_found", `${state.caseNumber} has no ${recordLabels[kind]} with id ${itemId}.`);
}

/** Whether `permissions` may write `kind` on this case now, and if not why (the contract's one wording). */
export function writeStateOf(
  area: RecordKind | "patient-details",
  state: { stage: CaseStage; archivedAt: Date | null },
  permissions: ReadonlySet<Permission>,
): RecordWriteState {
  const { stage } = state;
  const refusal = recordWriteRefusal(area, { stage, archived: state.archivedAt !== null }, permissions);
  return { allowed: !refusal, reason: refusal?.message ?? null, reasonRequired: recordReasonRequired(area, stage) };
}

export function assertWritable(kind: RecordKind, state: CaseState, permissions: ReadonlySet<Permission>): void {
  const refusal = recordWriteRefusal(kind, { stage: state.stage, archived: state.archivedAt !== null }, permissions);
  if (refusal) throw new AppError(refusal.code, refusal.message, { stage: state.stage, area: kind });
}

export function badRequest(issues: { path: string; message: string }[]): AppError {
  return new AppError("bad_request", `Invalid request: ${issues.map((i) => `${i.path} ${i.message}`).join("; ")}`, {
    issues,
  });
}

/** The reason of a change, required where the table says so (none of the six kinds today; kept general). */
export function reasonFor(kind: RecordKind, state: CaseState, reason: string | null | undefined): string | null {
  const given = reason?.trim() || null;
  if (!given && recordReasonRequired(kind, state.stage)) {
    throw badRequest([{ path: "body.reason", message: `is required while the case is in ${state.stage}` }]);
  }
  return given;
}

/** Times of things that happened may not lie in the future (a little clock drift is forgiven). */
export function assertNotFuture(fields: { path: string; value: string | null | undefined }[], now: Date): void {
  const limit = now.getTime() + futureToleranceMinutes * 60_000;
  const issues = fields
    .filter((field) => field.value && Date.parse(field.value) > limit)
    .map((field) => ({ path: field.path, message: "must not be in the future" }));
  if (issues.length > 0) throw badRequest(issues);
}

export type Checked = { kind: RecordKind; data: unknown; prefix: string; state: CaseState; now: Date };

/** The rules of each kind's data that the schema alone cannot judge; `prefix` names where the data sat. */
export async function checkKindData(
  tx: Db,
  ctx: RecordsContext,
  input: Checked,
  technologist: string,
  itemId?: string,
) {
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
export async function assertNoOverlap(
  tx: Db,
  ctx: RecordsContext,
  input: Checked,
  technologist: string,
  itemId?: string,
) {
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
  const item = row ? await toRecordItem("time-log", row, { state: input.state, now: input.now, ...ctx, db: tx }) : null;
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
export async function clientTimeZone(db: Db, state: CaseState): Promise<string> {
  return (await requireClient(db, state.clientId)).timezone;
}

/** What the server keeps beside a new item's data. */
export async function initialMeta(tx: Db, kind: RecordKind, state: CaseState): Promise<Record<string, unknown>> {
  if (kind === "interpretation") return { ...draftInterpretationMeta };
  if (kind === "impedance") return { thresholdKohm: (await impedanceProtocolOf(tx, state)).thresholdKohm };
  return {};
}
