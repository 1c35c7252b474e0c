import type { AuditPage, auditQuerySchema } from "@vigil/contract";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { type AuditEventRow, listAuditEvents as listAuditEventRows } from "./audit-repository.js";

type AuditEntry = AuditPage["items"][number];

function toAuditEntry(row: AuditEventRow): AuditEntry {
  const details = row.details;
  return {
    id: row.id,
    at: row.at.toISOString(),
    action: row.action,
    outcome: row.outcome,
    actor: { sub: row.actorSub, username: row.actorUsername },
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
    ip: row.ip,
    userAgent: row.userAgent,
    count: row.repeatCount,
    details:
      details === null || details === undefined
        ? null
        : typeof details === "object" && !Array.isArray(details)
          ? (details as Record<string, unknown>)
          : { value: details },
  };
}

/** `GET /audit`: the log, newest first, filtered by actor, action, target, case, client, outcome and time. */
export async function listAuditEvents(db: Db, query: z.output<typeof auditQuerySchema>): Promise<AuditPage> {
  const { rows, total } = await listAuditEventRows(
    db,
    {
      actorUsername: query.user,
      action: query.action,
      targetType: query.targetType,
      targetId: query.targetId,
      // Ids are stored as Postgres prints uuids: lower case.
      caseId: query.caseId?.toLowerCase(),
      clientId: query.clientId?.toLowerCase(),
      outcome: query.outcome,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    },
    query,
  );
  return { items: rows.map(toAuditEntry), total, limit: query.limit, offset: query.offset };
}
