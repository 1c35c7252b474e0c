import type { Permission, RecordKind } from "@vigil/contract";
import type { Actor } from "../../audit/audited-write.js";
import type { Db } from "../../db/client.js";
import type { TechnologistCaps } from "./time-log-rules.js";

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

/** Each kind as a refusal names it. */
export const recordLabels: Record<RecordKind, string> = {
  interpretation: "interpretation",
  impedance: "impedance check",
  event: "event",
  "time-log": "time log",
  "case-note": "case note",
  "billing-note": "billing note",
};

/** Which item a revision is for: one by id, or the caller's latest time log on the case (clock-out). */
export type RevisionTarget = { itemId: string } | { latestOfCaller: true };

/** The author columns of a revision written by `user`. */
export function authorFields(user: RecordUser) {
  return { sub: user.sub, username: user.username, name: user.name };
}
