import type { CriticalFindingKind } from "@vigil/contract";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { caseRecords, cases, criticalFindings } from "../../db/schema.js";

/**
 * Critical findings written straight into their tables, the way the findings module leaves them, for the tests of
 * what reads them (the watch's clocks and the service-level report): each is an event record on its case and a
 * `critical_findings` row. Whoever writes one refreshes the case's kept clocks itself (in the same transaction `db`).
 */

const minute = 60_000;

export type FindingRowInput = {
  raisedAt: Date;
  windowMinutes: number;
  raisedBy: { sub: string | null; username: string; name?: string | null };
  kind?: CriticalFindingKind;
  /** Default: 20 minutes before it was raised. */
  onsetAt?: Date;
  firstNotifiedAt?: Date | null;
  acknowledgedAt?: Date | null;
  cancelledAt?: Date | null;
  protocolRevisionId?: string | null;
};

/** Inserts one finding (and its event record) on `caseId`; answers its id and due time. */
export async function insertFindingRow(
  db: Db,
  caseId: string,
  input: FindingRowInput,
): Promise<{ id: string; dueAt: Date }> {
  const [owner] = await db.select({ clientId: cases.clientId }).from(cases).where(eq(cases.id, caseId));
  if (!owner) throw new Error(`no case ${caseId}`);
  const onsetAt = input.onsetAt ?? new Date(input.raisedAt.getTime() - 20 * minute);
  const [record] = await db
    .insert(caseRecords)
    .values({
      caseId,
      kind: "event",
      data: { occurredAt: onsetAt.toISOString(), type: "clinical", description: "Critical finding." },
      createdByUsername: input.raisedBy.username,
      updatedByUsername: input.raisedBy.username,
    })
    .returning({ id: caseRecords.id });
  if (!record) throw new Error("the event record was not written");
  const dueAt = new Date(input.raisedAt.getTime() + input.windowMinutes * minute);
  const acknowledgedAt = input.acknowledgedAt ?? null;
  const cancelledAt = input.cancelledAt ?? null;
  const [row] = await db
    .insert(criticalFindings)
    .values({
      caseId,
      clientId: owner.clientId,
      eventRecordId: record.id,
      kind: input.kind ?? "electrographic-seizure",
      onsetAt,
      description: "Rhythmic 3 Hz discharges, left temporal, evolving.",
      raisedAt: input.raisedAt,
      raisedBySub: input.raisedBy.sub,
      raisedByUsername: input.raisedBy.username,
      raisedByName: input.raisedBy.name ?? null,
      protocolRevisionId: input.protocolRevisionId ?? null,
      windowMinutes: input.windowMinutes,
      dueAt,
      status: acknowledgedAt ? "acknowledged" : cancelledAt ? "cancelled" : "open",
      firstNotifiedAt: input.firstNotifiedAt ?? null,
      acknowledgedAt,
      acknowledgedName: acknowledgedAt ? "Dr. Ward" : null,
      acknowledgedVia: acknowledgedAt ? "phone" : null,
      cancelledAt,
      cancelReason: cancelledAt ? "Artifact on review." : null,
      cancelledByUsername: cancelledAt ? input.raisedBy.username : null,
      nextEscalationAt: acknowledgedAt || cancelledAt ? null : dueAt,
    })
    .returning({ id: criticalFindings.id });
  if (!row) throw new Error("the finding was not written");
  return { id: row.id, dueAt };
}

/** Acknowledges or cancels a finding written above, as the findings module would. */
export async function closeFindingRow(
  db: Db,
  findingId: string,
  close: { acknowledgedAt: Date } | { cancelledAt: Date },
): Promise<void> {
  await db
    .update(criticalFindings)
    .set(
      "acknowledgedAt" in close
        ? {
            status: "acknowledged",
            acknowledgedAt: close.acknowledgedAt,
            acknowledgedName: "Dr. Ward",
            acknowledgedVia: "phone" as const,
            nextEscalationAt: null,
          }
        : {
            status: "cancelled",
            cancelledAt: close.cancelledAt,
            cancelReason: "Artifact on review.",
            nextEscalationAt: null,
          },
    )
    .where(eq(criticalFindings.id, findingId));
}
