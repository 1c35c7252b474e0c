import type { Author, InterpretationData, Permission, RecordKind } from "@vigil/contract";
import type { Actor } from "../../audit/audited-write.js";
import type { Db } from "../../db/client.js";
import type { TechnologistCaps } from "./time-log-rules.js";

/**
 * An interpretation just signed, or given an addendum, in the writer's transaction: what the modules above records
 * (reports) need to issue that version of the report. Handed in by app.ts, so records never imports them.
 */
export type SignedInterpretation = {
  caseId: string;
  interpretationId: string;
  /** The interpretation's revision that was just written. */
  revision: number;
  change: "sign" | "addendum";
  data: InterpretationData;
  signedBy: Author;
  signedAt: string;
  addenda: { revision: number; text: string; author: Author; createdAt: string }[];
  at: Date;
};

/**
 * Called in the transaction that signs an interpretation or appends an addendum; what it writes commits or rolls back
 * with the signature. What it returns runs after the commit (sending mail must not hold the transaction open).
 */
export type InterpretationSignedHook = (
  tx: Db,
  signed: SignedInterpretation,
) => Promise<(() => Promise<void>) | undefined>;

export type RecordsContext = { db: Db; caps: TechnologistCaps; onInterpretationSigned?: InterpretationSignedHook };

/** Who reads: enough to say what they may write. */
export type RecordReader = { username: string; permissions: ReadonlySet<Permission> };
/** Who writes: the audit actor, their display name (looked up before any transaction) and permissions. */
export type RecordUser = Actor & RecordReader & { name: string | null };

export type RevisionRequest =
  | { change: "edit"; baseRevision: number; data: unknown; reason?: string | null | undefined }
  | { change: "delete" | "restore"; baseRevision: number; reason?: string | null | undefined }
  | { change: "sign"; baseRevision: number; data?: unknown; impressionCode?: string | null | undefined }
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
