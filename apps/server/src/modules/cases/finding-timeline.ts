import { createHash } from "node:crypto";
import { criticalFindingKindLabels, type TimelineEntry } from "@vigil/contract";
import type { FindingHistoryRow, FindingLevelRow } from "./finding-history-repository.js";

/** Vigil itself, as the actor of the escalations it sends on the protocol's behalf. */
const vigil = { sub: null, username: "vigil", name: "Vigil" };

/**
 * A stable id for one step of one finding (the steps have no rows of their own): a version-8 UUID from a digest of
 * the finding's id and the step, so a screen can key the timeline's entries and a re-read gives the same ids.
 */
function stepId(findingId: string, step: string): string {
  const hex = createHash("sha256").update(`${findingId}:${step}`).digest("hex");
  const variant = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A critical finding's steps as timeline actions (PRODUCT.md §11): raised (with who was told), each escalation (who
 * was told then), the acknowledgement (by link: the name given; by phone: who recorded it) and the cancellation.
 */
export function findingTimelineEntries(findings: FindingHistoryRow[], levels: FindingLevelRow[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  for (const finding of findings) {
    const told = (level: number) => levels.find((row) => row.findingId === finding.id && row.level === level);
    entries.push({
      kind: "action",
      id: stepId(finding.id, "raised"),
      at: finding.raisedAt.toISOString(),
      actor: { sub: finding.raisedBySub, username: finding.raisedByUsername, name: finding.raisedByName },
      action: "raise-critical-finding",
      details: {
        findingId: finding.id,
        finding: criticalFindingKindLabels[finding.kind],
        description: finding.description,
        windowMinutes: finding.windowMinutes,
        notified: told(0)?.names ?? "nobody (no contact, reviewer or coordinator with an address)",
      },
    });
    for (const level of levels.filter((row) => row.findingId === finding.id && row.level > 0)) {
      entries.push({
        kind: "action",
        id: stepId(finding.id, `escalated-${level.level}`),
        at: level.at.toISOString(),
        actor: vigil,
        action: "escalate-critical-finding",
        details: { findingId: finding.id, escalation: level.level, notified: level.names },
      });
    }
    if (finding.status === "acknowledged" && finding.acknowledgedAt) {
      const name = finding.acknowledgedName ?? "";
      const byPhone = finding.acknowledgedVia === "phone";
      entries.push({
        kind: "action",
        id: stepId(finding.id, "acknowledged"),
        at: finding.acknowledgedAt.toISOString(),
        actor:
          byPhone && finding.recordedByUsername
            ? { sub: finding.recordedBySub, username: finding.recordedByUsername, name: finding.recordedByName }
            : { sub: null, username: name, name },
        action: "acknowledge-critical-finding",
        details: {
          findingId: finding.id,
          acknowledgedBy: name,
          via: byPhone ? "phone" : "link",
          readBackConfirmed: finding.readBackConfirmed,
          ...(finding.acknowledgementNote ? { note: finding.acknowledgementNote } : {}),
        },
      });
    }
    if (finding.status === "cancelled" && finding.cancelledAt) {
      entries.push({
        kind: "action",
        id: stepId(finding.id, "cancelled"),
        at: finding.cancelledAt.toISOString(),
        actor: {
          sub: finding.cancelledBySub,
          username: finding.cancelledByUsername ?? "",
          name: finding.cancelledByName,
        },
        action: "cancel-critical-finding",
        details: { findingId: finding.id, reason: finding.cancelReason ?? "" },
      });
    }
  }
  return entries;
}
