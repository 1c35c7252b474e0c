import type {
  Author,
  BillingNoteItem,
  CaseNoteItem,
  EventItem,
  ImpedanceData,
  ImpedanceItem,
  InterpretationData,
  InterpretationItem,
  RecordKind,
  RevisionChange,
  TimeLogData,
  TimeLogItem,
} from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { findConcurrentPeaks } from "../../db/concurrent-peaks.js";
import { getCurrentProtocolRevision, getProtocolRevisionById } from "../clients/protocol-service.js";
import { defaultImpedanceIntervalHours, defaultImpedanceThresholdKohm, judgeImpedance } from "./impedance-rules.js";
import { interpretationMetaOf } from "./interpretation-rules.js";
import type { CaseState, RecordRow, RevisionRow } from "./records-repository.js";
import { capFor, durationMinutes, type TechnologistCaps } from "./time-log-rules.js";

/** Rows → the contract's wire shapes. What the server derives (flags, durations, concurrency) is computed here. */

export type RecordItem = InterpretationItem | ImpedanceItem | EventItem | TimeLogItem | CaseNoteItem | BillingNoteItem;

export type RecordRevision = {
  id: string;
  itemId: string;
  revision: number;
  change: RevisionChange;
  deleted: boolean;
  reason: string | null;
  data: unknown;
  author: Author;
  createdAt: string;
};

/** What the impedance checks of a case are judged by: the pinned protocol, else the client's current one. */
export type ImpedanceProtocol = { protocolRevision: number | null; thresholdKohm: number; intervalHours: number };

export async function impedanceProtocolOf(db: Db, state: CaseState): Promise<ImpedanceProtocol> {
  const protocol = state.protocolRevisionId
    ? await getProtocolRevisionById(db, state.protocolRevisionId)
    : await getCurrentProtocolRevision(db, state.clientId);
  if (!protocol) {
    return {
      protocolRevision: null,
      thresholdKohm: defaultImpedanceThresholdKohm,
      intervalHours: defaultImpedanceIntervalHours,
    };
  }
  return {
    protocolRevision: protocol.revision,
    thresholdKohm: protocol.impedanceThresholdKohm,
    intervalHours: protocol.impedanceCheckIntervalHours,
  };
}

export function authorOf(sub: string | null, username: string, name: string | null): Author {
  return { sub, username, name };
}

/**
 * What every kind's item shares. Each item lists its own fields first and spreads these after them: on Node 20's V8
 * an object literal that starts with a spread and then adds keys gets a hidden class (map) of its own, built in the
 * old generation, for every object — a page of items left its maps for the mark-compact to collect.
 */
function baseItem(row: RecordRow) {
  return {
    id: row.id,
    caseId: row.caseId,
    revision: row.revision,
    deleted: row.deleted,
    createdAt: row.createdAt.toISOString(),
    createdBy: authorOf(row.createdBySub, row.createdByUsername, row.createdByName),
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: authorOf(row.updatedBySub, row.updatedByUsername, row.updatedByName),
  };
}

export function toRevision(row: RevisionRow): RecordRevision {
  return {
    id: row.id,
    itemId: row.recordId,
    revision: row.revision,
    change: row.change,
    deleted: row.deleted,
    reason: row.reason,
    data: row.data,
    author: authorOf(row.authorSub, row.authorUsername, row.authorName),
    createdAt: row.createdAt.toISOString(),
  };
}

type ItemOptions = { db: Db; caps: TechnologistCaps; state: CaseState; now: Date };

/**
 * The wire shape of each row, in order. Time logs are judged together: one query fetches every overlapping log
 * of the technologists on the page, and each log's concurrency is computed from those in memory.
 */
export async function toRecordItems(kind: RecordKind, rows: readonly RecordRow[], options: ItemOptions) {
  switch (kind) {
    case "interpretation":
      return rows.map((row): InterpretationItem => {
        const meta = interpretationMetaOf(row.meta);
        return {
          kind: "interpretation",
          data: row.data as InterpretationData,
          status: meta.status,
          signedBy: meta.signedBy,
          signedAt: meta.signedAt,
          addenda: meta.addenda,
          ...baseItem(row),
        };
      });
    case "impedance": {
      // Each check keeps the threshold it was judged by; the case's protocol fills in for rows without one.
      const needsProtocol = rows.some(
        (row) => typeof (row.meta as { thresholdKohm?: unknown }).thresholdKohm !== "number",
      );
      const fallback = needsProtocol ? (await impedanceProtocolOf(options.db, options.state)).thresholdKohm : 0;
      return rows.map((row): ImpedanceItem => {
        const data = row.data as ImpedanceData;
        const stored = (row.meta as { thresholdKohm?: unknown }).thresholdKohm;
        const thresholdKohm = typeof stored === "number" ? stored : fallback;
        return {
          kind: "impedance",
          data,
          thresholdKohm,
          ...judgeImpedance(data.values, thresholdKohm),
          ...baseItem(row),
        };
      });
    }
    case "time-log":
      return timeLogItems(rows, options);
    case "event":
      return rows.map((row): EventItem => ({ kind: "event", data: row.data as EventItem["data"], ...baseItem(row) }));
    case "case-note":
      return rows.map(
        (row): CaseNoteItem => ({ kind: "case-note", data: row.data as CaseNoteItem["data"], ...baseItem(row) }),
      );
    case "billing-note":
      return rows.map(
        (row): BillingNoteItem => ({
          kind: "billing-note",
          data: row.data as BillingNoteItem["data"],
          ...baseItem(row),
        }),
      );
  }
}

export async function toRecordItem(kind: RecordKind, row: RecordRow, options: ItemOptions): Promise<RecordItem> {
  const [item] = await toRecordItems(kind, [row], options);
  return item as RecordItem;
}

function intervalOf(data: TimeLogData) {
  return { start: new Date(data.startedAt), end: data.endedAt ? new Date(data.endedAt) : null };
}

async function timeLogItems(rows: readonly RecordRow[], options: ItemOptions): Promise<TimeLogItem[]> {
  if (rows.length === 0) return [];
  const { now, caps } = options;
  // Kept on write for live logs (db/concurrent-peaks.ts); a deleted log's is counted as if it were live.
  const peaks = await findConcurrentPeaks(
    options.db,
    rows.map((row) => row.id),
  );
  return rows.map((row): TimeLogItem => {
    const data = row.data as TimeLogData;
    const interval = intervalOf(data);
    const concurrentPeak = peaks.get(row.id) ?? 1;
    const cap = capFor(data.mode, caps);
    return {
      kind: "time-log",
      data,
      technologist: authorOf(row.createdBySub, row.createdByUsername, row.createdByName),
      running: data.endedAt === null,
      durationMinutes: durationMinutes(interval, now),
      concurrentPeak,
      cap,
      overCap: cap !== null && concurrentPeak > cap,
      ...baseItem(row),
    };
  });
}
